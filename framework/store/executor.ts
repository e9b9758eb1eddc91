import type BetterSqlite3 from 'better-sqlite3';
import type { Pool as PgPool, PoolClient as PgPoolClient, PoolConfig, CustomTypesConfig } from 'pg';
import { Pool as PgPoolClass, types as pgTypes } from 'pg';
import type { BackgroundCheckpoints } from './sqlite-checkpoints';
import type { Dialect } from './dialect/types';
import { sqliteDialect } from './dialect/sqlite';
import { postgresDialect } from './dialect/postgres';
import { mariadbDialect, mysqlDialect } from './dialect/mysql';
import { Mutex } from './mutex';
import { CommitGroups } from './sqlite-commit-groups';
import { recordQuery, type QueryStats } from './query-counter';
import { TableStatistics } from './statistics';
import { bumpGenerations, cachesWatching, ConfigCache, writtenTable } from './config-cache';
import { localWriteCount, noteLocalWrite, SnapshotCounting, VersionedCounting, type CountVersioning } from './count-cache';
import { plansAlike } from './generic-plans';
import { CASCADING_KEYS_SQL, GenerationCounting, RowGenerations, SEED_GENERATIONS_SQL } from './row-generations';

export type Row = unknown[];
export type ObjectRow = Record<string, unknown>;

/** Runs parameterised SQL. Rows come back as arrays in select order (the fast path) or objects. */
export interface Executor {
  readonly dialect: Dialect;
  rows(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  objects(sql: string, params?: readonly unknown[]): Promise<ObjectRow[]>;
  /** Executes a statement and returns the number of affected rows. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Executes an INSERT into a table with an auto-increment key `pk` and returns the new key. */
  insertReturningId(sql: string, params: readonly unknown[], pk: string): Promise<number>;
  /** True inside a transaction. */
  readonly inTransaction: boolean;
  /** Where bulk writes are counted to keep the planner's statistics current (not on SQLite). */
  readonly statistics?: TableStatistics;
  /** The configuration cache, on the executor of plain reads (see cachedConfig). */
  readonly configCache?: ConfigCache;
  /** Tables this executor's transaction has written (see cachedConfig). */
  readonly writtenTables?: ReadonlySet<string>;
  /** How list counts are kept between requests (see countMatching), on readers that keep them. */
  readonly counting?: CountVersioning;
  /**
   * Whether the database would sort every matching row of this query before its LIMIT (no index
   * serves its ORDER BY), as its planner says; only where asking costs no round trip (SQLite).
   */
  sortsAllRows?(sql: string, params: readonly unknown[]): boolean;
}

/**
 * What an executor does about the configuration cache around a write statement: a transaction
 * collects the tables it writes (the generations are bumped when it commits); a write outside a
 * transaction bumps them at once.
 */
class WriteTracker {
  /** Tables written by the transaction. */
  readonly tables = new Set<string>();
  /** `rowGenerations`: on MySQL/MariaDB, the table generations every write bumps (see row-generations). */
  constructor(
    readonly autocommitCache: ConfigCache | null,
    readonly rowGenerations: RowGenerations | null = null,
  ) {}
  note(sql: string): string | null {
    const table = writtenTable(sql);
    if (table) {
      this.tables.add(table);
      noteLocalWrite();
    }
    return table;
  }
  /** After an autocommit write: its caches' generations, then the local copies. */
  async afterAutocommit(db: Executor, table: string | null): Promise<void> {
    if (!table) return;
    // After the statement, not with it: a reader that counted between the two recounts later.
    if (this.rowGenerations && !db.inTransaction) await this.rowGenerations.bump(db, [table]);
    if (!this.autocommitCache) return;
    this.tables.clear();
    const names = cachesWatching([table]);
    if (names.length === 0) return;
    await bumpGenerations(db, names);
    this.autocommitCache.forget(names);
  }
}

/** Caches changed by a transaction's writes, their generations bumped in it before it commits. */
async function bumpForCommit(tx: Executor, tracker: WriteTracker): Promise<string[]> {
  const written = [...tracker.tables];
  const names = cachesWatching(written);
  if (names.length) await bumpGenerations(tx, names);
  // Last before COMMIT: the rows bumped stay locked for as short a time as possible.
  if (tracker.rowGenerations && written.length) await tracker.rowGenerations.bump(tx, written);
  return names;
}

export type { QueryStats };

/**
 * A statement on a transaction that has already committed or rolled back: code that outlived its
 * transaction (a job stopped at its time limit that kept running) must not write outside it, or
 * inside whichever transaction reuses the connection.
 */
export class TransactionEndedError extends Error {
  constructor() {
    super('The transaction has ended: no statement may run on it.');
    this.name = 'TransactionEndedError';
  }
}

/** How a Database is opened. */
export interface DatabaseOptions {
  /** Keep list counts between requests while the data is provably unchanged (see count-cache); default true. */
  keepCounts?: boolean;
}

/** The application's view of the database: a reader for plain reads and one transaction per write. */
export interface Database {
  readonly dialect: Dialect;
  readonly reader: Executor;
  readonly stats: QueryStats;
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T>;
  /**
   * Reads whose statements the server cancels after `ms` milliseconds (queries evaluating client
   * regular expressions); a cancelled statement rejects with an error the dialect's isTimeout knows.
   */
  boundedRead<T>(ms: number, fn: (db: Executor) => Promise<T>): Promise<T>;
  /** Releases connections the Database opened itself (the SQLite reader). */
  close?(): void;
  /** Statistics kept current after bulk writes, where the database's planner needs them. */
  readonly statistics?: TableStatistics;
  /** Configuration held between requests (see ConfigCache). */
  readonly configCache: ConfigCache;
}

// ---------------------------------------------------------------------------------------------
// SQLite (better-sqlite3): synchronous driver, one writer; a second read-only connection serves
// reads of file databases so that they never see another request's uncommitted writes.

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

/** The planner's line for a sort of the whole result (a partial sort says LAST TERM or RIGHT PART). */
const FULL_SORT = 'USE TEMP B-TREE FOR ORDER BY';

class StatementCache {
  private readonly map = new Map<string, Statement>();
  /** Per statement text: whether its plan sorts every row (asked once, with the first call's values: lists vary their values, not their shape). */
  private readonly sorting = new Map<string, boolean>();
  constructor(private readonly conn: BetterSqlite3.Database, private readonly size = 1000) {}
  sortsAllRows(sql: string, params: unknown[]): boolean {
    let sorts = this.sorting.get(sql);
    if (sorts === undefined) {
      const plan = this.conn.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ parent: number; detail: string }>;
      sorts = plan.some((step) => step.parent === 0 && step.detail === FULL_SORT);
      this.sorting.set(sql, sorts);
      if (this.sorting.size > this.size) this.sorting.delete(this.sorting.keys().next().value as string);
    }
    return sorts;
  }
  get(sql: string): Statement {
    let stmt = this.map.get(sql);
    if (!stmt) {
      stmt = this.conn.prepare(sql);
      this.map.set(sql, stmt);
      if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
    }
    return stmt;
  }
}

/**
 * better-sqlite3 runs each statement synchronously, and awaiting a settled promise does not leave
 * the current turn of the event loop: a request running thousands of statements (a bulk write of
 * thousands of objects) would hold the process for its whole length, every other client waiting.
 * So a statement first gives the event loop a turn once the current one has run SLICE_MS: other
 * requests are answered between a bulk write's statements (their reads use the read connection of
 * a file database; another write waits for the transaction, as it would anyway).
 */
const SLICE_MS = 20;
/** When the current turn's statements began; reset when the event loop reaches its next turn. */
let sliceStart: number | null = null;

function startSlice(): void {
  sliceStart = performance.now();
  setImmediate(() => {
    sliceStart = null;
  });
}

async function shareEventLoop(): Promise<void> {
  if (sliceStart === null) return startSlice();
  if (performance.now() - sliceStart < SLICE_MS) return;
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (sliceStart === null) startSlice();
}

function sqliteParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => (p === undefined ? null : typeof p === 'boolean' ? (p ? 1 : 0) : p));
}

class SqliteExecutor implements Executor {
  readonly dialect = sqliteDialect;
  private ended = false;
  constructor(
    private readonly cache: StatementCache,
    private readonly stats: QueryStats,
    private readonly gate: Mutex | null,
    readonly inTransaction: boolean,
    readonly tracker: WriteTracker,
    readonly configCache?: ConfigCache,
    readonly counting?: CountVersioning,
    /** Where writes outside a transaction wait for the open commit group (none inside one). */
    private readonly commits?: CommitGroups,
  ) {}
  /** Runs a write statement: at once in a transaction, else as CommitGroups.outside allows. */
  private write<T>(statement: () => T): T | Promise<T> {
    return this.commits && !this.inTransaction ? this.commits.outside(statement) : statement();
  }
  /** Ends a transaction's executor (see TransactionEndedError). */
  end(): void {
    this.ended = true;
  }
  get writtenTables(): ReadonlySet<string> {
    return this.tracker.tables;
  }
  private async wait(): Promise<void> {
    if (this.ended) throw new TransactionEndedError();
    await shareEventLoop();
    // In-memory databases have a single connection: a read waits for an open write transaction.
    if (this.gate?.locked) (await this.gate.acquire())();
  }
  async rows(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    await this.wait();
    recordQuery(this.stats);
    const stmt = this.cache.get(sql);
    if (!stmt.reader) {
      const table = this.tracker.note(sql);
      await this.write(() => stmt.run(...sqliteParams(params)));
      await this.tracker.afterAutocommit(this, table);
      return [];
    }
    return stmt.raw(true).all(...sqliteParams(params)) as Row[];
  }
  async objects(sql: string, params: readonly unknown[] = []): Promise<ObjectRow[]> {
    await this.wait();
    recordQuery(this.stats);
    const stmt = this.cache.get(sql);
    return stmt.raw(false).all(...sqliteParams(params)) as ObjectRow[];
  }
  sortsAllRows(sql: string, params: readonly unknown[]): boolean {
    return this.cache.sortsAllRows(sql, sqliteParams(params));
  }
  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    await this.wait();
    recordQuery(this.stats);
    const table = this.tracker.note(sql);
    const changes = (await this.write(() => this.cache.get(sql).run(...sqliteParams(params)))).changes;
    await this.tracker.afterAutocommit(this, table);
    return changes;
  }
  async insertReturningId(sql: string, params: readonly unknown[]): Promise<number> {
    await this.wait();
    recordQuery(this.stats);
    const table = this.tracker.note(sql);
    const id = Number((await this.write(() => this.cache.get(sql).run(...sqliteParams(params)))).lastInsertRowid);
    await this.tracker.afterAutocommit(this, table);
    return id;
  }
}

export class SqliteDatabase implements Database {
  readonly dialect = sqliteDialect;
  readonly stats: QueryStats = { queries: 0, commits: 0 };
  readonly reader: Executor;
  readonly configCache: ConfigCache;
  private readonly writes: StatementCache;
  private readonly mutex = new Mutex();
  private readonly commits: CommitGroups;

  constructor(
    conn: BetterSqlite3.Database,
    private readonly readerConn: BetterSqlite3.Database | null,
    options: DatabaseOptions = {},
    private readonly checkpoints: BackgroundCheckpoints | null = null,
  ) {
    this.writes = new StatementCache(conn);
    this.commits = new CommitGroups(conn, this.mutex, this.stats, (changed) => this.configCache.forget(changed));
    const statements = readerConn ? new StatementCache(readerConn) : this.writes;
    const gate = readerConn ? null : this.mutex;
    this.configCache = new ConfigCache(new SqliteExecutor(statements, { queries: 0, commits: 0 }, gate, false, new WriteTracker(null), undefined, undefined, this.commits));
    // Another connection's commit moves the read connection's data_version; the in-memory
    // database's single connection sees only its own writes, which the local count follows.
    const dataVersion = (readerConn ?? conn).prepare('PRAGMA data_version').pluck();
    const counting = options.keepCounts === false ? undefined : new VersionedCounting(() => `${String(dataVersion.get())}:${localWriteCount()}`);
    this.reader = new SqliteExecutor(statements, this.stats, gate, false, new WriteTracker(this.configCache), this.configCache, counting, this.commits);
  }

  close(): void {
    this.checkpoints?.stop();
    this.readerConn?.close();
  }

  /** SQLite evaluates regular expressions with RE2 (linear time): nothing to bound. */
  boundedRead<T>(_ms: number, fn: (db: Executor) => Promise<T>): Promise<T> {
    return fn(this.reader);
  }

  async transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return this.commits.run(async () => {
      const tracker = new WriteTracker(null);
      const tx = new SqliteExecutor(this.writes, this.stats, null, true, tracker, this.configCache);
      try {
        const result = await fn(tx);
        return { result, changed: await bumpForCommit(tx, tracker) };
      } finally {
        tx.end();
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL (pg pool owned by TypeORM's driver)

const RAW_OIDS = new Set([1082 /* date */, 1114 /* timestamp */, 1184 /* timestamptz */, 1700 /* numeric */]);
const pgTypesConfig: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (RAW_OIDS.has(oid)) return (v: string) => v;
    if (oid === 20) return (v: string) => Number(v); // int8: counts and big integers
    return pgTypes.getTypeParser(oid, format ?? 'text');
  }) as CustomTypesConfig['getTypeParser'],
};

type PgQueryable = PgPool | PgPoolClient;

export { plansAlike } from './generic-plans';

/**
 * Names of prepared statements by SQL text. A named statement is parsed once per connection and
 * PostgreSQL then reuses its plan: a representation's SELECT joins a dozen tables or more, and
 * planning it again for every request costs more than running it. The generated SQL comes from a
 * bounded set of shapes (lists bind as one array parameter), and past the limit a statement runs
 * unnamed, so no connection accumulates statements without end.
 */
class StatementNames {
  private readonly names = new Map<string, string>();
  constructor(private readonly limit: number) {}
  get(sql: string): string | undefined {
    // A many-row INSERT is long and rarely repeated: not worth a statement on every connection.
    if (sql.length > MAX_NAMED_SQL) return undefined;
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < this.limit) {
      name = `netinv_${this.names.size + 1}`;
      this.names.set(sql, name);
    }
    return name;
  }
}

const MAX_NAMED_SQL = 20_000;

const PG_STATEMENT_NAMES = new StatementNames(2000);

class PostgresExecutor implements Executor {
  readonly dialect = postgresDialect;
  private ended = false;
  constructor(
    private readonly client: PgQueryable,
    private readonly stats: QueryStats,
    readonly inTransaction: boolean,
    readonly statistics: TableStatistics,
    private readonly tracker: WriteTracker,
    readonly configCache?: ConfigCache,
    readonly counting?: CountVersioning,
    /** Connections that plan once per statement (see plansAlike), for reads outside transactions. */
    private readonly generic: PgPool | null = null,
  ) {}
  /** Ends a transaction's executor (see TransactionEndedError). */
  end(): void {
    this.ended = true;
  }
  get writtenTables(): ReadonlySet<string> {
    return this.tracker.tables;
  }
  private count(): void {
    if (this.ended) throw new TransactionEndedError();
    recordQuery(this.stats);
  }
  private clientFor(sql: string): PgQueryable {
    return this.generic && plansAlike(sql) ? this.generic : this.client;
  }
  async rows(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    this.count();
    const table = this.tracker.note(sql);
    const r = await this.clientFor(sql).query({ name: PG_STATEMENT_NAMES.get(sql), text: sql, values: params as unknown[], rowMode: 'array', types: pgTypesConfig });
    await this.tracker.afterAutocommit(this, table);
    return r.rows as Row[];
  }
  async objects(sql: string, params: readonly unknown[] = []): Promise<ObjectRow[]> {
    this.count();
    const r = await this.clientFor(sql).query({ name: PG_STATEMENT_NAMES.get(sql), text: sql, values: params as unknown[], types: pgTypesConfig });
    return r.rows as ObjectRow[];
  }
  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    this.count();
    const table = this.tracker.note(sql);
    const r = await this.client.query({ name: PG_STATEMENT_NAMES.get(sql), text: sql, values: params as unknown[], types: pgTypesConfig });
    await this.tracker.afterAutocommit(this, table);
    return r.rowCount ?? 0;
  }
  async insertReturningId(sql: string, params: readonly unknown[], pk: string): Promise<number> {
    this.count();
    const table = this.tracker.note(sql);
    const r = await this.client.query({ text: `${sql} RETURNING ${this.dialect.quote(pk)}`, values: params as unknown[], rowMode: 'array', types: pgTypesConfig });
    await this.tracker.afterAutocommit(this, table);
    return Number((r.rows as Row[])[0][0]);
  }
}

export class PostgresDatabase implements Database {
  readonly dialect = postgresDialect;
  readonly stats: QueryStats = { queries: 0, commits: 0 };
  readonly reader: Executor;
  readonly statistics: TableStatistics;
  readonly configCache: ConfigCache;
  constructor(private readonly pool: PgPool, options: DatabaseOptions = {}) {
    this.statistics = new TableStatistics(async (table) => {
      await pool.query(postgresDialect.analyze!(table));
    });
    this.configCache = new ConfigCache(new PostgresExecutor(pool, { queries: 0, commits: 0 }, false, this.statistics, new WriteTracker(null)));
    // A second pool of the same size whose sessions use generic plans, for reads whose plans do
    // not depend on their values (plansAlike).
    const settings = (pool as unknown as { options: PoolConfig }).options;
    this.generic = new PgPoolClass({ ...settings, options: `${settings.options ?? ''} -c plan_cache_mode=force_generic_plan`.trim() });
    this.generic.on('error', () => undefined);
    const counting = options.keepCounts === false ? undefined : new SnapshotCounting();
    this.reader = new PostgresExecutor(pool, this.stats, false, this.statistics, new WriteTracker(this.configCache), this.configCache, counting, this.generic);
  }
  private readonly generic: PgPool;
  close(): void {
    void this.generic.end().catch(() => undefined);
  }
  /** PostgreSQL has no per-statement limit: a read-only transaction carries a local one. */
  boundedRead<T>(ms: number, fn: (db: Executor) => Promise<T>): Promise<T> {
    return this.inTransaction('BEGIN READ ONLY', false, async (client, executor) => {
      await client.query("SELECT set_config('statement_timeout', $1, true)", [String(Math.max(1, Math.floor(ms)))]);
      return fn(executor);
    });
  }
  /**
   * A write transaction plans each statement once (generic plans, in the same round trip as
   * BEGIN): its statements find rows by key and equality, and planning them anew on every call
   * (the representation a change record snapshots joins a dozen tables) took most of its time
   * while it held its row locks.
   */
  transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    return this.inTransaction('BEGIN; SET LOCAL plan_cache_mode = force_generic_plan', true, (_client, executor) => fn(executor));
  }
  /** One pooled connection for the length of a transaction, committed or rolled back. */
  private async inTransaction<T>(begin: string, writing: boolean, fn: (client: PgPoolClient, executor: Executor) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query(begin);
      const tracker = new WriteTracker(null);
      const executor = new PostgresExecutor(client, this.stats, writing, this.statistics, tracker, this.configCache);
      try {
        const result = await fn(client, executor);
        const changed = await bumpForCommit(executor, tracker);
        await client.query('COMMIT');
        if (writing) this.stats.commits++;
        this.configCache.forget(changed);
        this.statistics.committed();
        return result;
      } catch (err) {
        // Ended before the ROLLBACK is sent: a statement the abandoned work (a stopped job) sends
        // meanwhile would otherwise run after it, outside the transaction, and commit.
        executor.end();
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        executor.end();
      }
    } finally {
      client.release();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// MySQL / MariaDB (mysql2 callback pool owned by TypeORM's driver)

interface MysqlQueryOptions {
  sql: string;
  values?: unknown[];
  rowsAsArray?: boolean;
}
type MysqlCallback = (err: Error | null, result?: unknown) => void;
export interface MysqlConnectionLike {
  query(options: MysqlQueryOptions, cb: MysqlCallback): void;
  /** A server-side prepared statement, prepared once per connection and text (mysql2 keeps them). */
  execute?(options: MysqlQueryOptions, cb: MysqlCallback): void;
  release?(): void;
}
export interface MysqlPoolLike extends MysqlConnectionLike {
  getConnection(cb: (err: Error | null, conn: MysqlConnectionLike & { release(): void }) => void): void;
  /** mysql2's pool announces each connection it hands out, before the caller's first statement. */
  on?(event: 'acquire', listener: (conn: MysqlConnectionLike) => void): unknown;
}

/**
 * Session settings of every pooled connection, run once per connection when the pool first hands
 * it out (queued ahead of the caller's statement). `eq_range_index_dive_limit = 0`: an IN list
 * of more than 200 values (a page's ids, for a reverse relation) is otherwise estimated from index
 * statistics instead of looked up; for a column that is mostly NULL (an address's NAT inside) the
 * statistics say every value matches a large share of the table, and the server scans it: 53 ms
 * instead of 2 ms for 250 ids over 118,000 addresses, 0.9 s at ten times that.
 * `group_concat_max_len`: lists aggregated into a page's statement (Dialect.jsonRowsAgg) would
 * otherwise be cut at MySQL's default of 1,024 bytes.
 */
const MYSQL_SESSION = 'SET SESSION eq_range_index_dive_limit = 0, group_concat_max_len = 4294967295';

function configureSessions(pool: MysqlPoolLike): void {
  const configured = new WeakSet<MysqlConnectionLike>();
  pool.on?.('acquire', (conn) => {
    if (configured.has(conn)) return;
    configured.add(conn);
    conn.query({ sql: MYSQL_SESSION }, () => undefined);
  });
}

function mysqlQuery(conn: MysqlConnectionLike, options: MysqlQueryOptions): Promise<unknown> {
  return new Promise((resolve, reject) => conn.query(options, (err, result) => (err ? reject(err) : resolve(result))));
}

/** The protocol numbers a prepared statement's parameters in 16 bits; longer lists (bulk edits of 70,000 ids) go as text. */
const MAX_PREPARED_VALUES = 65_535;

/**
 * Runs a statement as a prepared one: the server parses a text once per connection instead of on
 * every call, and the values travel apart from it. A page of prefixes or devices joins a dozen
 * tables or more, and MariaDB spent 280 µs of CPU parsing and running such a statement as text
 * against 175 µs prepared. A statement with more values than a prepared statement takes runs as
 * text (MariaDB prepares every kind of statement the store sends).
 */
function mysqlStatement(conn: MysqlConnectionLike, options: MysqlQueryOptions): Promise<unknown> {
  const execute = conn.execute;
  if (!execute || (options.values?.length ?? 0) > MAX_PREPARED_VALUES) return mysqlQuery(conn, options);
  return new Promise((resolve, reject) => execute.call(conn, options, (err, result) => (err ? reject(err) : resolve(result))));
}

function mysqlParams(params: readonly unknown[]): unknown[] {
  return params.map((p) => (p === undefined ? null : p));
}

class MysqlExecutor implements Executor {
  constructor(
    readonly dialect: Dialect,
    private readonly conn: MysqlConnectionLike,
    private readonly stats: QueryStats,
    readonly inTransaction: boolean,
    private readonly tracker: WriteTracker,
    readonly statistics?: TableStatistics,
    readonly configCache?: ConfigCache,
    readonly counting?: CountVersioning,
  ) {}
  private ended = false;
  /** Ends a transaction's executor (see TransactionEndedError). */
  end(): void {
    this.ended = true;
  }
  get writtenTables(): ReadonlySet<string> {
    return this.tracker.tables;
  }
  private count(): void {
    if (this.ended) throw new TransactionEndedError();
    recordQuery(this.stats);
  }
  async rows(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    this.count();
    const table = this.tracker.note(sql);
    const r = await mysqlStatement(this.conn, { sql, values: mysqlParams(params), rowsAsArray: true });
    await this.tracker.afterAutocommit(this, table);
    return Array.isArray(r) ? (r as Row[]) : [];
  }
  async objects(sql: string, params: readonly unknown[] = []): Promise<ObjectRow[]> {
    this.count();
    const r = await mysqlStatement(this.conn, { sql, values: mysqlParams(params) });
    return Array.isArray(r) ? (r as ObjectRow[]) : [];
  }
  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    this.count();
    const table = this.tracker.note(sql);
    const r = (await mysqlStatement(this.conn, { sql, values: mysqlParams(params) })) as { affectedRows?: number };
    await this.tracker.afterAutocommit(this, table);
    return r?.affectedRows ?? 0;
  }
  async insertReturningId(sql: string, params: readonly unknown[]): Promise<number> {
    this.count();
    const table = this.tracker.note(sql);
    const r = (await mysqlStatement(this.conn, { sql, values: mysqlParams(params) })) as { insertId?: number };
    await this.tracker.afterAutocommit(this, table);
    return Number(r?.insertId);
  }
}

/** Raised when the server gave up on a regular expression without failing the statement. */
export class RegexLimitError extends Error {
  readonly code = 'NETINV_REGEX_LIMIT';
}

/** MariaDB's warning for a PCRE2 failure (match or depth limit) during REGEXP. */
const MARIADB_REGEX_WARNING = 1139;

/**
 * One pinned connection whose statements the server stops after `ms` milliseconds. MariaDB's
 * PCRE2 does not fail a statement when a pattern exceeds its backtracking limit: REGEXP returns
 * false with a warning, so each read is followed by SHOW WARNINGS on the same connection and such
 * a warning becomes a RegexLimitError instead of a silently wrong result.
 */
class BoundedMysqlExecutor implements Executor {
  readonly inTransaction = false;
  private readonly inner: MysqlExecutor;
  constructor(readonly dialect: Dialect, conn: MysqlConnectionLike, stats: QueryStats, private readonly ms: number) {
    this.inner = new MysqlExecutor(dialect, conn, stats, false, new WriteTracker(null));
  }
  private bound(sql: string): string {
    return this.dialect.withTimeout ? this.dialect.withTimeout(sql, this.ms) : sql;
  }
  private async checkWarnings(): Promise<void> {
    const warnings = await this.inner.rows('SHOW WARNINGS');
    const regex = warnings.find((w) => Number(w[1]) === MARIADB_REGEX_WARNING);
    if (regex) throw new RegexLimitError(String(regex[2]));
  }
  async rows(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    const rows = await this.inner.rows(this.bound(sql), params);
    await this.checkWarnings();
    return rows;
  }
  async objects(sql: string, params?: readonly unknown[]): Promise<ObjectRow[]> {
    const rows = await this.inner.objects(this.bound(sql), params);
    await this.checkWarnings();
    return rows;
  }
  run(sql: string, params?: readonly unknown[]): Promise<number> {
    return this.inner.run(sql, params);
  }
  insertReturningId(sql: string, params: readonly unknown[], _pk: string): Promise<number> {
    return this.inner.insertReturningId(sql, params);
  }
}

export class MysqlDatabase implements Database {
  readonly dialect: Dialect;
  readonly stats: QueryStats = { queries: 0, commits: 0 };
  readonly reader: Executor;
  readonly statistics: TableStatistics;
  readonly configCache: ConfigCache;
  private readonly rowGenerations: RowGenerations;
  constructor(private readonly pool: MysqlPoolLike, flavor: 'mysql' | 'mariadb' = 'mariadb', options: DatabaseOptions = {}) {
    this.dialect = flavor === 'mysql' ? mysqlDialect : mariadbDialect;
    configureSessions(pool);
    this.rowGenerations = new RowGenerations({
      cascadingKeys: async () => (await mysqlQuery(pool, { sql: CASCADING_KEYS_SQL, rowsAsArray: true })) as Array<[string, string]>,
      seed: async () => void (await mysqlQuery(pool, { sql: SEED_GENERATIONS_SQL })),
    });
    const analyze = this.dialect.analyze!;
    this.statistics = new TableStatistics(async (table) => {
      await mysqlQuery(pool, { sql: analyze(table) });
    });
    this.configCache = new ConfigCache(new MysqlExecutor(this.dialect, pool, { queries: 0, commits: 0 }, false, new WriteTracker(null)));
    const counting = options.keepCounts === false ? undefined : new GenerationCounting();
    this.reader = new MysqlExecutor(this.dialect, pool, this.stats, false, new WriteTracker(this.configCache, this.rowGenerations), this.statistics, this.configCache, counting);
  }
  async boundedRead<T>(ms: number, fn: (db: Executor) => Promise<T>): Promise<T> {
    const conn = await this.connection();
    try {
      return await fn(new BoundedMysqlExecutor(this.dialect, conn, this.stats, ms));
    } finally {
      conn.release();
    }
  }
  private connection(): Promise<MysqlConnectionLike & { release(): void }> {
    return new Promise((resolve, reject) => this.pool.getConnection((err, c) => (err ? reject(err) : resolve(c))));
  }
  async transaction<T>(fn: (tx: Executor) => Promise<T>): Promise<T> {
    await this.rowGenerations.ready();
    const conn = await this.connection();
    try {
      await mysqlQuery(conn, { sql: 'START TRANSACTION' });
      const tracker = new WriteTracker(null, this.rowGenerations);
      const executor = new MysqlExecutor(this.dialect, conn, this.stats, true, tracker, this.statistics, this.configCache);
      try {
        const result = await fn(executor);
        const changed = await bumpForCommit(executor, tracker);
        await mysqlQuery(conn, { sql: 'COMMIT' });
        this.stats.commits++;
        this.configCache.forget(changed);
        this.statistics.committed();
        return result;
      } catch (err) {
        // Ended first, as on PostgreSQL: nothing may follow the ROLLBACK on this connection.
        executor.end();
        await mysqlQuery(conn, { sql: 'ROLLBACK' }).catch(() => undefined);
        throw err;
      } finally {
        executor.end();
      }
    } finally {
      conn.release();
    }
  }
}
