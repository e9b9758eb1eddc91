import type { Executor } from '../store/executor';
import { Params } from '../store/params';
import { ormFilter } from '../query/orm';
import { and, fieldTest, not, type Predicate } from '../query/predicate';
import { compilePredicate } from '../store/compile-predicate';
import type { ModelMeta } from '../metadata/model-meta';
import type { ModelClass } from '../metadata/types';
import { DEFAULT_VERSION } from '../versioning/version';
import { renderContext } from './render-context';
import { displayEmitter } from './representation';
import type { Id } from '../query/id';
import { SelectBuilder } from '../store/select';
import { loadValues } from './values';
import type { Values, WriteContext } from './write-context';

/**
 * Reads that cross-field rules (`static clean`) need about other objects, in model terms: classes,
 * field names and Django-style attribute keys, never columns or SQL.
 */

/** Stored values of one object, or null when there is none. */
export async function loadObject(wc: WriteContext, cls: ModelClass, id: Id): Promise<Values | null> {
  const [values] = await loadValues(wc.tx, wc.registry.forClass(cls), [id], false);
  return values ?? null;
}

/** Number of objects matching an attribute dictionary (`{name: 'x', tenant: null}`), one id left out. */
export async function countObjects(wc: WriteContext, cls: ModelClass, attributes: Record<string, unknown>, excludeId?: Id): Promise<number> {
  const model = wc.registry.forClass(cls);
  let where: Predicate = ormFilter(model, attributes);
  if (excludeId !== undefined) where = and([where, not(fieldTest(model.pk, 'exact', [excludeId]))]);
  const params = new Params(wc.tx.dialect);
  const q = wc.tx.dialect.quote;
  const [[n]] = await wc.tx.rows(`SELECT COUNT(*) FROM ${q(model.table)} ${q('t0')} WHERE ${compilePredicate(where, model, 't0', params)}`, params.values);
  return Number(n);
}

/** `display` of objects by id (the text Nautobot's messages quote), in no particular order. */
export async function displayStrings(db: Executor, model: ModelMeta, ids: Id[]): Promise<Array<{ display: string; id: Id }>> {
  if (ids.length === 0) return [];
  const sb = new SelectBuilder(model, db.dialect);
  const display = displayEmitter(model, sb.root);
  const idIndex = sb.root.idIndex;
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const rows = await db.rows(`${sb.selectFrom()} WHERE ${q('t0')}.${q(model.pk.column as string)} IN (${params.list(ids)})`, params.values);
  const rc = renderContext('', DEFAULT_VERSION, db);
  return rows.map((r) => ({ display: String(display(r, rc)), id: r[idIndex] as Id }));
}

/** `display` of one object ('' when it does not exist). */
export async function displayOf(wc: WriteContext, cls: ModelClass, id: Id): Promise<string> {
  const [row] = await displayStrings(wc.tx, wc.registry.forClass(cls), [id]);
  return row?.display ?? '';
}
