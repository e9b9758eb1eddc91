import type { FieldMeta } from '../metadata/model-meta';

/**
 * How the value under a key of a JSON column is compared: as text (strings, dates, select
 * values), as a number, as a boolean, or as an array of strings that must hold the value.
 */
export type JsonValueType = 'text' | 'number' | 'boolean' | 'array';

/** A test on one key of a JSON object column (custom field data). */
export interface JsonKeyTest {
  kind: 'json-key';
  field: FieldMeta;
  key: string;
  as: JsonValueType;
  /** ORM lookup: exact, iexact, icontains, istartswith, iendswith, regex, iregex, lt, lte, gt, gte, isnull. */
  lookup: string;
  values: unknown[];
}

export function jsonKeyTest(field: FieldMeta, key: string, as: JsonValueType, lookup: string, values: unknown[]): JsonKeyTest {
  return { kind: 'json-key', field, key, as, lookup, values };
}
