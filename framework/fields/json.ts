import { FieldError } from '../errors';
import type { FieldOptions, Json } from '../metadata/types';
import { applyColumn, baseInfo, rejectNull } from './common';
import type { FieldKind } from './kind';

export interface JsonOptions extends FieldOptions {
  /** Only a JSON object (or null) is accepted, as Nautobot's local config context data. */
  object?: boolean;
  /** Message for a value that is not an object. */
  objectMessage?: string;
}

/** Drivers return JSON text; an empty or invalid text reads as null. */
export function parseJsonColumn(raw: unknown): Json {
  if (raw === null || raw === undefined || raw === '') return null;
  if (typeof raw !== 'string') return raw as Json;
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return null;
  }
}

export const jsonKind: FieldKind = {
  name: 'json',
  decorate(proto, property, options: FieldOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'text', nullable: true });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => parseJsonColumn(row[i]);
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    const o = field.opts<JsonOptions>();
    if (o.object && (typeof input !== 'object' || input === null || Array.isArray(input))) {
      throw new FieldError(o.objectMessage ?? 'JSON data must be in object form. Example: {"foo": 123}');
    }
    return input;
  },
  load: (field, row) => parseJsonColumn(row[field.column as string]),
  storeColumn: (_field, value) => value === null || value === undefined ? null : JSON.stringify(value),
  // No generated filters; named filters may test for null or search the stored text.
  comparison: 'text',
  info: (field) => baseInfo(field, 'field'),
  schema: (field) => ({ ...(field.nullable ? { nullable: true } : {}) }),
};
