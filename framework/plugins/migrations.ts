import type { DataSource, MigrationInterface } from 'typeorm';

/**
 * Runs migration groups one after the other (core first, then each plugin in configuration order).
 * TypeORM orders one run by the timestamps in the class names, which would interleave a plugin's
 * migrations with the core ones; one run per group keeps each group after the previous.
 */
export async function runMigrationGroups(ds: DataSource, groups: ReadonlyArray<readonly Function[]>): Promise<string[]> {
  const all = ds.migrations;
  const applied: string[] = [];
  try {
    for (const group of groups) {
      if (group.length === 0) continue;
      const instances = group.map((cls) => new (cls as new () => MigrationInterface)());
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
