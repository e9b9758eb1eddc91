import type { Executor, ObjectRow } from '../store/executor';
import { loadLinkedValues, valuesOfRow } from '../store/objects';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import type { Id } from '../query/id';

import type { Values } from './write-context';

function plain(value: unknown): Json {
  if (value === undefined) return null;
  // Datetimes with millisecond precision and `Z`.
  if (value instanceof Date) return value.toISOString();
  return value as Json;
}

/**
 * Objects in Nautobot's database form (a change record's `object_data`): every stored field by
 * name, foreign keys as ids, many-to-many fields as id lists, network fields as their stored
 * columns; private and write-only columns and the primary key left out. Made of the objects'
 * stored columns (`rows`, by column name, as renderSnapshots read them) and their link tables.
 * `tags` and `custom_fields` come from `readable` (tag names, custom fields keyed by name),
 * which the caller already rendered.
 */
export async function databaseForms(
  db: Executor,
  model: ModelMeta,
  rows: ReadonlyMap<Id, ObjectRow>,
  readable: (id: Id) => { tags?: string[]; custom_fields?: JsonObject } | undefined,
): Promise<Map<Id, JsonObject>> {
  const out = new Map<Id, JsonObject>();
  // Tags come from the rendered form: their links are not read again.
  const fields = model.fields.filter((f) => !isTagsField(f));
  const objects = [...rows.values()].map((row) => valuesOfRow(fields, row));
  await loadLinkedValues(db, fields, objects);
  for (const values of objects) out.set(values.id as Id, databaseForm(model, values, readable(values.id as Id)));
  return out;
}

function isTagsField(field: FieldMeta): boolean {
  return (field.options as { feature?: string }).feature === 'tags';
}

function databaseForm(model: ModelMeta, values: Values, readable: { tags?: string[]; custom_fields?: JsonObject } | undefined): JsonObject {
  const out: JsonObject = {};
  for (const field of model.fields) {
    if (field === model.pk || field.hidden || field.writeOnly || field.name.startsWith('_') || field.kind.databaseForm === 'omitted') continue;
    if (field.kind.databaseForm === 'rendered') {
      out.custom_fields = readable?.custom_fields ?? {};
      continue;
    }
    if (isTagsField(field)) {
      out.tags = readable?.tags ?? [];
      continue;
    }
    if (field.kind.databaseColumns) {
      Object.assign(out, field.kind.databaseColumns(field, values[field.name]));
      continue;
    }
    if (!field.column && !field.resolved.link) continue;
    out[field.name] = plain(values[field.name]);
  }
  return out;
}
