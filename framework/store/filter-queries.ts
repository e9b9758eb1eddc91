import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import type { Executor } from './executor';
import { Params } from './params';

/**
 * Rows of `model` named by a filter value: those whose id is one of `ids` or whose `keyField`
 * (a natural key) holds one of `keys`, as `[id, key]` pairs (`[id, id]` without a key field).
 */
export async function rowsByIdOrKey(db: Executor, model: ModelMeta, ids: Id[], keyField: FieldMeta | undefined, keys: unknown[]): Promise<Array<[Id, unknown]>> {
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const pk = q(model.pk.column as string);
  const conditions: string[] = [];
  if (ids.length) conditions.push(params.in(pk, ids));
  if (keys.length && keyField?.column) conditions.push(params.in(q(keyField.column), keys));
  // Nothing to look up: no row is named.
  if (conditions.length === 0) return [];
  const select = keyField?.column ? `${pk}, ${q(keyField.column)}` : `${pk}, ${pk}`;
  const rows = await db.rows(`SELECT ${select} FROM ${q(model.table)} WHERE ${conditions.join(' OR ')}`, params.values);
  return rows.map((r) => [r[0] as Id, r[1]]);
}
