import type { Executor } from './executor';
import { Params } from './params';
import { versionBump } from './rows';
import { parseJsonColumn } from '../fields/json';
import { jsonKeyTest } from '../query/json-key';
import { and, not, TRUE, type Predicate } from '../query/predicate';
import { compilePredicate } from './compile-predicate';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';

/**
 * Maintenance of keys inside a JSON object column across many rows (custom field data when a
 * definition is added, removed or renamed), run in the caller's transaction.
 */

function columnOf(field: FieldMeta): string {
  if (!field.column) throw new Error(`${field.model.label}.${field.name} has no column`);
  return field.column;
}

/**
 * Sets `key` to `value` in the rows matching `where`; with `onlyWhereEmpty` rows already holding
 * a non-null value under the key keep it (Python's `setdefault`). Returns the rows changed.
 */
export async function setJsonKey(
  db: Executor,
  model: ModelMeta,
  field: FieldMeta,
  key: string,
  value: Json,
  options: { where?: Predicate; onlyWhereEmpty?: boolean } = {},
): Promise<number> {
  const q = db.dialect.quote;
  const column = columnOf(field);
  const params = new Params(db.dialect);
  const bind = (v: unknown) => params.add(v);
  const set = db.dialect.jsonSet(`${q('t0')}.${q(column)}`, key, JSON.stringify(value), bind);
  const conditions = [options.where ?? TRUE];
  if (options.onlyWhereEmpty) conditions.push(jsonKeyTest(field, key, 'text', 'isnull', [true]));
  const where = compilePredicate(and(conditions), model, 't0', params);
  return db.run(`UPDATE ${q(model.table)} AS ${q('t0')} SET ${q(column)} = ${set}, ${versionBump(q)} WHERE ${where}`, params.values);
}

/**
 * Removes `key` from every row holding a value under it. A key holding JSON null may stay: it
 * reads exactly like an absent key everywhere (representation, filters, defaults).
 */
export async function removeJsonKey(db: Executor, model: ModelMeta, field: FieldMeta, key: string): Promise<number> {
  const q = db.dialect.quote;
  const column = columnOf(field);
  const params = new Params(db.dialect);
  const bind = (v: unknown) => params.add(v);
  const remove = db.dialect.jsonRemove(`${q('t0')}.${q(column)}`, key, bind);
  const holds = compilePredicate(not(jsonKeyTest(field, key, 'text', 'isnull', [true])), model, 't0', params);
  return db.run(`UPDATE ${q(model.table)} AS ${q('t0')} SET ${q(column)} = ${remove}, ${versionBump(q)} WHERE ${holds}`, params.values);
}

/**
 * Rewrites the value under `key` with `rewrite` in the rows matching `where` (row by row, for
 * changes SQL cannot express portably, such as renaming one item of an array).
 */
export async function rewriteJsonKey(
  db: Executor,
  model: ModelMeta,
  field: FieldMeta,
  key: string,
  where: Predicate,
  rewrite: (value: Json) => Json,
): Promise<number> {
  const q = db.dialect.quote;
  const column = columnOf(field);
  const pk = model.pk.column as string;
  const params = new Params(db.dialect);
  const condition = compilePredicate(where, model, 't0', params);
  const rows = await db.rows(`SELECT ${q('t0')}.${q(pk)}, ${q('t0')}.${q(column)} FROM ${q(model.table)} ${q('t0')} WHERE ${condition}`, params.values);
  let changed = 0;
  for (const [id, raw] of rows) {
    const parsed = parseJsonColumn(raw);
    const data: JsonObject = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? { ...parsed } : {};
    if (!(key in data)) continue;
    data[key] = rewrite(data[key]);
    const p = new Params(db.dialect);
    changed += await db.run(`UPDATE ${q(model.table)} SET ${q(column)} = ${p.add(JSON.stringify(data))}, ${versionBump(q)} WHERE ${q(pk)} = ${p.add(id)}`, p.values);
  }
  return changed;
}
