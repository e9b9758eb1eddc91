import { MigrationExecutor, type DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Told how many migrations are pending, then of each one as it is applied (for progress output). */
export interface MigrationObserver {
  pending(count: number): void;
  applied(name: string): void;
}

/**
 * Runs migration groups one after the other (core first, then each plugin in configuration order).
 * TypeORM orders one run by the timestamps in the class names, which would interleave a plugin's
 * migrations with the core ones; one run per group keeps each group after the previous.
 */
export async function runMigrationGroups(ds: DataSource, groups: ReadonlyArray<readonly Function[]>, observer?: MigrationObserver): Promise<string[]> {
  const all = ds.migrations;
  const applied: string[] = [];
  try {
    const runs = groups.filter((group) => group.length > 0).map((group) => group.map((cls) => new (cls as new () => MigrationInterface)()));
    if (observer) {
      let pending = 0;
      for (const instances of runs) {
        Object.assign(ds, { migrations: instances });
        pending += (await new MigrationExecutor(ds).getPendingMigrations()).length;
      }
      observer.pending(pending);
      for (const instance of runs.flat()) {
        const up = instance.up.bind(instance);
        const name = instance.name ?? instance.constructor.name;
        instance.up = async (queryRunner: QueryRunner) => {
          await up(queryRunner);
          observer.applied(name);
        };
      }
    }
    for (const instances of runs) {
      // The executor reads the DataSource's list; it is pointed at one group per run.
      Object.assign(ds, { migrations: instances });
      const done = await ds.runMigrations({ transaction: 'each' });
      applied.push(...done.map((m) => m.name));
    }
  } finally {
    Object.assign(ds, { migrations: all });
  }
  return applied;
}
