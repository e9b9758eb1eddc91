import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable } from '../../framework/store/migration-schema';
import { GENERATION_TABLE } from '../../framework/store/config-cache';

/**
 * Generations of the configuration caches: a write to a table a cache is built from bumps its
 * row, and every process sharing the database reloads that cache when it sees the new number.
 */
export class CacheGenerations1795990000000 implements MigrationInterface {
  name = 'CacheGenerations1795990000000';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: GENERATION_TABLE,
      columns: [
        { name: 'name', type: 'varchar', length: '100', primary: true },
        { name: 'generation', type: 'integer' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable(GENERATION_TABLE);
  }
}
