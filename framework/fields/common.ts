import { Column } from 'typeorm';
import type { ColumnOptions } from 'typeorm';
import { CommonRegex } from '../query/regex';
import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { Emitter, ReadScope } from './kind';
import type { FieldInfo } from './kind';

export const STRING_LOOKUPS = ['', 'n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 're', 'nre', 'ire', 'nire'] as const;
export const NUMERIC_LOOKUPS = ['', 'n', 'lt', 'lte', 'gt', 'gte'] as const;
export const EXACT_LOOKUPS = ['', 'n'] as const;

/** Applies a TypeORM column with the field's physical name and nullability. */
export function applyColumn(proto: object, property: string, options: ColumnOptions): void {
  Column(options)(proto, property);
}

/** Reads a text column as is (null stays null). */
export function textReader(field: FieldMeta, scope: ReadScope): Emitter {
  const i = scope.column(field.column as string);
  return (row) => (row[i] ?? null) as string | null;
}

export function isBlankInput(value: unknown): boolean {
  return value === undefined;
}

/** DRF's null handling, shared by every scalar kind. */
export function rejectNull(field: FieldMeta, value: unknown): boolean {
  if (value !== null) return false;
  if (field.nullable) return true;
  throw new FieldError('This field may not be null.');
}

export function baseInfo(field: FieldMeta, type: string): FieldInfo {
  const info: FieldInfo = { type, required: field.required, read_only: field.readOnly, label: field.label };
  if (field.options.help) info.help_text = field.options.help;
  return info;
}

/** True for lookups whose value is a regular expression. */
export function isRegexLookup(lookup: string): boolean {
  return lookup === 'regex' || lookup === 'iregex';
}

/**
 * Text filter values: any string. Regular expressions are parsed into the common subset every
 * database evaluates alike (framework/query/regex.ts); anything else is a 400 before SQL.
 */
export function textFilterValue(raw: string, lookup: string): string | CommonRegex {
  if (isRegexLookup(lookup)) return CommonRegex.parse(raw);
  return raw;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Python's repr of a value, as Nautobot's messages quote user input. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const escaped = value.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
    return `${quote}${escaped}${quote}`;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  return String(value);
}

/** Python's `type(x).__name__` for messages such as `Expected a list of items but got type "dict".` */
export function pyTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'object':
      return 'dict';
    default:
      return typeof value;
  }
}
