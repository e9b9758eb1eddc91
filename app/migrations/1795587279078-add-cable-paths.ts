import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddCablePaths1795587279078 implements MigrationInterface {
  name = 'AddCablePaths1795587279078';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_cablepath',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'origin_type', type: 'varchar', length: '100', nullable: true },
        { name: 'origin_id', type: 'uuid', nullable: true },
        { name: 'destination_type', type: 'varchar', length: '100' },
        { name: 'destination_id', type: 'uuid', nullable: true },
        { name: 'path', type: 'text' },
        { name: 'is_active', type: 'boolean' },
        { name: 'is_split', type: 'boolean' },
      ],
      indices: [
      ],
      uniques: [
        { columns: ['origin_type', 'origin_id'] },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("dcim_cablepath");
  }
}
