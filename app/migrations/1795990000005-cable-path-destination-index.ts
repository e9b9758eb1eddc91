import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Cable paths are looked up by their destination (the paths ending at a circuit termination when
 * its circuit's other end is saved; an endpoint's connections): an index instead of a scan of
 * every stored path.
 */
export class CablePathDestinationIndex1795990000005 implements MigrationInterface {
  name = 'CablePathDestinationIndex1795990000005';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createIndex('dcim_cablepath', new TableIndex({ name: 'IDX_154caced25b8a5888894ea1f36', columnNames: ['destination_type', 'destination_id'], isUnique: false }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropIndex('dcim_cablepath', 'IDX_154caced25b8a5888894ea1f36');
  }
}
