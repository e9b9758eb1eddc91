import 'reflect-metadata';
import type { DataSource } from 'typeorm';
import { loadConfig } from './app/config';
import { coreRegistry, dataSourceFor } from './app/database';
import { buildDataSource } from './framework/store/datasource';
import { CORE_MIGRATIONS } from './app/migrations';

/**
 * The DataSource the server uses, from DATABASE_URL: SQLite (better-sqlite3, WAL, foreign keys on),
 * PostgreSQL (pg) or MySQL/MariaDB (mysql2; the server is asked which of the two it is).
 */
export function dataSource(): Promise<DataSource> {
  return dataSourceFor(loadConfig().databaseUrl, coreRegistry());
}

/** For TypeORM's own CLI, which needs an instance: MariaDB is recognised by a `mariadb://` URL. */
const registry = coreRegistry();
export default buildDataSource(loadConfig().databaseUrl, { entities: registry.entities(), migrations: CORE_MIGRATIONS });
