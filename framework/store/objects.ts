import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Values } from '../metadata/types';
import type { Id } from '../query/id';
import type { Executor } from './executor';
import { kindStore } from './kind-store';
import { selectColumns, type RowSelection } from './rows';

/**
 * Objects as stored values: rows turned into the internal values field kinds parse into, and
 * back. The object facade (store.ts) and the writer read and write through these.
 */

/** Physical columns a model's fields load from. */
export function loadColumns(model: ModelMeta): string[] {
  const cols = new Set<string>();
  for (const f of model.fields) {
    for (const c of f.kind.loadColumns?.(f) ?? (f.column && f.kind.load ? [f.column] : [])) cols.add(c);
  }
  return [...cols];
}

/** Column values of a row holding `values` (fields left undefined are not written). */
export function rowOf(model: ModelMeta, values: Values): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of model.fields) {
    if (!f.kind.store || !f.column) continue;
    if (values[f.name] === undefined) continue;
    Object.assign(row, f.kind.store(f, values[f.name]));
  }
  return row;
}

/**
 * Stored values of the selected rows, link-table fields included; in primary-key order unless
 * `orderById` is false.
 */
export async function findValues(db: Executor, model: ModelMeta, selection: RowSelection, orderById = true): Promise<Values[]> {
  const rows = await selectColumns(db, model, loadColumns(model), selection, orderById);
  const out: Values[] = rows.map((row) => {
    const values: Values = {};
    for (const f of model.fields) if (f.kind.load && f.column) values[f.name] = f.kind.load(f, row);
    return values;
  });
  const linked = model.fields.filter((f) => f.kind.loadMany);
  if (linked.length && out.length) {
    const ids = out.map((v) => v.id as Id);
    for (const f of linked) {
      const map = await (f.kind.loadMany as NonNullable<FieldMeta['kind']['loadMany']>)(f, ids, kindStore(db));
      for (const v of out) v[f.name] = map.get(v.id as Id) ?? [];
    }
  }
  return out;
}
