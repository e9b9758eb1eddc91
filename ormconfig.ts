import 'reflect-metadata';
import { loadConfig } from './app/config';
import { coreRegistry, dataSourceFor } from './app/database';

/**
 * The DataSource the server uses, from DATABASE_URL: SQLite (better-sqlite3, WAL, foreign keys on),
 * PostgreSQL (pg) or MySQL/MariaDB (mysql2). Also usable by TypeORM's own CLI.
 */
export default dataSourceFor(loadConfig().databaseUrl, coreRegistry());
