import { FieldError } from '../errors';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo, rejectNull } from './common';
import type { FieldKind } from './kind';

const TRUE = new Set(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1', 1, true]);
const FALSE = new Set(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0', 0, 0.0, false]);

/** DRF's BooleanField input rules. */
export function parseBoolean(input: unknown): boolean {
  if (TRUE.has(input as string)) return true;
  if (FALSE.has(input as string)) return false;
  throw new FieldError('Must be a valid boolean.');
}

/**
 * Boolean filter values as Django's NullBooleanSelect reads them (Nautobot's boolean filters):
 * `true`/`True` (legacy `2`) and `false`/`False` (legacy `3`). Any other value, `1` and `yes`
 * included, means "no filter": undefined, which callers drop without an error.
 */
export function booleanFilterValue(raw: string): boolean | undefined {
  if (raw === 'true' || raw === 'True' || raw === '2') return true;
  if (raw === 'false' || raw === 'False' || raw === '3') return false;
  return undefined;
}

/** Drivers return booleans as true/false, 1/0 or "1"/"0". */
export function toBoolean(raw: unknown): boolean | null {
  if (raw === null || raw === undefined) return null;
  return raw === true || raw === 1 || raw === '1' || raw === 't';
}

export const booleanKind: FieldKind = {
  name: 'boolean',
  sameInJson: true,
  filterType: 'boolean',
  // Django's NullBooleanSelect: a repeated parameter is decided by its last value.
  filterMultiple: 'last',
  decorate(proto, property, options: FieldOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: Boolean, nullable: options.nullable ?? false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => toBoolean(row[i]);
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    return parseBoolean(input);
  },
  load: (field, row) => toBoolean(row[field.column as string]),
  storeColumn: (_field, value) => value,
  lookups: () => [''],
  filterValue: (_f, raw) => booleanFilterValue(raw),
  comparison: 'identity',
  jsonValue: 'boolean',
  info: (field) => baseInfo(field, 'boolean'),
  schema: (field) => ({ type: 'boolean', ...(field.nullable ? { nullable: true } : {}) }),
};
