import type { KindStore, KindWhere } from '../fields/kind';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { ormFilter } from '../query/orm';
import { isPredicate } from '../query/predicate';
import { containsLabel } from './comparisons/lists';
import { escapeLike } from './dialect/types';
import type { Executor } from './executor';
import { addLinks, linkedIds, replaceLinks } from './links';
import { Params } from './params';
import { selectIds, type RowSelection } from './rows';
import { statusesFor, statusFor } from './statuses';
import { placeTreeNode } from './tree';

/** The rows a KindWhere names. */
export function kindSelection(model: ModelMeta, where: KindWhere): RowSelection {
  if (Array.isArray(where)) return where as readonly Id[];
  return isPredicate(where) ? where : ormFilter(model, where as Record<string, unknown>);
}

/** The ids among `ids` whose content-type list `field` names `label`. */
async function idsForContentType(db: Executor, model: ModelMeta, field: FieldMeta, ids: Id[], label: string): Promise<Id[]> {
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const pk = q(model.pk.column as string);
  const rows = await db.rows(
    `SELECT ${pk} FROM ${q(model.table)} WHERE ${params.in(pk, ids)} AND ${containsLabel(q(field.column as string), label, params)}`,
    params.values,
  );
  return rows.map((r) => r[0] as Id);
}

/** Values of `field` equal to `value` or starting with `value-`, held by rows other than `exceptId`. */
async function takenValues(db: Executor, field: FieldMeta, value: string, exceptId: Id): Promise<string[]> {
  const q = db.dialect.quote;
  const p = (n: number) => db.dialect.placeholder(n);
  const col = q(field.column as string);
  const pk = q(field.model.pk.column as string);
  const rows = await db.rows(
    `SELECT ${col} FROM ${q(field.model.table)} WHERE (${col} = ${p(1)} OR ${col} LIKE ${p(2)} ESCAPE '!') AND ${pk} <> ${p(3)}`,
    [value, `${escapeLike(value)}-%`, exceptId],
  );
  return rows.map((r) => r[0] as string);
}

/** What kinds ask beyond finding objects, over one connection (a write's transaction, or the reader). */
export type KindQueries = Omit<KindStore, 'exists' | 'ids'>;

export function kindQueries(db: Executor): KindQueries {
  return {
    idsForContentType: (model, field, ids, label) => idsForContentType(db, model, field, ids, label),
    statusFor: (statuses, slug, label) => statusFor(db, statuses, slug, label),
    statusesFor: (statuses, label) => statusesFor(db, statuses, label),
    takenValues: (field, value, exceptId) => takenValues(db, field, value, exceptId),
    linkedIds: (field, ownerIds) => linkedIds(db, field, ownerIds),
    replaceLinks: (field, ownerId, targets, created, known) => replaceLinks(db, field, ownerId, targets, created, known),
    addLinks: (field, pairs) => addLinks(db, field, pairs),
    placeTreeNode: (parent, id) => placeTreeNode(db, parent, id),
  };
}

/**
 * The database as field kinds use it, over a bare connection: where no object facade is at hand
 * (loading stored values, OPTIONS choices).
 */
export function kindStore(db: Executor): KindStore {
  return {
    exists: async (model, where) => (await selectIds(db, model, kindSelection(model, where), 1)).length > 0,
    ids: (model, where, limit) => selectIds(db, model, kindSelection(model, where), limit),
    ...kindQueries(db),
  };
}
