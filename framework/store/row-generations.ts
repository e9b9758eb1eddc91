/**
 * MySQL and MariaDB keep no marker of committed data a reader could compare (PostgreSQL has its
 * snapshot, SQLite its data_version), so netinv keeps one: a generation per table, in the rows
 * `rows:<table>` of the cache generation table, bumped in the same transaction as every write
 * netinv makes to the table (and to the tables the database itself changes with it: ON DELETE
 * CASCADE and SET NULL). A list's count is kept with the sum of the generations of the tables its
 * statement reads, and the statement that would count reads that sum first and counts only when
 * it moved: both under one read view, so a count is never kept for data other than its own.
 *
 * A write from outside netinv (a hand-written statement) bumps nothing: a kept count is therefore
 * also dropped `KEEP_MS` after it was counted.
 */
import { countKey, CountCache, type CountVersioning } from './count-cache';
import { GENERATION_TABLE, ROW_GENERATION_PREFIX as PREFIX } from './config-cache';

/** How long a kept count may answer without a write by netinv having moved its tables. */
export const KEEP_MS = 1000;

interface SqlRunner {
  rows(sql: string, params?: readonly unknown[]): Promise<unknown[][]>;
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** Every table a statement reads: each name (quoted, as the store writes them) after FROM or JOIN. */
export function tablesRead(sql: string): string[] {
  const tables = new Set<string>();
  for (const m of sql.matchAll(/\b(?:FROM|JOIN)\s+[`"]([A-Za-z0-9_]+)[`"]/gi)) tables.add(m[1]);
  return [...tables].sort();
}

/** Foreign keys along which the database changes rows itself: referencing table → referenced table. */
export type CascadingKeys = ReadonlyArray<readonly [referencing: string, referenced: string]>;

/** The foreign keys of the current MySQL/MariaDB schema whose deletes or updates change the referencing rows. */
export const CASCADING_KEYS_SQL =
  'SELECT `TABLE_NAME`, `REFERENCED_TABLE_NAME` FROM `information_schema`.`REFERENTIAL_CONSTRAINTS` ' +
  "WHERE `CONSTRAINT_SCHEMA` = DATABASE() AND (`DELETE_RULE` <> 'RESTRICT' AND `DELETE_RULE` <> 'NO ACTION' " +
  "OR `UPDATE_RULE` <> 'RESTRICT' AND `UPDATE_RULE` <> 'NO ACTION')";

export class RowGenerations {
  private cascades: Promise<Map<string, string[]>> | null = null;
  /** `loadKeys` reads the schema's cascading keys, once, when the first write is bumped. */
  constructor(private readonly loadKeys: () => Promise<CascadingKeys>) {}

  private cascadeMap(): Promise<Map<string, string[]>> {
    this.cascades ??= this.loadKeys().then(
      (keys) => {
        const map = new Map<string, string[]>();
        for (const [referencing, referenced] of keys) map.set(referenced, [...(map.get(referenced) ?? []), referencing]);
        return map;
      },
      (err: unknown) => {
        this.cascades = null;
        throw err;
      },
    );
    return this.cascades;
  }

  /** The written tables and every table the database changes along with them. */
  async changedBy(written: Iterable<string>): Promise<string[]> {
    const cascades = await this.cascadeMap();
    const changed = new Set<string>();
    const visit = (table: string): void => {
      if (changed.has(table) || table === GENERATION_TABLE) return;
      changed.add(table);
      for (const referencing of cascades.get(table) ?? []) visit(referencing);
    };
    for (const table of written) visit(table);
    return [...changed].sort();
  }

  /**
   * Bumps the generations of the tables a transaction (or an autocommit statement) wrote, in one
   * statement, in name order: transactions bumping the same rows lock them in the same order.
   */
  async bump(db: SqlRunner, written: Iterable<string>): Promise<void> {
    const tables = await this.changedBy(written);
    if (tables.length === 0) return;
    const values = tables.map(() => '(?, 1)').join(', ');
    await db.run(
      `INSERT INTO \`${GENERATION_TABLE}\` (\`name\`, \`generation\`) VALUES ${values} ON DUPLICATE KEY UPDATE \`generation\` = \`generation\` + 1`,
      tables.map((t) => PREFIX + t),
    );
  }
}

/** The counts of one row, joined by CONCAT_WS: a scalar subquery returns one column. */
function parseCounts(joined: unknown): number[] {
  return String(joined).split(',').map(Number);
}

interface CountRunner {
  rows(sql: string, params?: readonly unknown[]): Promise<unknown[][]>;
}

/**
 * MySQL/MariaDB: one statement sums the generations of the tables the count reads and counts only
 * when the sum differs from the kept one (the server skips a subquery under a CASE branch not taken).
 */
export class GenerationCounting implements CountVersioning {
  private readonly cache = new CountCache();
  constructor(private readonly keepMs = KEEP_MS) {}

  async counts(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]> {
    const tables = tablesRead(fromWhere);
    const counted = `SELECT CONCAT_WS(',', ${expressions.join(', ')}) ${fromWhere}`;
    // A statement naming no table of its own cannot be versioned: it counts every time.
    if (tables.length === 0) return parseCounts((await db.rows(counted, params))[0][0]);
    const key = countKey(counted, params);
    const kept = this.cache.last(key);
    const current = kept && performance.now() - kept.at < this.keepMs ? kept : null;
    const names = tables.map(() => '?').join(', ');
    const sql =
      `SELECT \`v\`.\`s\`, CASE WHEN \`v\`.\`s\` = ? THEN NULL ELSE (${counted}) END ` +
      `FROM (SELECT COALESCE(SUM(\`generation\`), 0) AS \`s\` FROM \`${GENERATION_TABLE}\` WHERE \`name\` IN (${names})) \`v\``;
    // A kept count past its time never matches: generations are never negative.
    const [[version, fresh]] = await db.rows(sql, [current ? Number(current.version) : -1, ...params, ...tables.map((t) => PREFIX + t)]);
    if (fresh === null && current) return current.counts;
    const counts = parseCounts(fresh);
    this.cache.store(key, String(version), counts);
    return counts;
  }
}
