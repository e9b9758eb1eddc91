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
  const errors: Record<string, string[]> = {};
  const parts: Predicate[] = [];
  const regexParams: string[] = [];
  for (const [name, rawValues] of query) {
    if (set.reserved(name)) continue;
    const def = set.filters.get(name) ?? extra?.(name);
    if (!def) {
      if (strict) errors[name] = ['Unknown filter field'];
      continue;
    }
    const values = rawValues.filter((v) => v !== '');
    if (values.length === 0) continue;
    const used = def.multiple === 'last' ? [values[values.length - 1]] : values;
    if (def.lookup && isRegexLookup(def.lookup)) regexParams.push(name);
    try {
      parts.push(await def.build(used, fc));
    } catch (err) {
      if (err instanceof FilterValueError) errors[name] = [err.message];
      else if (err instanceof ValidationError) Object.assign(errors, err.detail);
      else throw err;
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { predicate: and(parts), regexParams };
}

/** A filter dictionary (`{"status": ["active"], "site": "ams01"}`) as query parameters. */
export function filterQuery(dict: Record<string, unknown>): Map<string, string[]> {
  const text = (v: unknown) => (typeof v === 'string' ? v : v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const query = new Map<string, string[]>();
  for (const [name, value] of Object.entries(dict)) query.set(name, Array.isArray(value) ? value.map(text) : [text(value)]);
  return query;
}
