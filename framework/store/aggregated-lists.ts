import { linkOf } from '../fields/many-to-many';
import type { ObjectEmitter, PlanMode, RenderState, Row } from '../fields/kind';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json } from '../metadata/types';
import type { Dialect } from './dialect/types';

/**
 * Kinds whose column values read the same from a JSON aggregate as from a row, on every database.
 * Dates and decimals do not (PostgreSQL's json writes `2024-01-01T00:00:00+00:00` where its row
 * reads `2024-01-01 00:00:00+00`, and numbers where rows read decimal text); neither do JSON
 * columns, embedded as documents instead of text on MySQL.
 */
const SAME_IN_JSON = new Set(['uuid', 'integer-pk', 'string', 'text', 'slug', 'integer', 'choice', 'boolean']);

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

/** Whether every value `select` reads is a column of its root table of a kind JSON carries unchanged. */
function readsColumnsAlone(select: SubSelect): boolean {
  if (select.joins.length || select.loaders.length) return false;
  const kinds = new Map<string, string>();
  for (const field of select.model.fields) if (field.column) kinds.set(select.root.ref(field.column), field.kind.name);
  return select.exprs.every((expr) => SAME_IN_JSON.has(kinds.get(expr) ?? ''));
}

/**
 * The targets of a many-to-many field (tags) read within the owner's own SELECT: a correlated
 * subquery aggregates their nested rows, in the targets' ordering, into one JSON value per owner,
 * so reading one object costs no statement for them (on PostgreSQL and MySQL each statement is a
 * round trip). The nested form is emitted from those rows exactly as from a loader's. Null, and
 * the owner loads them by statement, when the nested form reads more than plain columns of the
 * target (joins, loaders, dates or decimals).
 */
export function aggregatedLinks(
  field: FieldMeta,
  owner: ListOwner,
  mode: PlanMode,
  nestedOf: (target: ModelMeta) => NestedSubquery,
): ((row: Row, rc: RenderState) => Json) | null {
  const target = field.target as ModelMeta | undefined;
  if (!target) return null;
  const { select, emit, order } = nestedOf(target);
  if (!readsColumnsAlone(select)) return null;
  const dialect = select.dialect;
  const q = dialect.quote;
  const link = linkOf(field);
  const lk = q(`${select.aliasPrefix}l`);
  const ownerPk = owner.ref(owner.model.pk.column as string);
  // The discriminator is a model label from the registry, never client input.
  const discriminator = link.discriminator ? ` AND ${lk}.${q(link.discriminator.column)} = '${link.discriminator.value.replace(/'/g, "''")}'` : '';
  const index = owner.expr(
    () =>
      `(SELECT ${dialect.jsonRowsAgg(select.exprs, order)} FROM ${q(target.table)} ${q(select.root.alias)} ` +
      `JOIN ${q(link.table)} ${lk} ON ${lk}.${q(link.target)} = ${select.root.ref(target.pk.column as string)} ` +
      `WHERE ${lk}.${q(link.owner)} = ${ownerPk}${discriminator})`,
  );
  const parsed = dialect.jsonAggParsed;
  return (row, rc) => {
    const value = row[index];
    if (value === null || value === undefined) return [];
    const rows = (parsed ? value : JSON.parse(value as string)) as Row[];
    return rows.map((r) => emit(r, rc));
  };
}
