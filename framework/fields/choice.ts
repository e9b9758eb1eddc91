import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { FieldOptions, Json } from '../metadata/types';
import { applyColumn, baseInfo, pyRepr } from './common';
import { FilterValueError, type FieldKind } from './kind';

export type ChoiceKey = string | number;

/** An ordered set of choices: stored value → human label. */
export class ChoiceSet<V extends ChoiceKey = ChoiceKey> {
  private readonly labels: Map<V, string>;
  constructor(readonly entries: ReadonlyArray<readonly [V, string]>) {
    this.labels = new Map(entries);
  }
  get values(): V[] {
    return this.entries.map(([v]) => v);
  }
  label(value: V): string | undefined {
    return this.labels.get(value);
  }
  /** The choice whose value equals the input's text form ("4" matches 4, "true" matches true). */
  match(input: unknown): V | undefined {
    const text = String(input);
    return this.entries.find(([v]) => String(v) === text)?.[0];
  }
  get numeric(): boolean {
    return this.entries.every(([v]) => typeof v === 'number');
  }
}

/** `defineChoices({active: 'Active', …})` or `defineChoices([[4, 'IPv4'], [6, 'IPv6']])`. */
export function defineChoices<T extends Record<string, string>>(map: T): ChoiceSet<Extract<keyof T, string>>;
export function defineChoices<V extends ChoiceKey>(entries: ReadonlyArray<readonly [V, string]>): ChoiceSet<V>;
export function defineChoices(arg: Record<string, string> | ReadonlyArray<readonly [ChoiceKey, string]>): ChoiceSet {
  return new ChoiceSet(Array.isArray(arg) ? arg : Object.entries(arg));
}

export type ChoiceValue<C> = C extends ChoiceSet<infer V> ? V : never;

export interface ChoiceOptions extends FieldOptions {
  choices: ChoiceSet;
  maxLength?: number;
  /** Read and written as the bare value (DRF ChoiceField), not `{value, label}`. */
  plain?: boolean;
  /** The brief form shows `{value, label}` too (a job result's `status`), not the bare value. */
  briefAsObject?: boolean;
}

function opts(field: FieldMeta): ChoiceOptions {
  return field.opts<ChoiceOptions>();
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === '';
}

export const choiceKind: FieldKind = {
  name: 'choice',
  sameInJson: true,
  textual: true,
  decorate(proto, property, options: ChoiceOptions) {
    const column = options.column ?? property;
    if (options.choices.numeric) applyColumn(proto, property, { name: column, type: 'integer', nullable: options.nullable ?? false });
    else applyColumn(proto, property, { name: column, type: 'varchar', length: options.maxLength ?? 50, nullable: options.nullable ?? false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope, mode) {
    const i = scope.column(field.column as string);
    const { choices, plain } = opts(field);
    const numeric = choices.numeric;
    // A plain (DRF) choice field shows a blank value as ''; Nautobot's {value, label} ones as null.
    if (plain) return (row) => (row[i] === null || row[i] === undefined ? null : row[i] === '' ? '' : ((numeric ? Number(row[i]) : row[i]) as Json));
    if (mode.brief && !opts(field).briefAsObject) {
      return (row) => (isEmpty(row[i]) ? null : ((numeric ? Number(row[i]) : row[i]) as Json));
    }
    return (row) => {
      const raw = row[i];
      if (isEmpty(raw)) return null;
      const value = (numeric ? Number(raw) : raw) as ChoiceKey;
      return { value, label: choices.label(value) ?? String(value) };
    };
  },
  parse(field, input) {
    const { choices, plain } = opts(field);
    if (input !== null && typeof input === 'object') {
      throw new FieldError('Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.');
    }
    if (isEmpty(input)) {
      if (field.blank) return choices.numeric ? null : '';
      if (input === null) {
        if (field.nullable) return null;
        throw new FieldError('This field may not be null.');
      }
    }
    const match = choices.match(input);
    if (match === undefined) {
      // Nautobot's exact message first (clients match it), then the valid values to choose from.
      throw new FieldError([
        plain ? `"${String(input)}" is not a valid choice.` : `${String(input)} is not a valid choice.`,
        `Valid choices are: ${choices.values.join(', ')}.`,
      ]);
    }
    return match;
  },
  defaultValue: (field) => (field.blank ? (opts(field).choices.numeric ? null : '') : field.nullable ? null : undefined),
  load(field, row) {
    const raw = row[field.column as string];
    if (raw === null || raw === undefined) return null;
    return opts(field).choices.numeric ? Number(raw) : raw;
  },
  storeColumn: (_field, value) => value,
  lookups: () => ['', 'n'],
  filterValue(field, raw) {
    const match = opts(field).choices.match(raw);
    if (match === undefined) throw new FilterValueError(`Select a valid choice. ${raw} is not one of the available choices.`);
    return match;
  },
  filterChoices: (field) => opts(field).choices.values,
  comparison: 'identity',
  info(field) {
    const info = baseInfo(field, opts(field).plain ? 'choice' : 'field');
    if (!field.readOnly) {
      info.choices = opts(field).choices.entries.map(([value, display]) => ({ value, display }));
    }
    return info;
  },
  schema(field, mode) {
    const { choices, plain } = opts(field);
    const valueSchema = { type: choices.numeric ? 'integer' : 'string', enum: [...choices.values, ...(field.blank && !choices.numeric && !choices.values.includes('') ? [''] : [])] };
    if (plain || mode !== 'read') return { ...valueSchema, ...(field.nullable || field.blank ? { nullable: true } : {}) };
    return {
      type: 'object',
      properties: {
        value: valueSchema,
        label: { type: 'string', enum: choices.entries.map(([, l]) => l) },
      },
      ...(field.nullable || field.blank ? { nullable: true } : {}),
    };
  },
};

export { pyRepr };
