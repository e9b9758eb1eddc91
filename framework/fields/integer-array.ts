import { FieldError, ValidationError } from '../errors';
import type { FieldOptions, Json } from '../metadata/types';
import { applyColumn, baseInfo, pyTypeName, rejectNull } from './common';
import { parseInteger } from './integer';
import { parseJsonColumn } from './json';
import { FilterValueError, type FieldInfo, type FieldKind } from './kind';

export interface IntegerArrayOptions extends FieldOptions {
  min?: number;
  max?: number;
}

function opts(options: FieldOptions): IntegerArrayOptions {
  return options as IntegerArrayOptions;
}

/** Stored JSON text as a list of numbers; anything else reads as an empty list. */
function readList(raw: unknown): number[] {
  const value = parseJsonColumn(raw);
  return Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];
}

/**
 * A list of integers (Nautobot's ArrayField of integers, such as service ports), stored as JSON
 * text so every database holds it the same way. `contains` tests membership of one integer.
 */
export const integerArrayKind: FieldKind = {
  name: 'integer-array',
  decorate(proto, property, options: FieldOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'text', nullable: options.nullable ?? false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => readList(row[i]);
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (!Array.isArray(input)) throw new FieldError(`Expected a list of items but got type "${pyTypeName(input)}".`);
    const o = opts(field.options);
    // DRF's ListField reports each bad item under its index.
    const errors: Record<string, string[]> = {};
    const list: number[] = [];
    input.forEach((item: unknown, index) => {
      try {
        const n = parseInteger(item);
        if (o.min !== undefined && n < o.min) throw new FieldError(`Ensure this value is greater than or equal to ${o.min}.`);
        if (o.max !== undefined && n > o.max) throw new FieldError(`Ensure this value is less than or equal to ${o.max}.`);
        list.push(n);
      } catch (err) {
        if (!(err instanceof FieldError)) throw err;
        errors[String(index)] = err.messages;
      }
    });
    if (Object.keys(errors).length) throw new ValidationError({ [field.name]: errors });
    // The model refuses an empty list (Django's blank=False), after the items are checked.
    if (list.length === 0 && !field.options.blank) throw new FieldError('This field cannot be blank.');
    return list;
  },
  load: (field, row) => readList(row[field.column as string]),
  storeColumn: (_field, value) => value === null || value === undefined ? null : JSON.stringify(value),
  lookups: () => [],
  filterValue(_field, raw) {
    const t = raw.trim();
    if (!/^[-+]?\d+$/.test(t) || !Number.isSafeInteger(Number(t))) throw new FilterValueError('Enter a whole number.');
    return Number(t);
  },
  comparison: 'integer-list',
  info(field) {
    const o = opts(field.options);
    const child: FieldInfo = { type: 'integer', required: true, read_only: false, label: '' };
    if (o.min !== undefined) child.min_value = o.min;
    if (o.max !== undefined) child.max_value = o.max;
    return { ...baseInfo(field, 'list'), child };
  },
  schema(field) {
    const o = opts(field.options);
    const items: Record<string, Json> = { type: 'integer' };
    if (o.min !== undefined) items.minimum = o.min;
    if (o.max !== undefined) items.maximum = o.max;
    return { type: 'array', items, ...(field.options.blank ? {} : { minItems: 1 }) };
  },
};
