import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo, NUMERIC_LOOKUPS, rejectNull } from './common';
import { FilterValueError, type FieldKind } from './kind';

export interface DecimalOptions extends FieldOptions {
  /** Total digits. */
  digits: number;
  /** Digits after the point. */
  places: number;
}

function opts(field: FieldMeta): DecimalOptions {
  return field.opts<DecimalOptions>();
}

/** Decimals are read as strings with the field's places (`"52.370216"`), as DRF renders them. */
function format(field: FieldMeta, raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  return Number(raw).toFixed(opts(field).places);
}

export const decimalKind: FieldKind = {
  name: 'decimal',
  filterType: 'number',
  decorate(proto, property, options: DecimalOptions) {
    applyColumn(proto, property, {
      name: options.column ?? property,
      type: 'decimal',
      precision: options.digits,
      scale: options.places,
      nullable: options.nullable ?? false,
    });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => format(field, row[i]);
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (input === '' && field.nullable) return null;
    const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : null;
    if (text === null || !/^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i.test(text)) throw new FieldError('A valid number is required.');
    const n = Number(text);
    const { digits, places } = opts(field);
    const plain = /e/i.test(text) ? Math.abs(n).toFixed(20).replace(/\.?0+$/, '') : text.replace(/^[-+]/, '').replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
    const [intPart, fracPart = ''] = plain.replace(/^0+(?=\d)/, '').split('.');
    const wholeDigits = intPart === '0' ? 0 : intPart.length;
    if (fracPart.length > places) throw new FieldError(`Ensure that there are no more than ${places} decimal places.`);
    if (wholeDigits > digits - places) throw new FieldError(`Ensure that there are no more than ${digits - places} digits before the decimal point.`);
    return n;
  },
  load(field, row) {
    const v = row[field.column as string];
    return v === null || v === undefined ? null : Number(v);
  },
  // Django's JSON serializer writes a Decimal as its text, so a change record holds the same string the API shows.
  databaseColumns: (field, value) => ({ [field.name]: format(field, value) }),
  storeColumn: (field, value) => value === null ? null : Number(value).toFixed(opts(field).places),
  lookups: () => NUMERIC_LOOKUPS,
  filterValue(_f, raw) {
    const t = raw.trim();
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(t)) throw new FilterValueError('Enter a number.');
    return Number(t);
  },
  columnRange(field) {
    const { digits, places } = opts(field);
    const max = 10 ** (digits - places) - 10 ** -places;
    return [-max, max];
  },
  comparison: 'scalar',
  info: (field) => baseInfo(field, 'decimal'),
  schema: (field) => ({ type: 'string', format: 'decimal', pattern: `^-?\\d{0,${opts(field).digits - opts(field).places}}(?:\\.\\d{0,${opts(field).places}})?$`, ...(field.nullable ? { nullable: true } : {}) }),
};
