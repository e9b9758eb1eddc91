import type { JsonKeyTest } from '../query/json-key';
import { compareScalar, compareText, orJoin } from './comparisons/values';
import type { Params } from './params';

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
