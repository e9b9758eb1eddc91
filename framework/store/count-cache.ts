/**
 * Counts of list queries kept while the data they count cannot have changed.
 *
 * Every list answers with its total count, and a count walks every matching row: over 50,000
 * prefixes it costs more than the rest of the request. A count is kept with the version of the
 * data it was taken at, and is answered again only while the database proves the data unchanged:
 *
 * - PostgreSQL: the statement's MVCC snapshot (`pg_current_snapshot()`). Two statements with one
 *   snapshot see the same committed transactions, so the same rows. The snapshot is read in the
 *   statement that would count, which counts only when it differs from the kept one.
 * - SQLite: `PRAGMA data_version` of the read connection, which moves whenever another connection
 *   (this process's writer, another process) commits, with a count of this process's write
 *   statements for the in-memory database whose single connection it does not see.
 * - MySQL/MariaDB: generations netinv keeps per table, bumped by its own writes (row-generations).
 *
 * Counts inside a transaction are never kept: the transaction sees its own uncommitted writes.
 */
import { PLANNED_ONCE, plansAlike } from './generic-plans';

/** The kept counts of one query, and the version of the data they were counted at. */
interface Kept {
  version: string;
  counts: number[];
  /** When it was counted (performance.now()). */
  at: number;
}

/** Bounded: the least recently stored entry goes first. */
export class CountCache {
  private readonly kept = new Map<string, Kept>();
  constructor(private readonly size = 1000) {}

  get(key: string, version: string): number[] | null {
    const entry = this.kept.get(key);
    return entry && entry.version === version ? entry.counts : null;
  }

  /** What was last stored for a query, whatever the version now (PostgreSQL compares it in SQL). */
  last(key: string): Readonly<Kept> | null {
    return this.kept.get(key) ?? null;
  }

  store(key: string, version: string, counts: number[]): void {
    this.kept.delete(key);
    this.kept.set(key, { version, counts, at: performance.now() });
    if (this.kept.size > this.size) this.kept.delete(this.kept.keys().next().value as string);
  }
}

/** The key of a count: its SQL and its parameters. */
export function countKey(sql: string, params: readonly unknown[]): string {
  return params.length ? `${sql}\u0000${JSON.stringify(params)}` : sql;
}

/** Write statements this process has run on any database (the in-memory SQLite version). */
let localWrites = 0;

export function noteLocalWrite(): void {
  localWrites++;
}

export function localWriteCount(): number {
  return localWrites;
}

/** What counting needs of an executor (type only: the executors hold the strategy). */
interface CountRunner {
  rows(sql: string, params?: readonly unknown[]): Promise<unknown[][]>;
  readonly inTransaction: boolean;
  readonly counting?: CountVersioning;
}

/** How a reader finds out whether a kept count still holds. */
export interface CountVersioning {
  counts(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]>;
  /**
   * The counts and a page's ids with fewer round trips: `ids` writes the SELECT of the ids, with
   * `extraColumn` (empty, or `, <expression>`) after the id; its parameters are those of the
   * extra column, then `params`, then its own (`idParams`).
   */
  countsWithIds?(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[], ids: IdsStatement, idParams: readonly unknown[]): Promise<{ counts: number[]; ids: unknown[] }>;
  /**
   * The counts and the page's rows themselves in one round trip: `rows` writes the SELECT of
   * the rows whose ids a FROM item holds (null when it cannot). The rows come back in the order
   * of the ids. Null when this does not apply.
   */
  countsWithRows?(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[], ids: IdsStatement, idParams: readonly unknown[], rows: RowsOfIds): Promise<{ counts: number[]; rows: unknown[][] } | null>;
}

/**
 * The SELECT of the rows whose ids the FROM item `source` holds in `idColumn`, with `extra`
 * columns after the representation's `width` ones and the page's lists bound to `pageIds`
 * (SelectBuilder.selectJoinedTo); null when it cannot be written.
 */
export type RowsOfIds = (source: string, idColumn: string, extra: readonly string[], pageIds: string) => { sql: string; width: number } | null;

/** The SELECT of a page's ids, with an extra column (empty, or `, <expression>`) after the id. */
export type IdsStatement = (extraColumn: string) => string;

function plainCountSql(expressions: readonly string[], fromWhere: string): string {
  return `SELECT ${expressions.join(', ')} ${fromWhere}`;
}

async function countNow(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]> {
  const [row] = await db.rows(plainCountSql(expressions, fromWhere), params);
  return row.map(Number);
}

/** The counts (`COUNT(…)` expressions) over the rows `fromWhere` (`FROM … WHERE …`) selects. */
export function countMatching(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]> {
  if (db.counting && !db.inTransaction) return db.counting.counts(db, expressions, fromWhere, params);
  return countNow(db, expressions, fromWhere, params);
}

/** SQLite: a version read before the count, so a count is never labelled newer than its data. */
export class VersionedCounting implements CountVersioning {
  private readonly cache = new CountCache();
  constructor(private readonly version: () => string) {}
  async counts(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]> {
    const key = countKey(plainCountSql(expressions, fromWhere), params);
    const version = this.version();
    const kept = this.cache.get(key, version);
    if (kept) return kept;
    const counts = await countNow(db, expressions, fromWhere, params);
    this.cache.store(key, version, counts);
    return counts;
  }
}

const UNDEFINED_FUNCTION = '42883';

/**
 * PostgreSQL: one statement reads the snapshot and counts only when it differs from the kept
 * one (an uncorrelated subquery under CASE runs only when its branch is taken).
 */
export class SnapshotCounting implements CountVersioning {
  private readonly cache = new CountCache();
  /** PostgreSQL before 13 has no pg_current_snapshot(): its lists count every time. */
  private unsupported = false;
  async counts(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]> {
    if (this.unsupported) return countNow(db, expressions, fromWhere, params);
    try {
      return await this.snapshotCounts(db, expressions, fromWhere, params);
    } catch (err) {
      if ((err as { code?: string }).code !== UNDEFINED_FUNCTION) throw err;
      this.unsupported = true;
      return this.counts(db, expressions, fromWhere, params);
    }
  }

  /**
   * A list's page in one round trip instead of two: the snapshot, the counts when it moved, and the
   * page's ids (an ordered array), all read under the same snapshot.
   */
  async countsWithIds(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[], ids: IdsStatement, idParams: readonly unknown[]): Promise<{ counts: number[]; ids: unknown[] }> {
    if (!this.unsupported) {
      try {
        const [counts, page] = await this.snapshotCounts(db, expressions, fromWhere, params, { sql: ids(''), params: idParams });
        return { counts, ids: page as unknown[] };
      } catch (err) {
        if ((err as { code?: string }).code !== UNDEFINED_FUNCTION) throw err;
        this.unsupported = true;
      }
    }
    const counts = await countNow(db, expressions, fromWhere, params);
    return { counts, ids: (await db.rows(ids(''), [...params, ...idParams])).map((r) => r[0]) };
  }

  /**
   * A list's page in one round trip: the snapshot and the counts when it moved (as
   * snapshotCounts reads them), the page's ids in an array and, joined to that one row, the
   * page's rows read by those ids. The rows carry the snapshot and counts along (as text: only
   * the first is read) and their position in the array, by which they are put in order.
   */
  async countsWithRows(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[], ids: IdsStatement, idParams: readonly unknown[], rowsOf: RowsOfIds): Promise<{ counts: number[]; rows: unknown[][] } | null> {
    // A filter by ranges or patterns needs a plan for its values: planned anew with every
    // call, the page's joins would cost more than the round trip saved.
    if (this.unsupported || !plansAlike(fromWhere)) return null;
    const page = rowsOf('unnest("v"."a") WITH ORDINALITY AS "po"("i", "n")', '"po"."i"', ['CAST("po"."n" AS integer)'], '"v"."a"');
    if (!page) return null;
    const key = countKey(plainCountSql(expressions, fromWhere), params);
    const kept = this.cache.last(key);
    const values = [...params, ...idParams];
    // OFFSET 0 keeps the one-row subquery from being merged into the outer query, which would
    // evaluate its id array again wherever the page's rows name it.
    const sql =
      `${PLANNED_ONCE}SELECT "p".*, "v"."s", "v"."c" FROM (SELECT "v0"."s", CASE WHEN "v0"."s" = $${values.length + 1} THEN NULL ELSE ` +
      `(SELECT CAST(ARRAY[${expressions.join(', ')}]::float8[] AS text) ${fromWhere}) END AS "c", ARRAY(${ids('')}) AS "a" ` +
      `FROM (SELECT pg_current_snapshot()::text AS "s") "v0" OFFSET 0) "v" LEFT JOIN LATERAL (${page.sql}) "p" ON true`;
    let out: unknown[][];
    try {
      out = await db.rows(sql, [...values, kept?.version ?? '']);
    } catch (err) {
      if ((err as { code?: string }).code !== UNDEFINED_FUNCTION) throw err;
      this.unsupported = true;
      return null;
    }
    const at = page.width;
    const [version, counted] = [out[0][at + 1], out[0][at + 2]];
    let counts: number[];
    if (counted === null && kept) counts = kept.counts;
    else {
      counts = String(counted).replace(/[{}]/g, '').split(',').map(Number);
      this.cache.store(key, String(version), counts);
    }
    // An empty page is the one row of the snapshot with nothing joined to it.
    const rows = out[0][at] === null ? [] : out;
    rows.sort((a, b) => (a[at] as number) - (b[at] as number));
    for (const row of rows) row.length = at;
    return { counts, rows };
  }

  private async snapshotCounts(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]>;
  private async snapshotCounts(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[], ids: { sql: string; params: readonly unknown[] }): Promise<[number[], unknown]>;
  private async snapshotCounts(
    db: CountRunner,
    expressions: readonly string[],
    fromWhere: string,
    params: readonly unknown[],
    ids?: { sql: string; params: readonly unknown[] },
  ): Promise<number[] | [number[], unknown]> {
    const key = countKey(plainCountSql(expressions, fromWhere), params);
    const kept = this.cache.last(key);
    const values = [...params, ...(ids?.params ?? [])];
    const snapshot = `$${values.length + 1}`;
    const page = ids ? `, ARRAY(${ids.sql})` : '';
    const sql =
      `SELECT "v"."s", CASE WHEN "v"."s" = ${snapshot} THEN NULL ELSE (SELECT ARRAY[${expressions.join(', ')}]::float8[] ${fromWhere}) END${page} ` +
      `FROM (SELECT pg_current_snapshot()::text AS "s") "v"`;
    const [[version, counted, pageIds]] = await db.rows(sql, [...values, kept?.version ?? '']);
    let counts: number[];
    if (counted === null && kept) counts = kept.counts;
    else {
      counts = (counted as unknown[]).map(Number);
      this.cache.store(key, String(version), counts);
    }
    return ids ? [counts, pageIds] : counts;
  }
}
