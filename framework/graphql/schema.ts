import { GraphQLID, GraphQLList, GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigMap } from 'graphql';
import { graphqlFeaturesFor, type FeatureGraphQLField } from '../features/registry';
import { parseId } from '../fields/foreign-key';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { RequestData } from '../metadata/request-data';
import { and, fieldTest } from '../query/predicate';
import type { Executor } from '../store/executor';
import { argumentPredicate, FilterArgumentError, filterArguments, windowOf } from './arguments';
import { isGraphQLName, rootFieldName } from './names';
import { ObjectTypes } from './object-types';
import type { GraphReads } from './reads';

type Args = Record<string, unknown>;

/** Models in the schema: those with an endpoint that do not opt out (accounts, definitions). */
export function graphqlModels(registry: Registry): ModelMeta[] {
  return registry.routed.filter((m) => m.options.graphql !== false);
}

/**
 * The plural root field, from the verbose plural as Nautobot names it. Where a model leaves its
 * plural to the default (`prefix` + `s`), an endpoint path that spells a plural of the singular
 * (`prefixes`, `ip-addresses`) is the better English; a name another application took first
 * falls back to the other spelling.
 */
function pluralName(model: ModelMeta, taken: ReadonlyMap<string, ModelMeta>): string | null {
  const verbose = rootFieldName(model.verboseNamePlural);
  const fromPath = rootFieldName(model.path ?? '');
  const pathIsPlural = !model.options.verboseNamePlural && fromPath.startsWith(rootFieldName(model.verboseName));
  for (const name of pathIsPlural ? [fromPath, verbose] : [verbose, fromPath]) {
    if (isGraphQLName(name) && !taken.has(name)) return name;
  }
  return null;
}

/** `Query`: per model a singular field by id and a plural field with the REST filters. */
function rootQuery(models: readonly ModelMeta[], types: ObjectTypes): GraphQLObjectType {
  const fields: GraphQLFieldConfigMap<unknown, GraphReads> = {};
  const plural = new Map<string, ModelMeta>();
  for (const model of models) {
    const name = pluralName(model, plural);
    if (name) plural.set(name, model);
  }
  for (const [name, model] of plural) {
    fields[name] = {
      type: new GraphQLList(types.typeOf(model)),
      args: filterArguments(model),
      resolve: async (_root, args: Args, reads) => {
        const window = windowOf(args);
        const where = and([await reads.visibleRows(model), await argumentPredicate(reads, model, args)]);
        return reads.objects(model, where, window);
      },
    };
  }
  for (const model of models) {
    const name = rootFieldName(model.verboseName);
    // When the singular and the plural coincide (virtual chassis), the list wins.
    if (!isGraphQLName(name) || name in fields) continue;
    fields[name] = {
      type: types.typeOf(model),
      args: { id: { type: GraphQLID } },
      resolve: async (_root, args: Args, reads) => {
        if (args.id === undefined || args.id === null) return null;
        const id = parseId(model, String(args.id));
        if (id === null) throw new FilterArgumentError(`['“${String(args.id)}” is not a valid UUID.']`);
        const where = and([await reads.visibleRows(model), fieldTest(model.pk, 'exact', [id])]);
        return (await reads.objects(model, where))[0] ?? null;
      },
    };
  }
  return new GraphQLObjectType({ name: 'Query', fields });
}

/** Feature fields per model as the data defines them now (custom and computed fields). */
export async function featureFields(registry: Registry, db: Executor, features: RequestData): Promise<Map<ModelMeta, FeatureGraphQLField[]>> {
  const out = new Map<ModelMeta, FeatureGraphQLField[]>();
  for (const model of graphqlModels(registry)) {
    const fields: FeatureGraphQLField[] = [];
    for (const feature of graphqlFeaturesFor(registry, model)) fields.push(...(await feature.graphqlFields(model, db, features, registry)));
    if (fields.length) out.set(model, fields);
  }
  return out;
}

/** Schemas of a registry by the feature fields they carry: rebuilt only when definitions change. */
const SCHEMAS = new WeakMap<Registry, Map<string, GraphQLSchema>>();
/** Distinct definition sets kept; older ones are rebuilt if they come back. */
const KEPT_SCHEMAS = 4;

export function graphqlSchema(registry: Registry, dynamic: ReadonlyMap<ModelMeta, readonly FeatureGraphQLField[]> = new Map()): GraphQLSchema {
  let byKey = SCHEMAS.get(registry);
  if (!byKey) SCHEMAS.set(registry, (byKey = new Map()));
  const key = JSON.stringify([...dynamic].map(([m, fields]) => [m.label, fields.map((f) => [f.name, f.type, f.target ?? null])]));
  let schema = byKey.get(key);
  if (!schema) {
    const models = graphqlModels(registry);
    schema = new GraphQLSchema({ query: rootQuery(models, new ObjectTypes(registry, new Set(models), dynamic)) });
    if (byKey.size >= KEPT_SCHEMAS) byKey.delete(byKey.keys().next().value as string);
    byKey.set(key, schema);
  }
  return schema;
}
