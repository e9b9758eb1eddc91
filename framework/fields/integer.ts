import { Max, Min } from 'class-validator';
import { FieldError } from '../errors';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo, NUMERIC_LOOKUPS, rejectNull } from './common';
import { FilterValueError, type FieldInfo, type FieldKind } from './kind';

export interface IntegerOptions extends FieldOptions {
  min?: number;
  max?: number;
  /** 64-bit column (ASNs up to 4294967295). */
  big?: boolean;
}

/** DRF's IntegerField: integers, integral floats and digit strings ("12", "12.0") are accepted. */
export function parseInteger(input: unknown): number {
  if (typeof input === 'number' && Number.isInteger(input)) return input;
  if (typeof input === 'number' && Number.isFinite(input) && Math.trunc(input) === input) return input;
  if (typeof input === 'string' && input.length <= 1000) {
    const m = /^\s*([-+]?\d+)(?:\.0*)?\s*$/.exec(input);
    if (m) {
      const n = Number(m[1]);
      if (Number.isSafeInteger(n)) return n;
    }
  }
  throw new FieldError('A valid integer is required.');
}

export function integerFilterValue(raw: string): number {
  const t = raw.trim();
  if (!/^[-+]?\d+$/.test(t) || !Number.isSafeInteger(Number(t))) throw new FilterValueError('Enter a whole number.');
  return Number(t);
}

export const integerKind: FieldKind = {
  name: 'integer',
  sameInJson: true,
  filterType: 'integer',
  decorate(proto, property, options: IntegerOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: options.big ? 'bigint' : 'integer', nullable: options.nullable ?? false });
    if (options.min !== undefined) Min(options.min, { message: `Ensure this value is greater than or equal to ${options.min}.` })(proto, property);
    if (options.max !== undefined) Max(options.max, { message: `Ensure this value is less than or equal to ${options.max}.` })(proto, property);
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => {
      const v = row[i];
      return v === null || v === undefined ? null : Number(v);
    };
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (input === '' && field.nullable) return null;
    return parseInteger(input);
  },
  load(field, row) {
    const v = row[field.column as string];
    return v === null || v === undefined ? null : Number(v);
  },
  storeColumn: (_field, value) => value,
  lookups: () => NUMERIC_LOOKUPS,
  filterValue: (_f, raw) => integerFilterValue(raw),
  columnRange: (field) => (field.opts<IntegerOptions>().big ? [-(2 ** 63), 2 ** 63 - 1] : [-(2 ** 31), 2 ** 31 - 1]),
  comparison: 'scalar',
  jsonValue: 'number',
  info(field) {
    const o = field.opts<IntegerOptions>();
    const info: FieldInfo = baseInfo(field, 'integer');
    if (o.min !== undefined) info.min_value = o.min;
    if (o.max !== undefined) info.max_value = o.max;
    return info;
  },
  schema(field) {
    const o = field.opts<IntegerOptions>();
    const s: Record<string, unknown> = { type: 'integer' };
    if (o.big) s.format = 'int64';
    if (o.min !== undefined) s.minimum = o.min;
    if (o.max !== undefined) s.maximum = o.max;
    if (field.nullable) s.nullable = true;
    return s;
  },
};
