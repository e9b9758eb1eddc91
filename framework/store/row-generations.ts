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
import { countKey, CountCache, type CountVersioning, type IdsStatement } from './count-cache';
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

/**
 * A generation row for every table of the schema, made once (another instance may have made them
 * first). Bumps then only update rows that exist: an upsert of a missing row takes gap locks,
 * and two transactions upserting into the same gap can deadlock.
 */
export const SEED_GENERATIONS_SQL =
  `INSERT IGNORE INTO \`${GENERATION_TABLE}\` (\`name\`, \`generation\`) ` +
  `SELECT CONCAT('${PREFIX}', \`TABLE_NAME\`), 0 FROM \`information_schema\`.\`TABLES\` WHERE \`TABLE_SCHEMA\` = DATABASE() AND \`TABLE_TYPE\` = 'BASE TABLE'`;

/** What the generations need of the schema, read once on a connection of their own (not a transaction's). */
export interface SchemaReader {
  cascadingKeys(): Promise<CascadingKeys>;
  seed(): Promise<void>;
}

export class RowGenerations {
  private schema: Promise<Map<string, string[]>> | null = null;
  constructor(private readonly reader: SchemaReader) {}

  /** The cascading keys by referenced table, once every table has its generation row. */
  private cascadeMap(): Promise<Map<string, string[]>> {
    this.schema ??= (async () => {
      await this.reader.seed();
      const map = new Map<string, string[]>();
      for (const [referencing, referenced] of await this.reader.cascadingKeys()) map.set(referenced, [...(map.get(referenced) ?? []), referencing]);
      return map;
    })().catch((err: unknown) => {
      this.schema = null;
      throw err;
    });
    return this.schema;
  }

  /**
   * Settles once the rows are seeded and the keys read. A transaction must wait for this before
   * it begins: the seeding runs on another connection and may wait on locks the transaction
   * holds, while the transaction's commit would wait on the seeding (a wait the database
   * cannot see as a deadlock).
   */
  async ready(): Promise<void> {
    await this.cascadeMap();
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
   * statement, locking their rows in index order. A table made after the rows were seeded (a
   * migration run by another instance) gets its row by an upsert.
   */
  async bump(db: SqlRunner, written: Iterable<string>): Promise<void> {
    const tables = await this.changedBy(written);
    if (tables.length === 0) return;
    const names = tables.map((t) => PREFIX + t);
    const updated = await db.run(
      `UPDATE \`${GENERATION_TABLE}\` SET \`generation\` = \`generation\` + 1 WHERE \`name\` IN (${names.map(() => '?').join(', ')})`,
      names,
    );
    if (updated >= names.length) return;
    await db.run(
      `INSERT INTO \`${GENERATION_TABLE}\` (\`name\`, \`generation\`) VALUES ${names.map(() => '(?, 1)').join(', ')} ON DUPLICATE KEY UPDATE \`generation\` = \`generation\` + 1`,
      names,
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

  /** The sum of the generations of `tables` (its parameters are their row names). */
  private static versionOf(tables: readonly string[]): string {
    return `(SELECT COALESCE(SUM(\`generation\`), 0) FROM \`${GENERATION_TABLE}\` WHERE \`name\` IN (${tables.map(() => '?').join(', ')}))`;
  }

  private static countedSql(expressions: readonly string[], fromWhere: string): string {
    return `SELECT CONCAT_WS(',', ${expressions.join(', ')}) ${fromWhere}`;
  }

  /** The kept entry of a count while it may still answer. */
  private current(key: string): { version: string; counts: number[] } | null {
    const kept = this.cache.last(key);
    return kept && performance.now() - kept.at < this.keepMs ? kept : null;
  }

  async counts(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[]): Promise<number[]> {
    const tables = tablesRead(fromWhere);
    const counted = GenerationCounting.countedSql(expressions, fromWhere);
    // A statement naming no table of its own cannot be versioned: it counts every time.
    if (tables.length === 0) return parseCounts((await db.rows(counted, params))[0][0]);
    const key = countKey(counted, params);
    const current = this.current(key);
    const sql = `SELECT \`v\`.\`s\`, CASE WHEN \`v\`.\`s\` = ? THEN NULL ELSE (${counted}) END FROM (SELECT ${GenerationCounting.versionOf(tables)} AS \`s\`) \`v\``;
    // A kept count past its time never matches: generations are never negative.
    const [[version, fresh]] = await db.rows(sql, [current ? Number(current.version) : -1, ...params, ...tables.map((t) => PREFIX + t)]);
    if (fresh === null && current) return current.counts;
    const counts = parseCounts(fresh);
    this.cache.store(key, String(version), counts);
    return counts;
  }

  /**
   * A page's ids read with the version of the tables its count reads, as a column of the same
   * statement (one read view): when that version is the kept count's, the count needs no
   * statement of its own. Otherwise it is counted as `counts` does, by a statement that reads the
   * version again: a count is never kept under a version older than the data it counted.
   */
  async countsWithIds(db: CountRunner, expressions: readonly string[], fromWhere: string, params: readonly unknown[], ids: IdsStatement, idParams: readonly unknown[]): Promise<{ counts: number[]; ids: unknown[] }> {
    const tables = tablesRead(fromWhere);
    if (tables.length === 0) {
      const rows = await db.rows(ids(''), [...params, ...idParams]);
      return { counts: await this.counts(db, expressions, fromWhere, params), ids: rows.map((r) => r[0]) };
    }
    const rows = await db.rows(ids(`, ${GenerationCounting.versionOf(tables)}`), [...tables.map((t) => PREFIX + t), ...params, ...idParams]);
    const current = this.current(countKey(GenerationCounting.countedSql(expressions, fromWhere), params));
    const version = rows.length ? Number(rows[0][1]) : null;
    const counts = current && version !== null && Number(current.version) === version ? current.counts : await this.counts(db, expressions, fromWhere, params);
    return { counts, ids: rows.map((r) => r[0]) };
  }
}
