import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable } from '../../framework/store/migration-schema';

/** Job workers' beats: which workers are alive. Drafted by generators/migration.ts; reviewed before commit. */
export class AddJobWorkerBeats1795990000001 implements MigrationInterface {
  name = 'AddJobWorkerBeats1795990000001';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_jobworker',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'worker', type: 'varchar', length: '100' },
        { name: 'alive_until', type: 'datetime', precision: 3 },
        { name: '_version', type: 'integer', default: 1 },
      ],
      uniques: [
        { columns: ['worker'] },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_jobworker");
  }
}
