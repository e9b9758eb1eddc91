import type { DataSource } from 'typeorm';
import { createDataSource, prepareSchema } from '../framework/store/datasource';
import { recordUniqueConstraints } from '../framework/store/unique-constraints';
import { buildRegistry, type Registry } from '../framework';
import { runMigrationGroups, type LoadedPlugin } from '../framework/plugins';
import { CORE_APPS } from './apps';
import { CORE_MIGRATIONS } from './migrations';

/** The registry of the core applications. */
export function coreRegistry(): Registry {
  return buildRegistry(CORE_APPS);
}

/** The registry of the core applications and the enabled plugins, in that order. */
export function registryWith(plugins: readonly LoadedPlugin[]): Registry {
  return buildRegistry([...CORE_APPS, ...plugins.map((p) => p.app)]);
}

/** The TypeORM DataSource for a DATABASE_URL, with every entity and migration (not connected). */
export function dataSourceFor(databaseUrl: string, registry: Registry, synchronize = false, plugins: readonly LoadedPlugin[] = []): Promise<DataSource> {
  const migrations = [...CORE_MIGRATIONS, ...plugins.flatMap((p) => p.definition.migrations)];
  return createDataSource(databaseUrl, { entities: registry.entities(), migrations }, synchronize);
}

/** Applies pending migrations, the core ones first, then each plugin's in configuration order. */
export async function migrate(ds: DataSource, plugins: readonly LoadedPlugin[] = []): Promise<string[]> {
  await prepareSchema(ds);
  return runMigrationGroups(ds, [CORE_MIGRATIONS, ...plugins.map((p) => p.definition.migrations)]);
}

/** Unique constraint and index names → columns, to explain violations reported by MySQL. */
export function indexUniqueConstraints(ds: DataSource, registry: Registry): void {
  for (const model of registry.models) {
    const meta = ds.getMetadata(model.cls);
    const map = new Map<string, string[]>();
    for (const u of meta.uniques) if (u.name) map.set(u.name, u.columns.map((c) => c.databaseName));
    for (const i of meta.indices) if (i.isUnique && i.name) map.set(i.name, i.columns.map((c) => c.databaseName));
    for (const c of meta.columns) if (c.isPrimary) map.set('PRIMARY', [c.databaseName]);
    recordUniqueConstraints(model, map);
  }
}
