import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddImageAttachments1795823528573 implements MigrationInterface {
  name = 'AddImageAttachments1795823528573';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_imageattachment',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'content_type', type: 'varchar', length: '100', nullable: true },
        { name: 'object_id', type: 'uuid', nullable: true },
        { name: 'name', type: 'varchar', length: '50' },
        { name: 'image', type: 'varchar', length: '100' },
        { name: 'image_height', type: 'integer' },
        { name: 'image_width', type: 'integer' },
        { name: 'created', type: 'datetime', precision: 3 },
        { name: 'original_name', type: 'varchar', length: '255' },
        { name: '_version', type: 'integer', default: 1 },
      ],
      indices: [
        { columns: ['content_type', 'object_id'] },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_imageattachment");
  }
}
