import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddDynamicGroups1795823095195 implements MigrationInterface {
  name = 'AddDynamicGroups1795823095195';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_dynamicgroup',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'content_type', type: 'varchar', length: '100' },
        { name: 'filter', type: 'text', nullable: true },
        { name: '_version', type: 'integer', default: 1 },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_dynamicgroupmembership',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'operator', type: 'varchar', length: '50' },
        { name: 'weight', type: 'integer' },
        { name: 'group_id', type: 'uuid', references: true },
        { name: 'parent_group_id', type: 'uuid', references: true },
        { name: '_version', type: 'integer', default: 1 },
      ],
      indices: [
        { columns: ['group_id'] },
        { columns: ['parent_group_id'] },
      ],
      uniques: [
        { columns: ['group_id', 'parent_group_id', 'operator', 'weight'] },
      ],
      foreignKeys: [
        { columns: ['group_id'], referencedTable: 'extras_dynamicgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['parent_group_id'], referencedTable: 'extras_dynamicgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_dynamicgroupmembership");
    await qr.dropTable("extras_dynamicgroup");
  }
}
