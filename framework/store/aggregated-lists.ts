import { linkOf } from '../fields/many-to-many';
import type { ObjectEmitter, RelatedObjects, RenderState, Row } from '../fields/kind';
import type { ModelMeta } from '../metadata/model-meta';
import type { Json } from '../metadata/types';
import type { Dialect } from './dialect/types';

/**
 * Short lists of a page's objects (tags, the addresses whose NAT inside an address is) read by the
 * statement that reads the objects, as JSON aggregated by the database, instead of by a statement
 * of their own: on PostgreSQL and MySQL each statement is a round trip, which costs more than the
 * rows such a list holds. Two placements (ListReading in select.ts chooses):
 * - a correlated subquery in the SELECT list: one object, and pages on SQLite and MySQL;
 * - a page read by its ids (PostgreSQL, whose lists bind as one array): a LEFT JOIN to the lists of
 *   all those ids grouped by owner, bound to the same array.
 * The nested form is emitted from the aggregated rows exactly as from a loader's.
 */

/** A table alias of a SELECT, as the aggregation reads it. */
interface AliasScope {
  readonly alias: string;
  ref(column: string): string;
}

/** The SELECT of a subquery: a builder (store/select.ts) whose root is the target's table. */
export interface SubSelect {
  readonly model: ModelMeta;
  readonly dialect: Dialect;
  readonly exprs: readonly string[];
  readonly joins: readonly string[];
  readonly loaders: readonly unknown[];
  readonly aliasPrefix: string;
  readonly root: AliasScope;
}

/** The scope whose objects own the lists. */
export interface ListOwner extends AliasScope {
  readonly model: ModelMeta;
  expr(build: (alias: string) => string): number;
}

/** The target's nested form read by a subquery: its SELECT, emitter and ordering. */
export interface NestedSubquery {
  readonly select: SubSelect;
  readonly emit: ObjectEmitter;
  readonly order: string;
}

/** Reads one owner's list from the aggregated value. */
export type ListReader = (value: unknown, rc: RenderState) => Json;

/** Whether every value `select` reads is a column of its root table whose kind JSON carries unchanged (FieldKind.sameInJson). */
function readsColumnsAlone(select: SubSelect): boolean {
  if (select.joins.length || select.loaders.length) return false;
  const carried = new Set<string>();
  for (const field of select.model.fields) if (field.column && field.kind.sameInJson) carried.add(select.root.ref(field.column));
  return select.exprs.every((expr) => carried.has(expr));
}

/** A literal from metadata (a model label, a choice value), never client input. */
function literal(value: string | number): string {
  return typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`;
}

/** Where one owner's targets come from: the FROM, the column naming the owner, and any further condition. */
interface ListSource {
  readonly from: string;
  readonly ownerColumn: string;
  readonly condition: string;
}

function sourceOf(spec: RelatedObjects, select: SubSelect): ListSource | null {
  const q = select.dialect.quote;
  const target = select.model;
  const t = q(select.root.alias);
  if (spec.kind === 'linked') {
    if (spec.slugField) return null;
    const link = linkOf(spec.field);
    const lk = q(`${select.aliasPrefix}l`);
    return {
      from: `${q(target.table)} ${t} JOIN ${q(link.table)} ${lk} ON ${lk}.${q(link.target)} = ${select.root.ref(target.pk.column as string)}`,
      ownerColumn: `${lk}.${q(link.owner)}`,
      condition: link.discriminator ? ` AND ${lk}.${q(link.discriminator.column)} = ${literal(link.discriminator.value)}` : '',
    };
  }
  if (spec.kind === 'pointing') {
    // A form of chosen fields may read more than columns; a boolean condition is written per database.
    if (spec.form || (spec.where && typeof spec.where.value === 'boolean')) return null;
    const where = spec.where;
    return {
      from: `${q(target.table)} ${t}`,
      ownerColumn: select.root.ref(spec.via.column as string),
      condition: where ? ` AND ${select.root.ref(where.field.column as string)} = ${literal(where.value as string | number)}` : '',
    };
  }
  return null;
}

function readerOf(dialect: Dialect, emit: ObjectEmitter): ListReader {
  const parsed = dialect.jsonAggParsed;
  return (value, rc) => {
    if (value === null || value === undefined) return [];
    const rows = (parsed ? value : JSON.parse(value as string)) as Row[];
    return rows.map((r) => emit(r, rc));
  };
}

/** The nested form of the list's targets, when the aggregate can carry it; null otherwise. */
function aggregable(spec: RelatedObjects, nestedOf: (target: ModelMeta) => NestedSubquery): { nested: NestedSubquery; source: ListSource } | null {
  if (spec.kind === 'generic' || !spec.field.target) return null;
  const nested = nestedOf(spec.field.target);
  if (!readsColumnsAlone(nested.select)) return null;
  const source = sourceOf(spec, nested.select);
  return source ? { nested, source } : null;
}

/** One object's list as a correlated subquery of its SELECT: its position in the row and its reader. */
export function listInRow(spec: RelatedObjects, owner: ListOwner, nestedOf: (target: ModelMeta) => NestedSubquery): { index: number; read: ListReader } | null {
  const found = aggregable(spec, nestedOf);
  if (!found) return null;
  const { select, emit, order } = found.nested;
  const { from, ownerColumn, condition } = found.source;
  const ownerPk = owner.ref(owner.model.pk.column as string);
  const index = owner.expr(() => `(SELECT ${select.dialect.jsonRowsAgg(select.exprs, order)} FROM ${from} WHERE ${ownerColumn} = ${ownerPk}${condition})`);
  return { index, read: readerOf(select.dialect, emit) };
}

/** A page's lists as a LEFT JOIN of its by-id SELECT: the column and join to add, and the reader. */
export interface PageList {
  readonly column: string;
  readonly join: string;
  readonly read: ListReader;
}

/**
 * The lists of a page read by its ids, grouped by owner, joined to the owners. `ids` is the
 * placeholder the by-id statement binds the page's ids to (one array); `name` is the join's alias.
 */
export function listsOfPage(spec: RelatedObjects, owner: ListOwner, name: string, ids: string, nestedOf: (target: ModelMeta) => NestedSubquery): PageList | null {
  const found = aggregable(spec, nestedOf);
  if (!found) return null;
  const { select, emit, order } = found.nested;
  const { from, ownerColumn, condition } = found.source;
  const dialect = select.dialect;
  if (!dialect.inBoundList) return null;
  const q = dialect.quote;
  const alias = q(name);
  const aggregate = dialect.jsonRowsAgg(select.exprs, order);
  const owned = dialect.inBoundList(ownerColumn, [], () => ids);
  return {
    column: `${alias}.${q('v')}`,
    join:
      `LEFT JOIN (SELECT ${ownerColumn} AS ${q('o')}, ${aggregate} AS ${q('v')} FROM ${from} WHERE ${owned}${condition} GROUP BY ${ownerColumn}) ${alias} ` +
      `ON ${alias}.${q('o')} = ${owner.ref(owner.model.pk.column as string)}`,
    read: readerOf(select.dialect, emit),
  };
}
