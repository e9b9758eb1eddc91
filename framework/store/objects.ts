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
 * The columns of `values` that differ from those of `current`: what an update of an object
 * read as `current` writes (the columns it leaves alone stay as other writers left them).
 */
export function changedColumns(model: ModelMeta, current: Values, values: Values): Record<string, unknown> {
  const before = rowOf(model, current);
  const after = rowOf(model, values);
  const changed: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(after)) {
    if (!sameStored(before[column], value)) changed[column] = value;
  }
  return changed;
}

function sameStored(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  if (typeof a !== 'object' && typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Stored values of the selected rows, link-table fields included; in primary-key order unless
 * `orderById` is false. With `forUpdate` (inside a transaction) the rows stay locked until it ends.
 */
export async function findValues(db: Executor, model: ModelMeta, selection: RowSelection, orderById = true, forUpdate = false): Promise<Values[]> {
  const rows = await selectColumns(db, model, loadColumns(model), selection, orderById, forUpdate);
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
