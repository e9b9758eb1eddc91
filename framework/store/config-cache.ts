import type { Dialect } from './dialect/types';
import { uncounted } from './query-counter';

/** What the cache needs of an executor (the executors hold the cache, so it names no executor type). */
interface SqlRunner {
  readonly dialect: Dialect;
  rows(sql: string, params?: readonly unknown[]): Promise<unknown[][]>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/**
 * Configuration read by nearly every request (custom field definitions, relationships, computed
 * fields, active config contexts, API tokens) held in memory between requests, and dropped when
 * it changes: at once in the process that changed it, and within `maxStaleMs` in every other
 * process or instance sharing the database.
 *
 * A change is seen by its tables: any write statement a process runs on a table a cache watches
 * bumps that cache's generation in `netinv_cachegeneration`, in the same transaction as the
 * change. Each process reads the generations again when its last reading is older than
 * `maxStaleMs` (one small query), and loads a cache again whose generation moved.
 */
export const GENERATION_TABLE = 'netinv_cachegeneration';
/** Names of the rows holding table generations (MySQL/MariaDB list counts, see row-generations). */
export const ROW_GENERATION_PREFIX = 'rows:';

/** A cached piece of configuration: its name and the tables (by prefix) it is built from. */
export class CachedConfig<T> {
  declare readonly type: T;
  constructor(
    readonly name: string,
    readonly tablePrefixes: readonly string[],
  ) {
    CACHES.push(this as CachedConfig<unknown>);
  }
  watches(table: string): boolean {
    return this.tablePrefixes.some((p) => table.startsWith(p));
  }
}

const CACHES: CachedConfig<unknown>[] = [];

/** Every cache declared so far (seeded at start-up). */
export function declaredCaches(): readonly CachedConfig<unknown>[] {
  return CACHES;
}

/** Names of the caches built from any of these tables, in a fixed order (lock order). */
export function cachesWatching(tables: Iterable<string>): string[] {
  const names = new Set<string>();
  for (const table of tables) for (const cache of CACHES) if (cache.watches(table)) names.add(cache.name);
  return [...names].sort();
}

const WRITE_STATEMENT = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[`"]?([A-Za-z0-9_]+)/i;

/** The table a write statement changes, or null for a read. */
export function writtenTable(sql: string): string | null {
  return WRITE_STATEMENT.exec(sql)?.[1] ?? null;
}

/** Bumps the generations of these caches on a transaction (or autocommit) executor. */
export async function bumpGenerations(db: SqlRunner, names: readonly string[]): Promise<void> {
  const q = db.dialect.quote;
  const p = db.dialect.placeholder;
  for (const name of names) {
    const changed = await db.run(`UPDATE ${q(GENERATION_TABLE)} SET ${q('generation')} = ${q('generation')} + 1 WHERE ${q('name')} = ${p(1)}`, [name]);
    if (changed === 0) await db.run(`INSERT INTO ${q(GENERATION_TABLE)} (${q('name')}, ${q('generation')}) VALUES (${p(1)}, 1)`, [name]);
  }
}

/** Creates the generation rows of every declared cache that has none (at start-up). */
export async function seedGenerations(db: { readonly reader: SqlRunner; transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T> }): Promise<void> {
  const q = db.reader.dialect.quote;
  const known = new Set((await db.reader.rows(`SELECT ${q('name')} FROM ${q(GENERATION_TABLE)}`)).map((r) => String(r[0])));
  for (const cache of CACHES) {
    if (known.has(cache.name)) continue;
    try {
      await db.transaction((tx) => tx.run(`INSERT INTO ${q(GENERATION_TABLE)} (${q('name')}, ${q('generation')}) VALUES (${tx.dialect.placeholder(1)}, 0)`, [cache.name]));
    } catch (err) {
      // Another instance starting at the same moment seeded it first.
      if (!db.reader.dialect.uniqueViolation(err)) throw err;
    }
  }
}

interface Entry {
  generation: number;
  /** The local epoch it was loaded in: a local change (forget) outdates loads begun before it. */
  epoch: number;
  value: Promise<unknown>;
}

export class ConfigCache {
  private readonly entries = new Map<string, Entry>();
  private generations = new Map<string, number>();
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;
  private epoch = 0;

  /**
   * `reader` runs the generation reads: an executor of its own, whose statements count in no
   * database total either.
   */
  constructor(
    private readonly reader: SqlRunner,
    readonly maxStaleMs = 500,
  ) {}

  /** The cached value, loaded by `load` when missing or out of date. */
  async get<T>(cache: CachedConfig<T>, load: () => Promise<T>): Promise<T> {
    await this.fresh();
    return this.lookup(cache, load);
  }

  private lookup<T>(cache: CachedConfig<T>, load: () => Promise<T>): Promise<T> {
    const generation = this.generations.get(cache.name) ?? 0;
    const entry = this.entries.get(cache.name);
    if (entry && entry.generation === generation && entry.epoch === this.epoch) return entry.value as Promise<T>;
    const value = load();
    this.entries.set(cache.name, { generation, epoch: this.epoch, value });
    // A failed load is not kept: the next request tries again (and sees the error itself).
    value.catch(() => {
      if (this.entries.get(cache.name)?.value === value) this.entries.delete(cache.name);
    });
    return value;
  }

  /**
   * As `get`, for a transaction: it must not wait on a reading of the generations (on the in-memory
   * database that reading waits for the transaction), so when the last reading is older than
   * `maxStaleMs` the value is loaded and not kept.
   */
  getWithoutReading<T>(cache: CachedConfig<T>, load: () => Promise<T>): Promise<T> {
    if (performance.now() - this.readAt >= this.maxStaleMs) return load();
    return this.lookup(cache, load);
  }

  /** This process changed these caches' tables: drop them and read the generations again. */
  forget(names: readonly string[]): void {
    if (names.length === 0) return;
    for (const name of names) this.entries.delete(name);
    this.epoch++;
    this.readAt = -Infinity;
  }

  private async fresh(): Promise<void> {
    if (performance.now() - this.readAt < this.maxStaleMs) return;
    // The reading belongs to no request: it is left out of request statement counts.
    this.reading ??= uncounted(() => this.readGenerations()).finally(() => {
      this.reading = null;
    });
    await this.reading;
  }

  private async readGenerations(): Promise<void> {
    const q = this.reader.dialect.quote;
    const started = performance.now();
    const epoch = this.epoch;
    // Table generations share the table; no cache is built from them.
    const rows = await this.reader.rows(`SELECT ${q('name')}, ${q('generation')} FROM ${q(GENERATION_TABLE)} WHERE ${q('name')} NOT LIKE '${ROW_GENERATION_PREFIX}%'`);
    this.generations = new Map(rows.map((r) => [String(r[0]), Number(r[1])]));
    // A reading begun before a local change may predate it: the next request reads again.
    if (epoch === this.epoch) this.readAt = started;
  }
}

/**
 * `load()` through the database's cache. A transaction uses the cache too, unless it has itself
 * written the cache's tables (then only a fresh read sees its changes): what it loads there is the
 * committed configuration, as a read outside it would load.
 */
export function cachedConfig<T>(
  db: { readonly configCache?: ConfigCache; readonly inTransaction: boolean; readonly writtenTables?: ReadonlySet<string> },
  cache: CachedConfig<T>,
  load: () => Promise<T>,
): Promise<T> {
  if (!db.configCache) return load();
  if (!db.inTransaction) return db.configCache.get(cache, load);
  const wrote = !db.writtenTables || [...db.writtenTables].some((table) => cache.watches(table));
  return wrote ? load() : db.configCache.getWithoutReading(cache, load);
}
