import { FilterValueError } from '../../errors';
import { CommonRegex } from '../../query/regex';
import { escapeLike, type Dialect } from '../dialect/types';
import type { Params } from '../params';

/** Alternatives as one condition: false when there are none. */
export function orJoin(parts: string[]): string {
  if (parts.length === 0) return '1=0';
  return parts.length === 1 ? parts[0] : `(${parts.join(' OR ')})`;
}

/** Conditions that must all hold, as one condition. */
export function andJoin(parts: string[]): string {
  return parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`;
}

/** `expr IN (...)`, with NULL handled as IS NULL. */
export function inList(expr: string, values: unknown[], params: Params): string {
  const nonNull = values.filter((v) => v !== null);
  const parts: string[] = [];
  if (nonNull.length === 1) parts.push(`${expr} = ${params.add(nonNull[0])}`);
  else if (nonNull.length > 1) parts.push(params.in(expr, nonNull));
  if (nonNull.length !== values.length) parts.push(`${expr} IS NULL`);
  return orJoin(parts);
}

/** `isnull`, or equality with any of the values: the lookups of plain identifier columns. */
export function compareIdentity(expr: string, lookup: string, values: unknown[], params: Params): string {
  if (lookup === 'isnull') return values[0] ? `${expr} IS NULL` : `${expr} IS NOT NULL`;
  return inList(expr, values, params);
}

const ORDER_OPS: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** Lookups of ordered scalar kinds: exact, in, lt, lte, gt, gte, isnull. */
export function compareScalar(expr: string, lookup: string, values: unknown[], params: Params, range?: readonly [number, number]): string {
  const outside = (v: unknown) => range !== undefined && typeof v === 'number' && (v < range[0] || v > range[1]);
  // No stored value equals a number beyond the column's range.
  if (lookup === 'exact' || lookup === 'in') return inList(expr, values.filter((v) => !outside(v)), params);
  if (lookup === 'isnull') return values[0] ? `${expr} IS NULL` : `${expr} IS NOT NULL`;
  const op = ORDER_OPS[lookup];
  if (op) {
    return orJoin(values.map((v) => {
      if (!outside(v)) return `${expr} ${op} ${params.add(v)}`;
      // Beyond the range every stored value is on one side of it.
      const above = (v as number) > (range as readonly [number, number])[1];
      const holds = op.startsWith('<') ? above : !above;
      return holds ? `${expr} IS NOT NULL` : '1=0';
    }));
  }
  throw new FilterValueError(`Unsupported lookup ${lookup}`);
}

/** Lookups of textual kinds; the i-forms fold case with the database's Unicode lower(). */
export function compareText(dialect: Dialect, expr: string, lookup: string, values: unknown[], params: Params): string {
  const lower = dialect.lower;
  const like = (pattern: (v: string) => string, ci: boolean) =>
    orJoin(values.map((v) => {
      const p = params.add(pattern(escapeLike(String(v))));
      return ci ? dialect.like(lower(expr), lower(p)) : dialect.like(expr, p);
    }));
  switch (lookup) {
    case 'exact':
    case 'in':
      return inList(expr, values, params);
    case 'iexact':
      return orJoin(values.map((v) => (v === null ? `${expr} IS NULL` : `${lower(expr)} = ${lower(params.add(v))}`)));
    case 'contains':
      return like((v) => `%${v}%`, false);
    case 'icontains':
      return like((v) => `%${v}%`, true);
    case 'startswith':
      return like((v) => `${v}%`, false);
    case 'istartswith':
      return like((v) => `${v}%`, true);
    case 'endswith':
      return like((v) => `%${v}`, false);
    case 'iendswith':
      return like((v) => `%${v}`, true);
    case 'regex':
    case 'iregex': {
      const ci = lookup === 'iregex';
      return orJoin(values.map((v) => {
        const pattern = (v instanceof CommonRegex ? v : CommonRegex.parse(String(v))).render(dialect.regexSyntax, ci);
        return dialect.regex(expr, params.add(dialect.regexValue(pattern, ci)), ci);
      }));
    }
    default:
      return compareScalar(expr, lookup, values, params);
  }
}

/** PostgreSQL's uuid type has no LIKE: pattern lookups run on the text form; equality keeps the column and its index. */
export function compareUuid(expr: string, lookup: string, values: unknown[], params: Params): string {
  if (lookup === 'exact' || lookup === 'in' || lookup === 'isnull') return compareText(params.dialect, expr, lookup, values, params);
  return compareText(params.dialect, params.dialect.text(expr), lookup, values, params);
}
