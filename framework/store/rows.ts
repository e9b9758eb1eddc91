import type { ModelMeta } from '../metadata/model-meta';
import { VERSION_COLUMN } from '../metadata/registry';
import type { LinkSpec } from '../query/link';
import type { Predicate } from '../query/predicate';
import type { Id } from '../query/id';
import { compilePredicate } from './compile-predicate';
import type { Executor, ObjectRow } from './executor';
import { limitClause, type Dialect } from './dialect/types';
import { Params } from './params';

/**
 * Row-level statements on one model's table: what the object layer (store.ts) and the writer and
 * deleter build on. Column names come from metadata; every value is bound.
 */

/** Rows to read: those matching a predicate, or those with these primary keys. */
export type RowSelection = Predicate | readonly Id[];

/** The assignment that counts a write of a row: every UPDATE of a model's rows carries it. */
export function versionBump(quote: (name: string) => string): string {
  return `${quote(VERSION_COLUMN)} = ${quote(VERSION_COLUMN)} + 1`;
}

function where(model: ModelMeta, selection: RowSelection, params: Params): string {
  const q = params.dialect.quote;
  if (!Array.isArray(selection)) return compilePredicate(selection as Predicate, model, 't0', params);
  if (selection.length === 0) return '1=0';
  return params.in(`${q('t0')}.${q(model.pk.column as string)}`, selection as Id[]);
}

/**
 * The given columns of the selected rows (and `expressions`, each with its alias), keyed by column
 * name; ordered by primary key when asked.
 * With `forUpdate` (inside a transaction) the rows are locked until it ends and read as last
 * committed (PostgreSQL and MySQL; SQLite serialises writers): what an update starts from.
 */
export async function selectColumns(
  db: Executor,
  model: ModelMeta,
  columns: readonly string[],
  selection: RowSelection,
  orderById = true,
  forUpdate = false,
  expressions: (params: Params) => readonly string[] = () => [],
): Promise<ObjectRow[]> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  // The select list binds its values before the WHERE clause's (positional placeholders).
  const selected = [...columns.map((c) => `${q('t0')}.${q(c)}`), ...expressions(params)];
  const condition = where(model, selection, params);
  const orderBy = orderById ? ` ORDER BY ${q('t0')}.${q(model.pk.column as string)}` : '';
  const lock = forUpdate ? db.dialect.forUpdate : '';
  return db.objects(`SELECT ${selected.join(', ')} FROM ${q(model.table)} ${q('t0')} WHERE ${condition}${orderBy}${lock}`, params.values);
}

/** Primary keys of the selected rows (at most `limit` when given), in no particular order. */
export async function selectIds(db: Executor, model: ModelMeta, selection: RowSelection, limit?: number): Promise<Id[]> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const condition = where(model, selection, params);
  const bounded = limit === undefined ? '' : ` ${limitClause(db.dialect, params.add(limit))}`;
  const rows = await db.rows(`SELECT ${q('t0')}.${q(model.pk.column as string)} FROM ${q(model.table)} ${q('t0')} WHERE ${condition}${bounded}`, params.values);
  return rows.map((r) => r[0] as Id);
}

/** Number of selected rows. */
export async function countRows(db: Executor, model: ModelMeta, selection: RowSelection): Promise<number> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const [[n]] = await db.rows(`SELECT COUNT(*) FROM ${q(model.table)} ${q('t0')} WHERE ${where(model, selection, params)}`, params.values);
  return Number(n);
}

/** Whether a row has every one of these column values, the row `exceptId` left out. */
export async function rowWithValues(db: Executor, model: ModelMeta, values: Record<string, unknown>, exceptId?: Id): Promise<boolean> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const conditions = Object.entries(values).map(([column, value]) => `${q(column)} = ${params.add(value)}`);
  if (exceptId !== undefined) conditions.push(`${q(model.pk.column as string)} <> ${params.add(exceptId)}`);
  const rows = await db.rows(`SELECT 1 FROM ${q(model.table)} WHERE ${conditions.join(' AND ')} LIMIT 1`, params.values);
  return rows.length > 0;
}

/** Primary keys of the rows whose `column` holds one of `values`. */
export async function idsReferencing(db: Executor, model: ModelMeta, column: string, values: readonly Id[]): Promise<Id[]> {
  if (values.length === 0) return [];
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const rows = await db.rows(`SELECT ${q(model.pk.column as string)} FROM ${q(model.table)} WHERE ${params.in(q(column), values as Id[])}`, params.values);
  return rows.map((r) => r[0] as Id);
}

/** Ids of `model`'s rows whose generic relation (`typeColumn`, `idColumn`) names objects of `label` among `values`. */
export async function idsReferencingGeneric(db: Executor, model: ModelMeta, typeColumn: string, idColumn: string, label: string, values: readonly Id[]): Promise<Id[]> {
  if (values.length === 0) return [];
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const type = params.add(label);
  const rows = await db.rows(`SELECT ${q(model.pk.column as string)} FROM ${q(model.table)} WHERE ${q(typeColumn)} = ${type} AND ${q(idColumn)} IN (${params.list(values as Id[])})`, params.values);
  return rows.map((r) => r[0] as Id);
}

/** Inserts one row; for a model whose database numbers its rows, returns the new number. */
export async function insertRow(db: Executor, model: ModelMeta, row: Record<string, unknown>): Promise<Id | undefined> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const columns = Object.keys(row);
  const insert = `INSERT INTO ${q(model.table)} (${columns.map(q).join(', ')}) VALUES (${params.list(columns.map((c) => row[c]))})`;
  db.statistics?.noteInserted(model.table, 1);
  if (!db.inTransaction) db.statistics?.committed();
  if (model.integerPk) return db.insertReturningId(insert, params.values, model.pk.column as string);
  await db.run(insert, params.values);
  return undefined;
}

/** Every column some row sets, in the order they first appear. */
function columnsOf(rows: readonly Record<string, unknown>[]): string[] {
  const columns = new Set<string>();
  for (const row of rows) for (const column in row) columns.add(column);
  return [...columns];
}

/**
 * The `(?, ?), (?, ?)` of a multi-row INSERT: the same for every batch of a bulk write, so built
 * once per shape (thousands of rows make it long) rather than per statement.
 */
const TUPLES = new Map<string, string>();
const MAX_TUPLE_SHAPES = 256;

function valueTuples(dialect: Dialect, columns: number, rows: number): string {
  const key = `${dialect.name}:${columns}:${rows}`;
  let text = TUPLES.get(key);
  if (text === undefined) {
    const tuples: string[] = [];
    for (let r = 0, n = 1; r < rows; r++) {
      const placeholders: string[] = [];
      for (let c = 0; c < columns; c++) placeholders.push(dialect.placeholder(n++));
      tuples.push(`(${placeholders.join(', ')})`);
    }
    text = tuples.join(', ');
    if (TUPLES.size >= MAX_TUPLE_SHAPES) TUPLES.clear();
    TUPLES.set(key, text);
  }
  return text;
}

/**
 * Inserts many rows in as few statements as the databases' bound-value limits allow (at most
 * `maxRowsPerStatement` rows each); a column a row lacks is written as NULL.
 */
export async function insertRowBatches(db: Executor, model: ModelMeta, rows: readonly Record<string, unknown>[], maxRowsPerStatement = Infinity): Promise<void> {
  if (rows.length === 0) return;
  const dialect = db.dialect;
  const q = dialect.quote;
  const columns = columnsOf(rows);
  // A statement binding more values than the database accepts fails outright (dialect.maxBoundValues).
  const perStatement = Math.max(1, Math.min(maxRowsPerStatement, Math.floor(dialect.maxBoundValues / columns.length)));
  const head = `INSERT INTO ${q(model.table)} (${columns.map(q).join(', ')}) VALUES `;
  for (let start = 0; start < rows.length; start += perStatement) {
    const end = Math.min(rows.length, start + perStatement);
    const values: unknown[] = new Array((end - start) * columns.length);
    let k = 0;
    for (let r = start; r < end; r++) {
      const row = rows[r];
      for (const column of columns) {
        const value = row[column] ?? null;
        values[k++] = typeof value === 'boolean' ? dialect.bool(value) : value;
      }
    }
    await db.run(head + valueTuples(dialect, columns.length, end - start), values);
  }
  db.statistics?.noteInserted(model.table, rows.length);
  if (!db.inTransaction) db.statistics?.committed();
}

/**
 * Sets columns of the rows matching a predicate, read and written in one statement (a
 * compare-and-set: only rows still in the state `selection` describes change); returns how many.
 */
export async function updateRowsWhere(db: Executor, model: ModelMeta, selection: Predicate, row: Record<string, unknown>): Promise<number> {
  const columns = Object.keys(row);
  if (columns.length === 0) return 0;
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const sets = [...columns.map((c) => `${q(c)} = ${params.add(row[c])}`), versionBump(q)].join(', ');
  return db.run(`UPDATE ${q(model.table)} AS ${q('t0')} SET ${sets} WHERE ${compilePredicate(selection, model, 't0', params)}`, params.values);
}

/**
 * Stored column values along foreign-key paths (`key`, `user.username`) of the rows matching a
 * predicate, read in one statement with a join per foreign key followed.
 */
export async function selectPaths(db: Executor, model: ModelMeta, selection: Predicate, paths: readonly string[]): Promise<Array<Record<string, unknown>>> {
  const q = db.dialect.quote;
  const joins: string[] = [];
  const aliases = new Map<string, { alias: string; model: ModelMeta }>([['', { alias: 't0', model }]]);
  const exprs = paths.map((path) => {
    const parts = path.split('.');
    let prefix = '';
    let at = aliases.get('') as { alias: string; model: ModelMeta };
    for (const part of parts.slice(0, -1)) {
      const fk = at.model.field(part);
      if (!fk?.column || !fk.target) throw new Error(`selectPaths: ${at.model.label}.${part} is not a foreign key`);
      const key = prefix ? `${prefix}.${part}` : part;
      let next = aliases.get(key);
      if (!next) {
        next = { alias: `j${aliases.size}`, model: fk.target };
        joins.push(`LEFT JOIN ${q(fk.target.table)} ${q(next.alias)} ON ${q(next.alias)}.${q(fk.target.pk.column as string)} = ${q(at.alias)}.${q(fk.column)}`);
        aliases.set(key, next);
      }
      at = next;
      prefix = key;
    }
    const field = at.model.field(parts[parts.length - 1]);
    if (!field?.column) throw new Error(`selectPaths: ${at.model.label} has no column field ${parts[parts.length - 1]}`);
    return `${q(at.alias)}.${q(field.column)}`;
  });
  const params = new Params(db.dialect);
  const condition = compilePredicate(selection, model, 't0', params);
  const rows = await db.rows(`SELECT ${exprs.join(', ')} FROM ${q(model.table)} ${q('t0')}${joins.length ? ' ' + joins.join(' ') : ''} WHERE ${condition}`, params.values);
  return rows.map((r) => Object.fromEntries(paths.map((p, i) => [p, r[i]])));
}

/**
 * Sets columns of the rows with these primary keys and counts the write in their version; returns
 * the number of rows changed. Without columns nothing is written unless `always` (an object saved
 * through the API changes version even when only its links changed).
 */
export async function updateRows(db: Executor, model: ModelMeta, ids: readonly Id[], row: Record<string, unknown>, always = false): Promise<number> {
  const columns = Object.keys(row);
  if ((columns.length === 0 && !always) || ids.length === 0) return 0;
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const sets = [...columns.map((c) => `${q(c)} = ${params.add(row[c])}`), versionBump(q)].join(', ');
  return db.run(`UPDATE ${q(model.table)} SET ${sets} WHERE ${params.in(q(model.pk.column as string), ids as Id[])}`, params.values);
}

/**
 * Clears `column` (a nullable reference) on the rows with these primary keys; with `onlyIfIn`,
 * only where it points at one of those values.
 */
export async function clearReference(db: Executor, model: ModelMeta, column: string, ids: readonly Id[], onlyIfIn?: readonly Id[]): Promise<void> {
  if (ids.length === 0) return;
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  // Parameters bind in text order (positional placeholders): the ids before the restriction's values.
  const selected = params.in(q(model.pk.column as string), ids as Id[]);
  const restriction = onlyIfIn ? ` AND ${params.in(q(column), onlyIfIn as Id[])}` : '';
  await db.run(`UPDATE ${q(model.table)} SET ${q(column)} = NULL, ${versionBump(q)} WHERE ${selected}${restriction}`, params.values);
}

/** Deletes the rows with these primary keys; returns the number deleted. */
export async function deleteRows(db: Executor, model: ModelMeta, ids: readonly Id[]): Promise<number> {
  if (ids.length === 0) return 0;
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  return db.run(`DELETE FROM ${q(model.table)} WHERE ${params.in(q(model.pk.column as string), ids as Id[])}`, params.values);
}

/** Link-table rows whose owner (or, `side: 'target'`, target) is one of `ids`. */
export async function deleteLinkRows(db: Executor, link: LinkSpec, side: 'owner' | 'target', ids: readonly Id[]): Promise<void> {
  if (ids.length === 0) return;
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  let sql = `DELETE FROM ${q(link.table)} WHERE ${params.in(q(side === 'owner' ? link.owner : link.target), ids as Id[])}`;
  if (link.discriminator) sql += ` AND ${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
  await db.run(sql, params.values);
}

/**
 * Locks one row until the transaction ends (PostgreSQL and MySQL; SQLite serialises writers), so
 * that two requests allocating from the same parent cannot both take the same space.
 */
export async function lockRow(db: Executor, model: ModelMeta, id: Id): Promise<void> {
  const q = db.dialect.quote;
  const pk = q(model.pk.column as string);
  await db.rows(`SELECT ${pk} FROM ${q(model.table)} WHERE ${pk} = ${db.dialect.placeholder(1)}${db.dialect.forUpdate}`, [id]);
}
