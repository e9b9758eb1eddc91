import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class ConfigContextDynamicGroups1795823946647 implements MigrationInterface {
  name = 'ConfigContextDynamicGroups1795823946647';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_configcontext_dynamic_groups',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'dynamicgroup_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['dynamicgroup_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['dynamicgroup_id'], referencedTable: 'extras_dynamicgroup', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_configcontext_dynamic_groups");
  }
}
