import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddJobHooksButtons1795584669801 implements MigrationInterface {
  name = 'AddJobHooksButtons1795584669801';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_jobbutton',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'content_types', type: 'text' },
        { name: 'text', type: 'varchar', length: '500' },
        { name: 'weight', type: 'integer' },
        { name: 'group_name', type: 'varchar', length: '50' },
        { name: 'button_class', type: 'varchar', length: '30' },
        { name: 'confirmation', type: 'boolean' },
        { name: 'job_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['job_id'] },
      ],
      uniques: [
        { columns: ['name'] },
      ],
      foreignKeys: [
        { columns: ['job_id'], referencedTable: 'extras_job', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_jobhook',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'content_types', type: 'text' },
        { name: 'enabled', type: 'boolean' },
        { name: 'type_create', type: 'boolean' },
        { name: 'type_update', type: 'boolean' },
        { name: 'type_delete', type: 'boolean' },
        { name: 'job_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['job_id'] },
      ],
      uniques: [
        { columns: ['name'] },
      ],
      foreignKeys: [
        { columns: ['job_id'], referencedTable: 'extras_job', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_jobhook");
    await qr.dropTable("extras_jobbutton");
  }
}
