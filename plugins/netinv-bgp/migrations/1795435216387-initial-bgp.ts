import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../../framework';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class InitialBgp1795435216387 implements MigrationInterface {
  name = 'InitialBgp1795435216387';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'netinv_bgp_autonomoussystem',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'asn', type: 'bigint' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
    });
    await createTable(qr, {
      name: 'netinv_bgp_peersession',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'remote_address', type: 'varchar', length: '64' },
        { name: 'status', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'local_as_id', type: 'uuid', references: true },
        { name: 'remote_as_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['local_as_id'] },
        { columns: ['remote_as_id'] },
      ],
      uniques: [
        { columns: ['name'] },
      ],
      foreignKeys: [
        { columns: ['local_as_id'], referencedTable: 'netinv_bgp_autonomoussystem', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['remote_as_id'], referencedTable: 'netinv_bgp_autonomoussystem', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("netinv_bgp_peersession");
    await qr.dropTable("netinv_bgp_autonomoussystem");
  }
}
