import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import { VERSION_COLUMN } from '../metadata/registry';
import type { Values } from '../metadata/types';
import type { Id } from '../query/id';
import type { Executor, ObjectRow } from './executor';
import { kindStore } from './kind-store';
import { linkedIdsInRow } from './links';
import type { Params } from './params';
import { selectColumns, type RowSelection } from './rows';

/**
 * Objects as stored values: rows turned into the internal values field kinds parse into, and
 * back. The object facade (store.ts) and the writer read and write through these.
 */

/** Physical columns a model's fields (or these of its fields) load from. */
export function loadColumns(model: ModelMeta, fields: readonly FieldMeta[] = model.fields): string[] {
  const cols = new Set<string>();
  for (const f of fields) {
    for (const c of f.kind.loadColumns?.(f) ?? (f.column && f.kind.load ? [f.column] : [])) cols.add(c);
  }
  return [...cols];
}

/** Column values of a row holding `values` (fields left undefined are not written). */
export function rowOf(model: ModelMeta, values: Values): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of storedFields(model)) {
    const value = values[f.name];
    if (value === undefined) continue;
    const kind = f.kind;
    if (kind.storeColumn) {
      row[f.column as string] = kind.storeColumn(f, value);
      continue;
    }
    const stored = (kind.store as NonNullable<FieldMeta['kind']['store']>)(f, value);
    for (const column in stored) row[column] = stored[column];
  }
  return row;
}

/** The columns a field stores for `value`, by name. */
export function storedColumns(field: FieldMeta, value: unknown): Record<string, unknown> {
  const kind = field.kind;
  if (kind.storeColumn) return { [field.column as string]: kind.storeColumn(field, value) };
  return kind.store ? kind.store(field, value) : {};
}

/** The value a field's own column holds for `value` (what its kind stores there). */
export function columnValue(field: FieldMeta, value: unknown): unknown {
  const kind = field.kind;
  if (kind.storeColumn) return kind.storeColumn(field, value);
  return kind.store ? kind.store(field, value)[field.column as string] : value;
}

const STORED_FIELDS = new WeakMap<ModelMeta, readonly FieldMeta[]>();

/** Fields with columns of the model's row, looked up once per model (rowOf runs per object). */
function storedFields(model: ModelMeta): readonly FieldMeta[] {
  let fields = STORED_FIELDS.get(model);
  if (!fields) STORED_FIELDS.set(model, (fields = model.fields.filter((f) => (f.kind.storeColumn || f.kind.store) && f.column)));
  return fields;
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

/** An object read for a write: its stored values and the version of its row (locked). */
export interface LockedObject {
  values: Values;
  version: number;
}

/**
 * Stored values of the selected rows, link-table fields included; in primary-key order unless
 * `orderById` is false.
 */
export async function findValues(db: Executor, model: ModelMeta, selection: RowSelection, orderById = true): Promise<Values[]> {
  return (await readObjects(db, model, selection, orderById, false)).map((o) => o.values);
}

/**
 * Stored values and versions of the selected rows in primary-key order, the rows locked until the
 * transaction ends (PostgreSQL and MySQL; SQLite serialises writers) and read as last committed.
 */
export function findLocked(db: Executor, model: ModelMeta, selection: RowSelection): Promise<LockedObject[]> {
  return readObjects(db, model, selection, true, true);
}

/**
 * Stored values of only the named fields (and the primary key) of the selected rows, in
 * primary-key order: for code that needs a few facts of many objects, not whole objects.
 */
export async function findFieldValues(db: Executor, model: ModelMeta, selection: RowSelection, names: readonly string[]): Promise<Values[]> {
  const fields = model.fields.filter((f) => f === model.pk || names.includes(f.name));
  return (await readObjects(db, model, selection, true, false, fields)).map((o) => o.values);
}

async function readObjects(db: Executor, model: ModelMeta, selection: RowSelection, orderById: boolean, forUpdate: boolean, fields: readonly FieldMeta[] = model.fields): Promise<LockedObject[]> {
  const columns = forUpdate ? [...loadColumns(model, fields), VERSION_COLUMN] : loadColumns(model, fields);
  const inRow = fields.filter((f) => f.kind.linksInRow);
  const readers: Array<{ field: FieldMeta; alias: string; read(value: unknown): unknown }> = [];
  const q = db.dialect.quote;
  const ownerPk = `${q('t0')}.${q(model.pk.column as string)}`;
  const linked = (params: Params) =>
    inRow.map((field, i) => {
      const { sql, read } = linkedIdsInRow(field, ownerPk, params);
      const alias = `${LINKED_ALIAS}${i}`;
      readers.push({ field, alias, read });
      return `${sql} AS ${q(alias)}`;
    });
  const rows = await selectColumns(db, model, columns, selection, orderById, forUpdate, linked);
  const out: LockedObject[] = rows.map((row) => {
    const values = valuesOfRow(fields, row);
    for (const r of readers) values[r.field.name] = r.read(row[r.alias]);
    return { values, version: forUpdate ? Number(row[VERSION_COLUMN]) : 0 };
  });
  await loadLinkedValues(db, fields.filter((f) => !f.kind.linksInRow), out.map((o) => o.values));
  return out;
}

/** Aliases of the link aggregates in readObjects' SELECT (no column starts so). */
const LINKED_ALIAS = 'netinv_linked_';

/** The values of `fields` kept in columns, from a row read by column name (loadColumns). */
export function valuesOfRow(fields: readonly FieldMeta[], row: ObjectRow): Values {
  const values: Values = {};
  for (const f of fields) if (f.kind.load && f.column) values[f.name] = f.kind.load(f, row);
  return values;
}

/** Adds the values of `fields` kept in link tables (many-to-many) to objects read by column. */
export async function loadLinkedValues(db: Executor, fields: readonly FieldMeta[], objects: Values[]): Promise<void> {
  const linked = fields.filter((f) => f.kind.loadMany);
  if (linked.length === 0 || objects.length === 0) return;
  const ids = objects.map((o) => o.id as Id);
  for (const f of linked) {
    const map = await (f.kind.loadMany as NonNullable<FieldMeta['kind']['loadMany']>)(f, ids, kindStore(db));
    for (const o of objects) o[f.name] = map.get(o.id as Id) ?? [];
  }
}
