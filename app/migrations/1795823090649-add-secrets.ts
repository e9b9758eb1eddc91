import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddSecrets1795823090649 implements MigrationInterface {
  name = 'AddSecrets1795823090649';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_secret',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'provider', type: 'varchar', length: '100' },
        { name: 'parameters', type: 'text', nullable: true },
        { name: '_version', type: 'integer', default: 1 },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_secretsgroup',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: '_version', type: 'integer', default: 1 },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_secretsgroupassociation',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'access_type', type: 'varchar', length: '32' },
        { name: 'secret_type', type: 'varchar', length: '32' },
        { name: 'group_id', type: 'uuid', references: true },
        { name: 'secret_id', type: 'uuid', references: true },
        { name: '_version', type: 'integer', default: 1 },
      ],
      indices: [
        { columns: ['group_id'] },
        { columns: ['secret_id'] },
      ],
      uniques: [
        { columns: ['group_id', 'access_type', 'secret_type'] },
      ],
      foreignKeys: [
        { columns: ['group_id'], referencedTable: 'extras_secretsgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['secret_id'], referencedTable: 'extras_secret', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_secretsgroupassociation");
    await qr.dropTable("extras_secretsgroup");
    await qr.dropTable("extras_secret");
  }
}
