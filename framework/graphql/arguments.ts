import { GraphQLBoolean, GraphQLInt, GraphQLList, GraphQLString, type GraphQLFieldConfigArgumentMap, type GraphQLInputType } from 'graphql';
import { ValidationError } from '../errors';
import { featureFilters, prepareFeatures } from '../features/registry';
import { filterSetFor, type FilterDescription } from '../filterset/filterset';
import type { ModelMeta } from '../metadata/model-meta';
import type { Predicate } from '../query/predicate';
import type { PageWindow } from '../store/pages';
import { LATEST_VERSION } from '../versioning/version';
import { isGraphQLName } from './names';
import type { GraphReads } from './reads';

/** Filters renamed because graphene reserves their name; mapped back before filtering. */
const RENAMED: Readonly<Record<string, string>> = { type: '_type' };

/** Arguments of every list besides the filters. */
const WINDOW_ARGS = ['limit', 'offset'] as const;

/**
 * Nautobot's argument types for a REST filter: booleans `Boolean`, single numbers `Int`, other
 * single values `String`, repeatable values a list (a single literal is accepted for a list).
 */
function argumentType(filter: FilterDescription): GraphQLInputType {
  if (filter.type === 'boolean') return GraphQLBoolean;
  const scalar = filter.type === 'integer' ? GraphQLInt : GraphQLString;
  if (filter.multiple === 'last') return scalar;
  return new GraphQLList(scalar);
}

/** The argument name of a filter, or null when GraphQL cannot spell it (`cf_my-field`). */
function argumentName(filter: string): string | null {
  const name = RENAMED[filter] ?? filter;
  return isGraphQLName(name) ? name : null;
}

/** The filter arguments of a model's lists, from its REST filter set, plus `limit` and `offset`. */
export function filterArguments(model: ModelMeta): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const filter of filterSetFor(model).describe()) {
    const name = argumentName(filter.name);
    if (name && !(name in args)) args[name] = { type: argumentType(filter), description: filter.help || undefined };
  }
  for (const name of WINDOW_ARGS) args[name] = { type: GraphQLInt };
  return args;
}

const BACK = new Map(Object.entries(RENAMED).map(([filter, arg]) => [arg, filter]));

/** A filter error as Nautobot reports it: the Python form of the filter set's error mapping. */
export class FilterArgumentError extends Error {}

function pythonRepr(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (value && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/'/g, "\\'")}'`;
  return String(value);
}

/** The `limit`/`offset` window of a list: `0` or absent means none; negatives are refused. */
export function windowOf(args: Record<string, unknown>): PageWindow {
  const limit = (args.limit as number | null | undefined) ?? 0;
  const offset = (args.offset as number | null | undefined) ?? 0;
  if (limit < 0 || offset < 0) throw new FilterArgumentError('Negative indexing is not supported.');
  return { offset, limit: limit === 0 ? null : limit };
}

/** The predicate of a list's filter arguments, parsed by the model's REST filter set. */
export async function argumentPredicate(reads: GraphReads, model: ModelMeta, args: Record<string, unknown>): Promise<Predicate> {
  const query = new Map<string, string[]>();
  for (const [name, value] of Object.entries(args)) {
    if ((WINDOW_ARGS as readonly string[]).includes(name) || value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value : [value];
    query.set(BACK.get(name) ?? name, values.filter((v) => v !== null && v !== undefined).map((v) => String(v)));
  }
  await prepareFeatures(reads.ctx.registry, model, reads.db, reads.ctx.features, query.keys());
  const extra = featureFilters(reads.ctx.registry, model, reads.ctx.features, LATEST_VERSION);
  try {
    const parsed = await filterSetFor(model).parseQuery(query, { db: reads.db }, reads.ctx.config.strictFiltering, extra);
    return parsed.predicate;
  } catch (err) {
    if (err instanceof ValidationError) throw new FilterArgumentError(pythonRepr(err.detail));
    throw err;
  }
}
