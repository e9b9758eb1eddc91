import type { KindStore } from '../fields/kind-store';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { ormFilter } from '../query/orm';
import { containsLabel } from './comparisons/lists';
import { escapeLike } from './dialect/types';
import type { Executor } from './executor';
import { idsMatching } from './filter-queries';
import { linkedIds, replaceLinks } from './links';
import { Params } from './params';
import { statusesFor, statusFor } from './statuses';
import { placeTreeNode } from './tree';

/** Whether `model` has a row with this id. */
async function exists(db: Executor, model: ModelMeta, id: Id): Promise<boolean> {
  const q = db.dialect.quote;
  const pk = q(model.pk.column as string);
  const rows = await db.rows(`SELECT ${pk} FROM ${q(model.table)} WHERE ${pk} = ${db.dialect.placeholder(1)}`, [id]);
  return rows.length > 0;
}

/** Id of a row of `model` whose `field` equals `value`, or null. */
async function idWith(db: Executor, model: ModelMeta, field: FieldMeta, value: unknown): Promise<Id | null> {
  const q = db.dialect.quote;
  const rows = await db.rows(`SELECT ${q(model.pk.column as string)} FROM ${q(model.table)} WHERE ${q(field.column as string)} = ${db.dialect.placeholder(1)}`, [value]);
  return rows.length ? (rows[0][0] as Id) : null;
}

/** The ids among `ids` whose content-type list `field` names `label`. */
async function idsForContentType(db: Executor, model: ModelMeta, field: FieldMeta, ids: Id[], label: string): Promise<Id[]> {
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const pk = q(model.pk.column as string);
  const rows = await db.rows(
    `SELECT ${pk} FROM ${q(model.table)} WHERE ${pk} IN (${params.list(ids)}) AND ${containsLabel(q(field.column as string), label, params)}`,
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

/** The database as field kinds use it, over one connection (a write's transaction, or the reader). */
export function kindStore(db: Executor): KindStore {
  return {
    exists: (model, id) => exists(db, model, id),
    idsMatching: (model, attributes, limit) => idsMatching(db, model, ormFilter(model, attributes), limit),
    idWith: (model, field, value) => idWith(db, model, field, value),
    idsForContentType: (model, field, ids, label) => idsForContentType(db, model, field, ids, label),
    statusFor: (statuses, slug, label) => statusFor(db, statuses, slug, label),
    statusesFor: (statuses, label) => statusesFor(db, statuses, label),
    takenValues: (field, value, exceptId) => takenValues(db, field, value, exceptId),
    linkedIds: (field, ownerIds) => linkedIds(db, field, ownerIds),
    replaceLinks: (field, ownerId, targets, created) => replaceLinks(db, field, ownerId, targets, created),
    placeTreeNode: (parent, id) => placeTreeNode(db, parent, id),
  };
}
