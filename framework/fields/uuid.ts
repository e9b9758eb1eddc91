import { PrimaryColumn } from 'typeorm';
import { FieldError } from '../errors';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo, rejectNull, STRING_LOOKUPS, textReader } from './common';
import { FilterValueError, type FieldKind } from './kind';

export interface UuidOptions extends FieldOptions {
  primary?: boolean;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Canonical lower-case hyphenated form, or null when the text is not a UUID. */
export function canonicalUuid(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const t = text.trim().replace(/^\{|\}$/g, '');
  if (!UUID.test(t)) return null;
  const h = t.replace(/-/g, '').toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const uuidKind: FieldKind = {
  name: 'uuid',
  sameInJson: true,
  filterType: 'uuid',
  decorate(proto, property, options: UuidOptions) {
    if (options.primary) PrimaryColumn({ name: options.column ?? property, type: 'uuid' })(proto, property);
    else applyColumn(proto, property, { name: options.column ?? property, type: 'uuid', nullable: options.nullable ?? false });
  },
  column: (field) => field.options.column ?? field.name,
  reader: textReader,
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    const v = canonicalUuid(input);
    if (!v) throw new FieldError('Must be a valid UUID.');
    return v;
  },
  load: (field, row) => (row[field.column as string] ?? null) as string | null,
  storeColumn: (_field, value) => value,
  // Nautobot's id filter is string-based, but every value must be a complete UUID.
  lookups: () => STRING_LOOKUPS,
  filterValue(_f, raw) {
    const v = canonicalUuid(raw);
    if (!v) throw new FilterValueError('Enter a valid UUID.');
    return v;
  },
  comparison: 'uuid',
  info: (field) => baseInfo(field, 'string'),
  schema: (field) => ({ type: 'string', format: 'uuid', ...(field.nullable ? { nullable: true } : {}) }),
};
