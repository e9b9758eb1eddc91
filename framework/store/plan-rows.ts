import type { ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import type { Executor, Row } from './executor';
import { Params } from './params';

/**
 * The rows of a representation's SELECT (`SELECT … FROM … LEFT JOIN …`, built by SelectBuilder)
 * for these primary keys, in `orderBy` when given.
 */
export async function planRowsById(db: Executor, model: ModelMeta, selectFrom: string, ids: readonly Id[], orderBy?: string): Promise<Row[]> {
  if (ids.length === 0) return [];
  const q = db.dialect.quote;
  const params = new Params(db.dialect);
  const order = orderBy ? ` ORDER BY ${orderBy}` : '';
  return db.rows(`${selectFrom} WHERE ${q('t0')}.${q(model.pk.column as string)} IN (${params.list(ids as Id[])})${order}`, params.values);
}
