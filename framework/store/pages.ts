import { sqlText } from './sql-text';
import type { ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import type { Predicate } from '../query/predicate';
import { compilePredicate } from './compile-predicate';
import { countMatching } from './count-cache';
import { paginateClause } from './dialect/types';
import type { Executor, Row } from './executor';
import { afterRow } from './keyset';
import { orderText, type OrderKey, type ParentFirstOrder } from './ordering';
import { Params } from './params';
import type { RowsOfIds } from './count-cache';

/** What a page read needs of a representation plan: its SELECT, its joins and its ordering. */
export interface PagedPlan {
  /** `SELECT … FROM … LEFT JOIN …` of the representation. */
  readonly select: string;
  /** The same for rows read by their ids (bound first, as one array), with lists joined (see ListReading). */
  readonly selectByIds?: string;
  readonly orderBy: string;
  readonly orderKeys: readonly OrderKey[];
  readonly parentFirst: ParentFirstOrder | null;
  readonly builder: { joinsFor(...sql: string[]): string[]; selectJoinedTo?: RowsOfIds; readonly root: { readonly idIndex: number } };
}

export interface PageWindow {
  offset: number;
  /** null: to the end. */
  limit: number | null;
}

/**
 * A page: the total count, and either the page's rows or, for a page too long to hold, its ids
 * chunk by chunk in order, each chunk read from the database as the one before is consumed
 * (objects are then read by id through `planRowsById`).
 */
export interface PageRead {
  count: number;
  rows: Row[];
  ids: AsyncIterable<Id[]> | null;
}

export interface PageLimits {
  /** Pages longer than this come back as ids. */
  chunkRows: number;
  /** Above this many matching rows, ids are ordered alone, then their objects read by id. */
  sortIdsFirstRows: number;
}

/** FROM the model's table with the joins that the ordering and `condition` name. */
function fromWithJoins(db: Executor, model: ModelMeta, plan: PagedPlan, condition: string): string {
  const q = db.dialect.quote;
  const joins = plan.builder.joinsFor(plan.orderBy, condition);
  return `FROM ${q(model.table)} ${q('t0')}${joins.length ? ' ' + joins.join(' ') : ''}`;
}

/** One list read: what every statement reading a page of it shares. */
interface PageQuery {
  readonly db: Executor;
  readonly model: ModelMeta;
  readonly plan: PagedPlan;
  /** The filter compiled over alias `t0`; its values are in `params`, which each statement forks for its own. */
  readonly condition: string;
  readonly params: Params;
}

/**
 * The counts a page needs: all matching rows and, under a parent-first ordering, those with a
 * parent (an index on the parent's column answers both in one pass).
 */
function countsOf({ db, plan }: PageQuery): string[] {
  const q = db.dialect.quote;
  return plan.parentFirst ? ['COUNT(*)', `COUNT(${q('t0')}.${q(plan.parentFirst.column)})`] : ['COUNT(*)'];
}

/** The matching ids in the list's ordering, with only the joins the ordering and filter name; `clause` is LIMIT/OFFSET. */
function orderedIdsSql({ db, model, plan, condition }: PageQuery, clause: string, extraColumn = ''): string {
  const q = db.dialect.quote;
  return `SELECT ${q('t0')}.${q(model.pk.column as string)}${extraColumn} ${fromWithJoins(db, model, plan, condition)} WHERE ${condition} ORDER BY ${plan.orderBy} ${clause}`;
}

/** Count and page of the rows matching `where`: two statements whatever the filters; nested objects add a constant number. */
export async function readPage(db: Executor, model: ModelMeta, plan: PagedPlan, where: Predicate, page: PageWindow, limits: PageLimits): Promise<PageRead> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const condition = compilePredicate(where, model, 't0', params);
  const query: PageQuery = { db, model, plan, condition, params };
  const fromWhere = `FROM ${q(model.table)} ${q('t0')} WHERE ${condition}`;
  const combined = await countWithIds(query, fromWhere, page, limits);
  if (combined) return combined;
  const [count, withParent] = await countMatching(db, countsOf(query), fromWhere, params.values);
  if (page.offset >= count || page.limit === 0) return { count, rows: [], ids: null };
  const pageParams = params.fork();
  const clause = paginateClause(db.dialect, page.limit === null ? null : pageParams.add(page.limit), pageParams.add(page.offset));
  const size = Math.min(count - page.offset, page.limit ?? Infinity);
  if (size <= limits.chunkRows && count <= limits.sortIdsFirstRows) {
    return { count, rows: await db.rows(sqlText(plan.select, ` WHERE ${condition} ORDER BY ${plan.orderBy} ${clause}`), pageParams.values), ids: null };
  }
  // A long list is read and written chunk by chunk as the response goes out.
  if (size > limits.chunkRows) return { count, rows: [], ids: longPageIds(query, page, count, Number(withParent), limits.chunkRows) };
  const inIndexOrder = await rowsInIndexOrder(query, page, size, count - Number(withParent));
  if (inIndexOrder) return { count, rows: inIndexOrder, ids: null };
  // Many rows to order: sort ids alone (with only the joins the ordering needs), then read the
  // page's objects by id. Ordering full rows would carry every nested column of every matching row
  // through the sort.
  const ids = plan.parentFirst
    ? await parentFirstIds(query, plan.parentFirst, page, count, Number(withParent))
    : (await db.rows(orderedIdsSql(query, clause), pageParams.values)).map((r) => r[0] as Id);
  return { count, rows: await planRowsInOrder(db, model, plan, ids), ids: null };
}

/**
 * A page whose ids are read first anyway, with its count in the same statement where the database
 * reads both under one snapshot (PostgreSQL): one round trip fewer for every list, and one more
 * where the statement reads the page's rows as well (a filter the same plan serves for every
 * value). Only for a bounded page, outside transactions; null when it does not apply. Under a
 * parent-first ordering the statement reads the page from the rows without the parent (where the
 * page usually lies, prefixes without a VRF); a page reaching past them reads the rest by the counts.
 */
async function countWithIds(query: PageQuery, fromWhere: string, page: PageWindow, limits: PageLimits): Promise<PageRead | null> {
  const { db, model, plan, condition, params } = query;
  const counting = db.counting;
  if (!counting?.countsWithIds || db.inTransaction) return null;
  if (page.limit === null || page.limit === 0 || page.limit > limits.chunkRows) return null;
  const order = plan.parentFirst;
  const pageParams = params.fork();
  const clause = paginateClause(db.dialect, pageParams.add(page.limit), pageParams.add(page.offset));
  const idsSql = (extraColumn: string) => (order ? `${withoutParentIdsSql(query, order, extraColumn)} ${clause}` : orderedIdsSql(query, clause, extraColumn));
  const own = pageParams.values.slice(params.values.length);
  const rowsOf = plan.builder.selectJoinedTo?.bind(plan.builder);
  const combined = rowsOf && counting.countsWithRows ? await counting.countsWithRows(db, countsOf(query), fromWhere, params.values, idsSql, own, rowsOf) : null;
  if (combined) {
    const { counts, rows } = combined;
    if (order && rows.length < page.limit) {
      const [count, withParent] = counts;
      rows.push(...(await planRowsInOrder(db, model, plan, await withParentIds(query, page, count - withParent, withParent))));
    }
    return { count: counts[0], rows, ids: null };
  }
  const { counts, ids } = await counting.countsWithIds(db, countsOf(query), fromWhere, params.values, idsSql, own);
  let pageIds = (ids ?? []).map((id) => (model.integerPk ? Number(id) : id) as Id);
  if (order && pageIds.length < page.limit) {
    const [count, withParent] = counts;
    pageIds = [...pageIds, ...(await withParentIds(query, page, count - withParent, withParent))];
  }
  return { count: counts[0], rows: await planRowsInOrder(db, model, plan, pageIds), ids: null };
}

/**
 * The page's rows in one statement where the planner walks an index in the list's order, which it
 * leaves as soon as the page is full, so nothing is sorted and no id is looked up a second time:
 * for the first pages (what it skips still costs every nested join) of a list under an ordering
 * an index serves, or of the rows without the parent under a parent-first one. Only where the
 * planner can be asked without a round trip (see Executor.sortsAllRows); null when this does not apply.
 */
async function rowsInIndexOrder(query: PageQuery, page: PageWindow, size: number, withoutParent: number): Promise<Row[] | null> {
  const { db, plan, condition, params } = query;
  if (!db.sortsAllRows || page.offset > size) return null;
  const q = db.dialect.quote;
  const order = plan.parentFirst;
  if (order && page.offset + size > withoutParent) return null;
  const own = params.fork();
  const clause = paginateClause(db.dialect, own.add(size), own.add(page.offset));
  const sql = order
    ? `${plan.select} WHERE ${condition} AND NOT (${q('t0')}.${q(order.column)} IS NOT NULL) ORDER BY ${order.withoutParent} ${clause}`
    : `${plan.select} WHERE ${condition} ORDER BY ${plan.orderBy} ${clause}`;
  if (db.sortsAllRows(sql, own.values)) return null;
  return db.rows(sql, own.values);
}

/** One stretch of a list in one ordering: under a parent-first ordering, the rows without the parent, then those with it. */
interface ListPart {
  from: string;
  condition: string;
  keys: readonly OrderKey[];
  rows: number;
}

/**
 * The ids of a long page, `chunk` at a time: the first chunk of each part skips to the page's
 * offset, every later one reads on from the last row of the one before (keyset.ts), so memory and
 * the cost of a chunk stay flat however long the list.
 */
async function* longPageIds(query: PageQuery, page: PageWindow, total: number, withParentCount: number, chunk: number): AsyncGenerator<Id[]> {
  const { db, model, plan, condition, params } = query;
  const q = db.dialect.quote;
  const order = plan.parentFirst;
  const parent = order ? `${q('t0')}.${q(order.column)}` : '';
  const parts: ListPart[] = order
    ? [
        { from: `FROM ${q(model.table)} ${q('t0')}`, condition: `${condition} AND NOT (${parent} IS NOT NULL)`, keys: order.withoutParentKeys, rows: total - withParentCount },
        { from: fromWithJoins(db, model, plan, condition), condition: `${condition} AND ${parent} IS NOT NULL`, keys: plan.orderKeys, rows: withParentCount },
      ]
    : [{ from: fromWithJoins(db, model, plan, condition), condition, keys: plan.orderKeys, rows: total }];
  let skip = page.offset;
  let wanted = page.limit ?? Infinity;
  for (const part of parts) {
    if (wanted <= 0) return;
    if (skip >= part.rows) {
      skip -= part.rows;
      continue;
    }
    let last: unknown[] | null = null;
    for (;;) {
      const p = params.fork();
      const after = last ? ` AND ${afterRow(db.dialect, part.keys, last, p)}` : '';
      const size = Math.min(chunk, wanted);
      const clause = paginateClause(db.dialect, p.add(size), p.add(last ? 0 : skip));
      const rows = await db.rows(`SELECT ${part.keys.map((k) => k.expr).join(', ')} ${part.from} WHERE ${part.condition}${after} ORDER BY ${orderText(part.keys)} ${clause}`, p.values);
      if (rows.length) yield rows.map((r) => r[r.length - 1] as Id);
      wanted -= rows.length;
      if (rows.length < size || wanted <= 0) break;
      last = rows[rows.length - 1];
    }
    skip = 0;
  }
}

/** The ids of the rows without the parent, in their own ordering (which an index can serve); a LIMIT/OFFSET clause follows. */
function withoutParentIdsSql({ db, model, condition }: PageQuery, order: ParentFirstOrder, extraColumn = ''): string {
  const q = db.dialect.quote;
  const pk = `${q('t0')}.${q(model.pk.column as string)}`;
  // Filtered from the side of the rows with a parent: an index on the foreign key finds those few
  // directly, whereas `IS NULL` would walk it over nearly every row and keep the database from
  // reading the rows in the order of the index that serves the ordering.
  return `SELECT ${pk}${extraColumn} FROM ${q(model.table)} ${q('t0')} WHERE ${condition} AND NOT (${q('t0')}.${q(order.column)} IS NOT NULL) ORDER BY ${order.withoutParent}`;
}

/** A window's length: null when it has no end, never negative. */
const take = (n: number) => (n === Infinity ? null : Math.max(0, n));

/** The part of a page among the rows with the parent, after the `withoutParent` rows without it. */
async function withParentIds(query: PageQuery, page: PageWindow, withoutParent: number, withParentCount: number): Promise<Id[]> {
  const end = page.limit === null ? Infinity : page.offset + page.limit;
  if (withParentCount === 0 || end <= withoutParent) return [];
  const { db, plan, condition, params } = query;
  const q = db.dialect.quote;
  const order = plan.parentFirst as ParentFirstOrder;
  const second = params.fork();
  const rest = take(end - Math.max(page.offset, withoutParent));
  const clause = paginateClause(db.dialect, rest === null ? null : second.add(rest), second.add(Math.max(0, page.offset - withoutParent)));
  const withParent: PageQuery = { ...query, condition: `${condition} AND ${q('t0')}.${q(order.column)} IS NOT NULL` };
  return (await db.rows(orderedIdsSql(withParent, clause), second.values)).map((r) => r[0] as Id);
}

/**
 * The page's ids under an ordering led by an optional parent's field: the rows without the parent
 * (first in that ordering) through their own ordering, which an index can serve, then the rows
 * with a parent through the full one: one statement per part the page reaches into.
 */
async function parentFirstIds(query: PageQuery, order: ParentFirstOrder, page: PageWindow, total: number, withParentCount: number): Promise<Id[]> {
  const { db, params } = query;
  const withoutParent = total - withParentCount;
  const end = page.limit === null ? Infinity : page.offset + page.limit;
  const firstIds: Id[] = [];
  if (page.offset < withoutParent) {
    const first = params.fork();
    const firstClause = paginateClause(db.dialect, first.add(take(Math.min(end, withoutParent) - page.offset) ?? 0), first.add(page.offset));
    for (const r of await db.rows(`${withoutParentIdsSql(query, order)} ${firstClause}`, first.values)) firstIds.push(r[0] as Id);
  }
  return [...firstIds, ...(await withParentIds(query, page, withoutParent, withParentCount))];
}

/** The rows matching `where` in the plan's ordering within `window`, without a count (one statement). */
export async function planRowsOrdered(db: Executor, model: ModelMeta, plan: PagedPlan, where: Predicate, window: PageWindow): Promise<Row[]> {
  const params = new Params(db.dialect);
  const condition = compilePredicate(where, model, 't0', params);
  const clause = paginateClause(db.dialect, window.limit === null ? null : params.add(window.limit), params.add(window.offset));
  return db.rows(sqlText(plan.select, ` WHERE ${condition} ORDER BY ${plan.orderBy} ${clause}`), params.values);
}

/**
 * The rows of a representation's SELECT for these primary keys, in `orderBy` when given.
 */
export async function planRowsById(db: Executor, model: ModelMeta, selectFrom: string, ids: readonly Id[], orderBy?: string): Promise<Row[]> {
  if (ids.length === 0) return [];
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const order = orderBy ? ` ORDER BY ${orderBy}` : '';
  return db.rows(sqlText(selectFrom, ` WHERE ${params.in(`${q('t0')}.${q(model.pk.column as string)}`, ids as Id[])}${order}`), params.values);
}

/**
 * The rows of a plan's objects by id, in the order of `ids` (already the list's order): the
 * database reads them unsorted and they are put in order here. Sorting them again by the list's
 * ordering made PostgreSQL sort a thousand wide rows (15 ms against 10.5 ms for W2's statement).
 */
export async function planRowsInOrder(db: Executor, model: ModelMeta, plan: PagedPlan, ids: readonly Id[]): Promise<Row[]> {
  const rows = await planRowsById(db, model, plan.selectByIds ?? plan.select, ids);
  if (rows.length < 2) return rows;
  const idIndex = plan.builder.root.idIndex;
  const byId = new Map<string, Row>();
  for (const row of rows) byId.set(String(row[idIndex]), row);
  const ordered: Row[] = [];
  for (const id of ids) {
    const row = byId.get(String(id));
    if (row) ordered.push(row);
  }
  return ordered;
}

/** The rows of a representation's SELECT matching a predicate, unordered (a detail read). */
export async function planRowsWhere(db: Executor, model: ModelMeta, selectFrom: string, where: Predicate): Promise<Row[]> {
  const params = new Params(db.dialect);
  const condition = compilePredicate(where, model, 't0', params);
  return db.rows(sqlText(selectFrom, ` WHERE ${condition}`), params.values);
}
