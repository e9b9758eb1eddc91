import { FieldError } from '../errors';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo, rejectNull, STRING_LOOKUPS, textFilterValue } from './common';
import type { FieldInfo, FieldKind } from './kind';

/** Longest text accepted, as Nautobot's MACAddressCharField (max_length 18). */
const MAX_LENGTH = 18;

const HEX = '[0-9a-f]';
/** The notations netaddr's EUI-48 parser accepts: word sizes and separators, each as one pattern. */
const NOTATIONS: Array<{ pattern: RegExp; width: number }> = [
  { pattern: new RegExp(`^${Array(6).fill(`(${HEX}{1,2})`).join(':')}$`, 'i'), width: 2 },
  { pattern: new RegExp(`^${Array(6).fill(`(${HEX}{1,2})`).join('-')}$`, 'i'), width: 2 },
  { pattern: new RegExp(`^${Array(3).fill(`(${HEX}{1,4})`).join(':')}$`, 'i'), width: 4 },
  { pattern: new RegExp(`^${Array(3).fill(`(${HEX}{1,4})`).join('-')}$`, 'i'), width: 4 },
  { pattern: new RegExp(`^${Array(3).fill(`(${HEX}{1,4})`).join('\\.')}$`, 'i'), width: 4 },
  { pattern: new RegExp(`^${Array(2).fill(`(${HEX}{5,6})`).join('-')}$`, 'i'), width: 6 },
  { pattern: new RegExp(`^${Array(2).fill(`(${HEX}{5,6})`).join(':')}$`, 'i'), width: 6 },
  { pattern: new RegExp(`^(${HEX}{11,12})$`, 'i'), width: 12 },
];

/**
 * A MAC address in any common notation (`aa:bb:cc:dd:ee:ff`, `aa-bb-…`, `aabb.ccdd.eeff`,
 * `aabbccddeeff`…) as upper-case colon-separated pairs, or null when it is not one.
 */
export function normaliseMac(text: string): string | null {
  const value = text.trim();
  for (const { pattern, width } of NOTATIONS) {
    const m = pattern.exec(value);
    if (!m) continue;
    const hex = m.slice(1).map((w) => w.padStart(width, '0')).join('').toUpperCase();
    return hex.match(/../g)?.join(':') ?? null;
  }
  return null;
}

/**
 * A MAC address column: stored and read in the canonical `AA:BB:CC:DD:EE:FF` form, written in
 * any notation; blank means none. Filters compare the stored text; exact matches normalise the
 * value first, so `mac_address=aa-bb-cc-dd-ee-ff` finds `AA:BB:CC:DD:EE:FF`.
 */
export const macAddressKind: FieldKind = {
  name: 'mac-address',
  textual: true,
  decorate(proto, property, options: FieldOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'varchar', length: MAX_LENGTH, nullable: options.nullable ?? true });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => (row[i] ?? null) as string | null;
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (typeof input === 'number') input = String(input);
    if (typeof input !== 'string') throw new FieldError('Not a valid string.');
    const value = input.trim();
    if (value === '') {
      if (field.nullable) return null;
      throw new FieldError('This field may not be blank.');
    }
    if (value.length > MAX_LENGTH) throw new FieldError(`Ensure this field has no more than ${MAX_LENGTH} characters.`);
    const mac = normaliseMac(value);
    if (mac === null) throw new FieldError(`Invalid MAC address format: ${value}`);
    return mac;
  },
  defaultValue: (field) => (field.nullable ? null : undefined),
  load: (field, row) => (row[field.column as string] ?? null) as string | null,
  storeColumn: (_field, value) => value,
  lookups: () => STRING_LOOKUPS,
  filterValue(_field, raw, lookup) {
    // An exact value that is no MAC address cannot equal a stored one: it is kept and matches nothing.
    if (lookup === 'exact') return normaliseMac(raw) ?? raw;
    return textFilterValue(raw, lookup);
  },
  comparison: 'text',
  info(field) {
    const info: FieldInfo = baseInfo(field, 'string');
    info.max_length = MAX_LENGTH;
    return info;
  },
  schema: (field) => ({ type: 'string', maxLength: MAX_LENGTH, ...(field.nullable ? { nullable: true } : {}) }),
};
