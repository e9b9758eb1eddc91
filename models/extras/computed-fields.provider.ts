import {
  Store,
  Template,
  TRUE,
  type ComputedProvider,
  type FeatureGraphQLField,
  type GraphQLFeature,
  type Executor,
  type Id,
  type Json,
  type JsonObject,
  type ModelMeta,
  type Registry,
  type RenderContext,
  type Values,
  type RequestData,
  DataKey,
  CachedConfig,
  cachedConfig,
} from '../../framework';
import { ComputedField } from './computed-field';
import { storedCustomFields } from './custom-fields.provider';

interface Computed {
  slug: string;
  fallback: string;
  /** Null when the template does not parse: the fallback is shown. */
  template: Template | null;
}

const COMPUTED = new DataKey<Map<string, Computed[]>>('extras.computed_fields');
/** Computed fields with their parsed templates, between requests. */
const COMPUTED_CACHE = new CachedConfig<Map<string, Computed[]>>('extras.computed_fields', ['extras_computedfield']);

function compile(source: string): Template | null {
  try {
    return new Template(source);
  } catch {
    return null;
  }
}

function byWeightThenSlug(a: Values, b: Values): number {
  return Number(a.weight) - Number(b.weight) || (String(a.slug) < String(b.slug) ? -1 : String(a.slug) > String(b.slug) ? 1 : 0);
}

/** Every computed field, with its template parsed, once per request. */
async function ensureLoaded(db: Executor, features: RequestData, registry: Registry): Promise<void> {
  if (features.has(COMPUTED)) return;
  const byModel = await cachedConfig(db, COMPUTED_CACHE, async () => {
    const rows = (await new Store(db).find(registry.forClass(ComputedField), TRUE)).sort(byWeightThenSlug);
    const loaded = new Map<string, Computed[]>();
    for (const r of rows) {
      const label = String(r.content_type);
      const entry: Computed = { slug: String(r.slug), fallback: String(r.fallback_value ?? ''), template: compile(String(r.template)) };
      loaded.set(label, [...(loaded.get(label) ?? []), entry]);
    }
    return loaded;
  });
  features.set(COMPUTED, byModel);
}

function computedIn(features: RequestData, model: ModelMeta): Computed[] {
  return (features.get(COMPUTED))?.get(model.label) ?? [];
}

/**
 * Renders each computed field of the model against the object's representation (`obj`), with
 * `obj.cf` holding its custom field values by name as Nautobot's `obj.cf` does; a template that
 * fails gives the field's fallback value. Values are always strings.
 */
export const provider: ComputedProvider & GraphQLFeature = {
  /** `cpf_<slug>`: the value the REST representation renders. */
  async graphqlFields(model, db, features, registry): Promise<FeatureGraphQLField[]> {
    await ensureLoaded(db, features, registry);
    return computedIn(features, model).map((f) => ({
      name: `cpf_${f.slug}`,
      type: 'string',
      read: (obj) => ((obj.rest.computed_fields as JsonObject | null | undefined) ?? {})[f.slug] ?? null,
    }));
  },

  /** Runs only when the response includes computed fields: the definitions load then. */
  async load(model: ModelMeta, _ids: Id[], rc: RenderContext): Promise<Map<Id, Json>> {
    await ensureLoaded(rc.db, rc.features, model.registry as Registry);
    return new Map();
  },

  value(model: ModelMeta, obj: JsonObject, _loaded: Json | undefined, rc: RenderContext): Json {
    const out: JsonObject = {};
    const fields = computedIn(rc.features, model);
    if (fields.length === 0) return out;
    const context: JsonObject = { obj: { ...obj, cf: storedCustomFields(model, obj, rc) } };
    for (const f of fields) {
      try {
        out[f.slug] = f.template ? f.template.render(context) : f.fallback;
      } catch {
        out[f.slug] = f.fallback;
      }
    }
    return out;
  },
};
