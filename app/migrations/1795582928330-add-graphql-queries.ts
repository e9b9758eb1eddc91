import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddGraphqlQueries1795582928330 implements MigrationInterface {
  name = 'AddGraphqlQueries1795582928330';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_graphqlquery',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'query', type: 'text' },
        { name: 'variables', type: 'text', nullable: true },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_graphqlquery");
  }
}
