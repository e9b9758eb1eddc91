import type { Executor } from '../store/executor';
import { Store } from '../store/store';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import { formatAddress, type IPNetwork } from '../network/ip';
import type { Id } from './select';

import type { Values } from './write-context';

/** Kinds with no column of their own (counts, computed and derived values). */
const DERIVED_KINDS = new Set(['related-count', 'computed', 'first-of', 'related-via', 'generic-object', 'reverse-list', 'ip-family']);

/**
 * The stored columns a network field stands for, as Nautobot names them: `network` (or `host`),
 * `broadcast` and `prefix_length`.
 */
function networkColumns(field: FieldMeta, value: IPNetwork | null): JsonObject {
  const role = (field.options as { role?: string }).role === 'host' ? 'host' : 'network';
  if (!value) return { [role]: null, broadcast: null, prefix_length: null };
  return {
    [role]: formatAddress(value.family, role === 'host' ? value.host : value.first),
    broadcast: formatAddress(value.family, value.last),
    prefix_length: value.length,
  };
}

function plain(value: unknown): Json {
  if (value === undefined) return null;
  // Datetimes with millisecond precision and `Z`.
  if (value instanceof Date) return value.toISOString();
  return value as Json;
}

/**
 * Objects in Nautobot's database form (a change record's `object_data`): every stored field by
 * name, foreign keys as ids, many-to-many fields as id lists, network fields as their stored
 * columns; private columns and the primary key left out. `tags` and `custom_fields` come from
 * `readable` (tag names, custom fields keyed by name), which the caller already rendered.
 */
export async function databaseForms(
  db: Executor,
  model: ModelMeta,
  ids: Id[],
  readable: (id: Id) => { tags?: string[]; custom_fields?: JsonObject } | undefined,
): Promise<Map<Id, JsonObject>> {
  const out = new Map<Id, JsonObject>();
  if (ids.length === 0) return out;
  const rows = await new Store(db).find(model, ids);
  for (const row of rows) out.set(row.id as Id, databaseForm(model, row, readable(row.id as Id)));
  return out;
}

function databaseForm(model: ModelMeta, values: Values, readable: { tags?: string[]; custom_fields?: JsonObject } | undefined): JsonObject {
  const out: JsonObject = {};
  for (const field of model.fields) {
    if (field === model.pk || field.hidden || field.name.startsWith('_') || DERIVED_KINDS.has(field.kind.name)) continue;
    if (field.kind.name === 'custom-fields') {
      out.custom_fields = readable?.custom_fields ?? {};
      continue;
    }
    if ((field.options as { feature?: string }).feature === 'tags') {
      out.tags = readable?.tags ?? [];
      continue;
    }
    if (field.kind.name === 'network') {
      Object.assign(out, networkColumns(field, (values[field.name] as IPNetwork | null | undefined) ?? null));
      continue;
    }
    if (!field.column && !field.extra.link) continue;
    if (field.writeOnly && field.kind.name === 'password') continue;
    out[field.name] = plain(values[field.name]);
  }
  return out;
}
