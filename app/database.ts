import type { DataSource } from 'typeorm';
import { createDataSource, prepareSchema } from '../framework/db/datasource';
import { buildRegistry, type Registry } from '../framework';
import { CORE_APPS } from './apps';
import { CORE_MIGRATIONS } from './migrations';

/** The registry of the core applications. */
export function coreRegistry(): Registry {
  return buildRegistry(CORE_APPS);
}

/** The TypeORM DataSource for a DATABASE_URL, with every entity and migration (not connected). */
export function dataSourceFor(databaseUrl: string, registry: Registry, synchronize = false): Promise<DataSource> {
  return createDataSource(databaseUrl, { entities: registry.entities(), migrations: CORE_MIGRATIONS }, synchronize);
}

/** Applies pending migrations; returns their names. */
export async function migrate(ds: DataSource): Promise<string[]> {
  await prepareSchema(ds);
  const done = await ds.runMigrations({ transaction: 'each' });
  return done.map((m) => m.name);
}

/** Unique constraint and index names → columns, to explain violations reported by MySQL. */
export function indexUniqueConstraints(ds: DataSource, registry: Registry): void {
  for (const model of registry.models) {
    const meta = ds.getMetadata(model.cls);
    const map = new Map<string, string[]>();
    for (const u of meta.uniques) if (u.name) map.set(u.name, u.columns.map((c) => c.databaseName));
    for (const i of meta.indices) if (i.isUnique && i.name) map.set(i.name, i.columns.map((c) => c.databaseName));
    for (const c of meta.columns) if (c.isPrimary) map.set('PRIMARY', [c.databaseName]);
    model.extra.uniqueConstraints = map;
  }
}
