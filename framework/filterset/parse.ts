import { ValidationError } from '../errors';
import { isRegexLookup } from '../fields/common';
import { FilterValueError } from '../fields/kind';
import { and, type Predicate } from '../query/predicate';
import type { FilterContext, FilterDef, ParsedFilters } from './definition';

/** What parsing needs of a model's filter set: its filters and the parameters that are not filters. */
export interface ParsableFilters {
  readonly filters: ReadonlyMap<string, FilterDef>;
  reserved(name: string): boolean;
}

/**
 * Turns query parameters into one predicate. Unknown parameters are errors when `strict`; value
 * errors always are; both are reported together, one key per parameter.
 */
export async function parseFilters(
  set: ParsableFilters,
  query: Map<string, string[]>,
  fc: FilterContext,
  strict: boolean,
  extra?: (name: string) => FilterDef | undefined,
): Promise<ParsedFilters> {
  // A Map, not an object: a parameter named `__proto__` must be reported like any other.
  const errors = new Map<string, string[]>();
  const parts: Predicate[] = [];
  const regexParams: string[] = [];
  for (const [name, rawValues] of query) {
    if (set.reserved(name)) continue;
    const def = set.filters.get(name) ?? extra?.(name);
    if (!def) {
      if (strict) errors.set(name, ['Unknown filter field']);
      continue;
    }
    const values = rawValues.filter((v) => v !== '');
    if (values.length === 0) continue;
    // Django's forms refuse NUL; SQLite would otherwise cut a pattern short at it and match everything.
    if (values.some((v) => v.includes('\u0000'))) {
      errors.set(name, ['Null characters are not allowed.']);
      continue;
    }
    const used = def.multiple === 'last' ? [values[values.length - 1]] : values;
    if (def.lookup && isRegexLookup(def.lookup)) regexParams.push(name);
    try {
      parts.push(await def.build(used, fc));
    } catch (err) {
      if (err instanceof FilterValueError) errors.set(name, [err.message]);
      else if (err instanceof ValidationError) for (const [key, messages] of Object.entries(err.detail)) errors.set(key, messages as string[]);
      else throw err;
    }
  }
  if (errors.size) throw new ValidationError(Object.fromEntries(errors));
  return { predicate: and(parts), regexParams };
}

/** A filter dictionary (`{"status": ["active"], "site": "ams01"}`) as query parameters. */
export function filterQuery(dict: Record<string, unknown>): Map<string, string[]> {
  const text = (v: unknown) => (typeof v === 'string' ? v : v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const query = new Map<string, string[]>();
  for (const [name, value] of Object.entries(dict)) query.set(name, Array.isArray(value) ? value.map(text) : [text(value)]);
  return query;
}
