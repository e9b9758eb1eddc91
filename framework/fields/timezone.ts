import { FieldError } from '../errors';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo } from './common';
import { FilterValueError, type FieldKind } from './kind';

const ZONES = new Set<string>([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/** An IANA time zone name (aliases such as `Europe/Kiev` included), or none. */
export function validTimeZone(name: string): boolean {
  if (ZONES.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(name);
  } catch {
    return false;
  }
}

/** Stored as the zone name (`''` when unset), read as the name or null. */
export const timeZoneKind: FieldKind = {
  name: 'timezone',
  textual: true,
  decorate(proto, property, options: FieldOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'varchar', length: 63, nullable: false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => (row[i] ? String(row[i]) : null);
  },
  parse(_field, input) {
    if (input === null || input === '') return '';
    if (typeof input !== 'string' || !validTimeZone(input.trim())) throw new FieldError('A valid timezone is required.');
    return input.trim();
  },
  defaultValue: () => '',
  load: (field, row) => (row[field.column as string] as string) ?? '',
  storeColumn: (_field, value) => value ?? '',
  lookups: () => ['', 'n'],
  filterValue(_field, raw) {
    if (!validTimeZone(raw)) throw new FilterValueError(`Select a valid choice. ${raw} is not one of the available choices.`);
    return raw;
  },
  comparison: 'equality',
  info: (field) => baseInfo(field, 'field'),
  schema: () => ({ type: 'string', nullable: true, description: 'IANA time zone name' }),
};
