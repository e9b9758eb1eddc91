import * as fs from 'node:fs';
import * as path from 'node:path';
import { BackgroundCheckpoints, FOREGROUND_CHECKPOINT_PAGES } from './sqlite-checkpoints';
import BetterSqlite3 from 'better-sqlite3';
import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import type { Pool as PgPool } from 'pg';
import type { DialectName } from './dialect/types';
import { registerSqliteFunctions } from './sqlite-functions';
import { MysqlDatabase, PostgresDatabase, SqliteDatabase, type Database, type DatabaseOptions, type MysqlPoolLike } from './executor';

export interface ParsedDatabaseUrl {
  dialect: DialectName;
  /** SQLite file path or `:memory:`. */
  file?: string;
  /** Connection URL for PostgreSQL and MySQL. */
  url?: string;
}

export class DatabaseUrlError extends Error {}

/** A DATABASE_URL fit to show: its password (in the user part or a `password` parameter) is `***`. */
export function maskDatabaseUrl(raw: string): string {
  return raw
    .trim()
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^@/]*@/i, '$1:***@')
    .replace(/([?&]password=)[^&#]*/i, '$1***');
}

/** `sqlite:<path>`, `sqlite::memory:`, `postgres://…`, `postgresql://…`, `mysql://…`, `mariadb://…`. */
export function parseDatabaseUrl(raw: string): ParsedDatabaseUrl {
  const url = raw.trim();
  if (url.startsWith('sqlite:')) {
    let file = url.slice('sqlite:'.length);
    if (file.startsWith('//')) file = file.slice(2);
    if (file === '' ) throw new DatabaseUrlError(`DATABASE_URL ${maskDatabaseUrl(raw)}: missing SQLite file path`);
    return { dialect: 'sqlite', file };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: 'postgres', url };
  if (/^(mysql|mariadb):\/\//.test(url)) return { dialect: 'mysql', url: url.replace(/^mariadb:/, 'mysql:') };
  throw new DatabaseUrlError(
    `DATABASE_URL ${maskDatabaseUrl(raw)}: unsupported scheme (use sqlite:<path>, postgres://… or mysql://…)`,
  );
}

export interface DataSourceParts {
  entities: MixedList<Function | string | EntitySchema>;
  migrations: MixedList<Function | string>;
}

/**
 * MySQL and MariaDB share the `mysql://` scheme but differ in what TypeORM must know (native UUID
 * columns, how defaults are reported), so the server is asked which one it is.
 */
export async function detectMysqlFlavor(url: string): Promise<'mysql' | 'mariadb'> {
  const { createConnection } = await import('mysql2/promise');
  const conn = await createConnection({ uri: url });
  try {
    const [rows] = await conn.query('SELECT VERSION() AS v');
    return /mariadb/i.test(String((rows as Array<{ v: string }>)[0]?.v)) ? 'mariadb' : 'mysql';
  } finally {
    await conn.end();
  }
}

/** Builds and probes (for MySQL-family servers) the DataSource for a DATABASE_URL, unconnected. */
export async function createDataSource(databaseUrl: string, parts: DataSourceParts, synchronize = false): Promise<DataSource> {
  const parsed = parseDatabaseUrl(databaseUrl);
  const flavor = parsed.dialect === 'mysql' ? await detectMysqlFlavor(parsed.url as string) : undefined;
  return buildDataSource(databaseUrl, parts, synchronize, flavor);
}

/** Builds (without connecting) the TypeORM DataSource for a DATABASE_URL. */
export function buildDataSource(databaseUrl: string, parts: DataSourceParts, synchronize = false, mysqlFlavor?: 'mysql' | 'mariadb'): DataSource {
  const parsed = parseDatabaseUrl(databaseUrl);
  const common = {
    entities: parts.entities,
    migrations: parts.migrations,
    migrationsTableName: 'netinv_migrations',
    synchronize,
    logging: false,
  } as const;
  let options: DataSourceOptions;
  if (parsed.dialect === 'sqlite') {
    const file = parsed.file as string;
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    options = {
      ...common,
      type: 'better-sqlite3',
      database: file,
      enableWAL: file !== ':memory:',
      statementCacheSize: 200,
      prepareDatabase: (db: BetterSqlite3.Database) => {
        registerSqliteFunctions(db);
        db.pragma('busy_timeout = 5000');
        if (file !== ':memory:') db.pragma('synchronous = NORMAL');
        db.pragma('cache_size = -65536');
        // Every write runs in a savepoint, whose journal of original pages went to a temporary
        // file once a commit group had changed more than 64 KiB: one-address creates ran 1.27x
        // faster with it in memory. Only the writer: the reader's large sorts may still spill.
        db.pragma('temp_store = MEMORY');
      },
    } as DataSourceOptions;
  } else if (parsed.dialect === 'postgres') {
    // An unreachable server fails within seconds rather than after the system's TCP timeout.
    options = { ...common, type: 'postgres', url: parsed.url, poolSize: 10, connectTimeoutMS: 10_000 } as DataSourceOptions;
  } else {
    options = {
      ...common,
      type: mysqlFlavor ?? (/^mariadb:/.test(databaseUrl.trim()) ? 'mariadb' : 'mysql'),
      url: parsed.url,
      // Binary collation: exact matches are case-sensitive as on the other databases.
      charset: 'UTF8MB4_BIN',
      timezone: 'Z',
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: false,
      poolSize: 10,
      // Prepared statements kept per connection (executor.ts prepares reads and writes): the
      // server holds at most max_prepared_stmt_count (16,382) for all its clients together.
      extra: { maxPreparedStatements: MYSQL_PREPARED_PER_CONNECTION },
    } as DataSourceOptions;
  }
  const ds = new DataSource(options);
  if (parsed.dialect === 'mysql') storeTextAsLongText(ds);
  return ds;
}

/** Ten pooled connections of a few processes stay well under the server's limit; mysql2 closes the least used beyond it. */
const MYSQL_PREPARED_PER_CONNECTION = 250;

/**
 * MySQL's TEXT holds 64 KB, too little for comments, JSON documents and change records: there
 * every `text` column is LONGTEXT, for the schema builder and the migrations alike (both ask the
 * driver to normalise a column's type).
 */
function storeTextAsLongText(ds: DataSource): void {
  const driver = ds.driver as unknown as { normalizeType(column: object): string };
  const normalize = driver.normalizeType.bind(driver);
  driver.normalizeType = (column) => {
    const type = normalize(column);
    return type === 'text' ? 'longtext' : type;
  };
}

export function dialectOf(ds: DataSource): DialectName {
  const t = ds.options.type;
  if (t === 'better-sqlite3') return 'sqlite';
  if (t === 'postgres') return 'postgres';
  if (t === 'mysql' || t === 'mariadb') return 'mysql';
  throw new DatabaseUrlError(`unsupported TypeORM driver ${t}`);
}

/** The application's Database over an initialised DataSource's own connections. */
export function openDatabase(ds: DataSource, options: DatabaseOptions = {}): Database {
  const dialect = dialectOf(ds);
  const driver = ds.driver as unknown as Record<string, unknown>;
  if (dialect === 'sqlite') {
    const writer = driver.databaseConnection as BetterSqlite3.Database;
    const file = (ds.options as { database: string }).database;
    let reader: BetterSqlite3.Database | null = null;
    if (file !== ':memory:') {
      reader = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
      registerSqliteFunctions(reader);
      reader.pragma('busy_timeout = 5000');
    }
    if (file === ':memory:') return new SqliteDatabase(writer, reader, options);
    writer.pragma(`wal_autocheckpoint = ${FOREGROUND_CHECKPOINT_PAGES}`);
    return new SqliteDatabase(writer, reader, options, new BackgroundCheckpoints(file));
  }
  if (dialect === 'postgres') return new PostgresDatabase(driver.master as PgPool, options);
  return new MysqlDatabase(driver.pool as MysqlPoolLike, ds.options.type === 'mysql' ? 'mysql' : 'mariadb', options);
}

/**
 * MySQL creates tables with the database's default collation; a binary one keeps exact matches
 * case-sensitive and ordering byte-wise, as on the other databases.
 */
export async function prepareSchema(ds: DataSource): Promise<void> {
  if (dialectOf(ds) !== 'mysql') return;
  const rows = (await ds.query('SELECT DATABASE() AS db')) as Array<{ db: string }>;
  const name = rows[0]?.db;
  if (name) await ds.query(`ALTER DATABASE \`${name.replace(/`/g, '``')}\` CHARACTER SET utf8mb4 COLLATE ${binaryCollation(ds)}`);
}

/**
 * A binary collation without trailing-space padding: with PAD SPACE (MariaDB's utf8mb4_bin)
 * 'a' equals 'a ' and 'a' sorts after 'a\u0001', unlike on SQLite and PostgreSQL.
 */
export function binaryCollation(ds: DataSource): string {
  return ds.options.type === 'mariadb' ? 'utf8mb4_nopad_bin' : 'utf8mb4_0900_bin';
}
