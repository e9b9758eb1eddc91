import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource, DatabaseUrlError, maskDatabaseUrl, parseDatabaseUrl, prepareSchema } from '../framework/store/datasource';
import { recordUniqueConstraints } from '../framework/store/unique-constraints';
import { buildRegistry, type Registry } from '../framework';
import { runMigrationGroups, type LoadedPlugin, type MigrationObserver } from '../framework/plugins';
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
export async function migrate(ds: DataSource, plugins: readonly LoadedPlugin[] = [], observer?: MigrationObserver): Promise<string[]> {
  await prepareSchema(ds);
  return runMigrationGroups(ds, [CORE_MIGRATIONS, ...plugins.map((p) => p.definition.migrations)], observer);
}

/** The database could not be reached or used; the message names it, password masked, and the cause. */
export class DatabaseError extends Error {}

/** What a driver error says, in one line (a failed connection to every address of a name says nothing itself). */
export function reasonOf(err: unknown): string {
  if (err instanceof AggregateError && !err.message) return [...new Set(err.errors.map(reasonOf))].join('; ');
  const e = err as { message?: string; code?: string } | null | undefined;
  const text = (e?.message || e?.code || String(err)).split('\n')[0].trim();
  return text || 'unknown error';
}

/** A DATABASE_URL as messages show it: password masked, a SQLite file as an absolute path. */
export function displayDatabaseUrl(databaseUrl: string): string {
  const parsed = parseDatabaseUrl(databaseUrl);
  if (parsed.dialect === 'sqlite' && parsed.file !== ':memory:') return `sqlite:${path.resolve(parsed.file as string)}`;
  return maskDatabaseUrl(databaseUrl);
}

/** The DataSource of a DATABASE_URL, connected; a failure to connect is a DatabaseError. */
export async function connectDatabase(databaseUrl: string, registry: Registry, plugins: readonly LoadedPlugin[] = []): Promise<DataSource> {
  let ds: DataSource | undefined;
  try {
    ds = await dataSourceFor(databaseUrl, registry, false, plugins);
    await ds.initialize();
    return ds;
  } catch (err) {
    if (err instanceof DatabaseUrlError) throw err;
    if (ds?.isInitialized) await ds.destroy().catch(() => undefined);
    throw new DatabaseError(`cannot connect to database ${displayDatabaseUrl(databaseUrl)}: ${reasonOf(err)}`);
  }
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
