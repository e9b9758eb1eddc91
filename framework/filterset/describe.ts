import type { FilterDef, FilterDescription, RelatedFilterInfo } from './definition';

/** Human wording of each lookup, for generated help texts. */
const LOOKUP_HELP: Record<string, string> = {
  exact: 'equals',
  iexact: 'equals, ignoring case',
  icontains: 'contains, ignoring case',
  istartswith: 'starts with, ignoring case',
  iendswith: 'ends with, ignoring case',
  regex: 'matches the regular expression',
  iregex: 'matches the regular expression, ignoring case',
  lt: 'is less than',
  lte: 'is less than or equal to',
  gt: 'is greater than',
  gte: 'is greater than or equal to',
};

/** `name: contains, ignoring case`, `site: is not (slug or id)`… */
function defaultHelp(target: string, lookup: string, negated: boolean, related?: RelatedFilterInfo): string {
  const verb = LOOKUP_HELP[lookup] ?? lookup;
  const what = related ? (related.by === 'id' ? ' (id)' : ` (${related.naturalKey ?? 'natural key'}${related.by === 'natural' ? ' or id' : ''})`) : '';
  return `${target}${what}: ${negated ? `not (${verb})` : verb}`;
}

/** A filter with its lookup, value type and a help text, as OPTIONS, OpenAPI and generated docs list it. */
export function describeFilter(def: FilterDef): FilterDescription {
  const lookup = def.lookup ?? 'exact';
  const negated = def.negated ?? false;
  return {
    name: def.name,
    target: def.target ?? null,
    lookup,
    negated,
    type: def.type,
    multiple: def.multiple,
    help: def.help ?? defaultHelp(def.target ?? def.name, lookup, negated, def.related),
    ...(def.choices ? { choices: def.choices } : {}),
    ...(def.related ? { related: def.related } : {}),
    ...(def.format ? { format: def.format } : {}),
  };
}
