import type { Params } from '../store/params';
import { compareScalar, compareText } from '../fields/common';
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

function orJoin(parts: string[]): string {
  if (parts.length === 0) return '1=0';
  return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
}

/**
 * SQL for a JSON key test on `column` (a qualified column reference). The extraction expression
 * binds its key, so it is built afresh for every use: positional placeholders must appear once
 * each, in binding order.
 */
export function compileJsonKey(p: JsonKeyTest, column: string, params: Params): string {
  const d = params.dialect;
  const bind = (v: unknown) => params.add(v);
  const text = () => d.jsonText(column, p.key, bind);
  if (p.lookup === 'isnull') {
    const absent = `${text()} IS NULL`;
    return p.values[0] ? absent : `NOT (${absent})`;
  }
  switch (p.as) {
    case 'array':
      return orJoin(p.values.map((v) => (v === null ? `${text()} IS NULL` : d.jsonArrayHas(column, p.key, String(v), bind))));
    case 'boolean':
      return orJoin(p.values.map((v) => (v === null ? `${text()} IS NULL` : `${text()} = ${params.add(v ? 'true' : 'false')}`)));
    case 'number':
      return orJoin(
        p.values.map((v) =>
          v === null ? `${text()} IS NULL` : compareScalar(d.jsonNumber(column, p.key, bind), p.lookup === 'iexact' ? 'exact' : p.lookup, [v], params),
        ),
      );
    default:
      return orJoin(p.values.map((v) => compareText(d, text(), p.lookup, [v], params)));
  }
}
