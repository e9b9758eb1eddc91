import type { RequestData } from '../metadata/request-data';
import type { Executor } from '../store/executor';
import type { FilterDef } from '../filterset/filterset';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { ApiVersion } from '../versioning/version';
import type { Json, JsonObject, Values } from '../metadata/types';

/**
 * What a feature provider (custom fields, relationships, computed fields) may do per request.
 * Providers are contributed by applications (`defineApp(..., { provides })`) under the feature's
 * name; the framework calls them for models taking part in that feature, never knowing what
 * they are.
 */
export interface FeatureProvider {
  /**
   * Loads what every request touching the model needs (custom field definitions: the field is
   * always shown) into `features`, once: it must do nothing when already loaded.
   */
  prepare?(db: Executor, features: RequestData, registry: Registry): Promise<void>;
  /** Prefix of the filters this feature adds (`cf_`, `cr_`). */
  readonly filterPrefix?: string;
  /** Loads what `filter` needs; called only when a query parameter carries `filterPrefix`. */
  prepareFilters?(db: Executor, features: RequestData, registry: Registry): Promise<void>;
  /** A filter this feature adds to `model` for the request (`cf_<name>`, `cr_<slug>__peer`). */
  filter?(model: ModelMeta, name: string, features: RequestData, version: ApiVersion): FilterDef | undefined;
  /**
   * The names of every filter `filter` would answer for `model` in this request (after
   * `prepareFilters`), so that the OpenAPI document can list them.
   */
  filterNames?(model: ModelMeta, features: RequestData, version: ApiVersion): string[];
}

/** A key a feature adds to objects in GraphQL (`cf_<name>`, `cpf_<slug>`), read from the object. */
export interface FeatureGraphQLField {
  readonly name: string;
  /**
   * `string`: text; `value`: a value of the kind of `field` (a custom field's), typed as that kind
   * describes it; `object` and `object-list`: objects of the model `target`, read as their ids.
   */
  readonly type: 'string' | 'value' | 'object' | 'object-list';
  /** For `value`: a field of the kind the value is (framework/fields/value-field.ts). */
  readonly field?: FieldMeta;
  /** Label of the model the ids of `object` and `object-list` fields name. */
  readonly target?: string;
  /** The value from the object's stored values and its REST representation (opt-in keys included). */
  read(obj: { readonly rest: JsonObject; readonly values: Values }): Json;
}

/** A feature whose data adds fields to GraphQL types; it loads what it needs into `features`. */
export interface GraphQLFeature {
  graphqlFields(model: ModelMeta, db: Executor, features: RequestData, registry: Registry): Promise<FeatureGraphQLField[]>;
}

/** The features of `model` that add GraphQL fields, in a stable order. */
export function graphqlFeaturesFor(registry: Registry, model: ModelMeta): GraphQLFeature[] {
  const out: GraphQLFeature[] = [];
  for (const feature of [...model.features].sort()) {
    const provider = registry.providers[feature] as Partial<GraphQLFeature> | undefined;
    if (provider && typeof provider.graphqlFields === 'function' && !out.includes(provider as GraphQLFeature)) out.push(provider as GraphQLFeature);
  }
  return out;
}

function isProvider(value: unknown): value is FeatureProvider {
  if (value === null || typeof value !== 'object') return false;
  const p = value as FeatureProvider;
  return typeof p.prepare === 'function' || typeof p.filter === 'function' || typeof p.prepareFilters === 'function';
}

/** Providers per model of a registry, found once: every request asks, and a built registry is frozen. */
const PROVIDERS = new WeakMap<Registry, WeakMap<ModelMeta, readonly FeatureProvider[]>>();

/** Providers of the features `model` takes part in, in a stable order. */
export function providersFor(registry: Registry, model: ModelMeta): readonly FeatureProvider[] {
  let byModel = PROVIDERS.get(registry);
  if (!byModel) PROVIDERS.set(registry, (byModel = new WeakMap()));
  let found = byModel.get(model);
  if (!found) byModel.set(model, (found = findProviders(registry, model)));
  return found;
}

function findProviders(registry: Registry, model: ModelMeta): FeatureProvider[] {
  const out: FeatureProvider[] = [];
  for (const feature of [...model.features].sort()) {
    const provider = registry.providers[feature];
    if (isProvider(provider) && !out.includes(provider)) out.push(provider);
  }
  return out;
}

/**
 * Loads the request-scoped data of the features of `model` into `features`; with `params` (the
 * query's parameter names) also what the features' filters named there need.
 */
export async function prepareFeatures(
  registry: Registry,
  model: ModelMeta,
  db: Executor,
  features: RequestData,
  params: Iterable<string> = [],
): Promise<void> {
  const names = [...params];
  for (const provider of providersFor(registry, model)) {
    await provider.prepare?.(db, features, registry);
    const prefix = provider.filterPrefix;
    if (prefix && provider.prepareFilters && names.some((n) => n.startsWith(prefix))) await provider.prepareFilters(db, features, registry);
  }
}

/** The dynamic filters of `model` for this request (call after prepareFeatures). */
export function featureFilters(
  registry: Registry,
  model: ModelMeta,
  features: RequestData,
  version: ApiVersion,
): (name: string) => FilterDef | undefined {
  const providers = providersFor(registry, model).filter((p) => p.filter);
  return (name) => {
    for (const p of providers) {
      const def = p.filter?.(model, name, features, version);
      if (def) return def;
    }
    return undefined;
  };
}

/**
 * Every filter the features of `model` add in this request (`cf_<name>`, `cr_<slug>__peer`), by
 * name: what the OpenAPI document lists besides the model's own filters. Loads what the
 * providers' filters need into `features` (once per request whatever the number of models).
 */
export async function listFeatureFilters(
  registry: Registry,
  model: ModelMeta,
  db: Executor,
  features: RequestData,
  version: ApiVersion,
): Promise<FilterDef[]> {
  const out = new Map<string, FilterDef>();
  for (const provider of providersFor(registry, model)) {
    if (!provider.filterNames || !provider.filter) continue;
    await provider.prepare?.(db, features, registry);
    await provider.prepareFilters?.(db, features, registry);
    for (const name of provider.filterNames(model, features, version)) {
      const def = provider.filter(model, name, features, version);
      if (def && !out.has(name)) out.set(name, def);
    }
  }
  return [...out.values()];
}
