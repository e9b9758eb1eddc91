import {
  Store,
  SNAPSHOT_RENDER,
  describeValue,
  documentKeyFilter,
  fieldLookups,
  FieldError,
  jsonKeyTest,
  pyTypeName,
  TRUE,
  ValidationError,
  type ApiVersion,
  type CustomFieldProvider,
  type Executor,
  type FieldInfo,
  type FieldMeta,
  type FilterDef,
  type Json,
  type JsonObject,
  type ModelMeta,
  type Registry,
  type RenderContext,
  type WriteContext,
  type RequestData,
  DataKey,
  CachedConfig,
  cachedConfig,
  type FeatureGraphQLField,
  type GraphQLFeature,
} from '../../framework';
import { CustomField, CustomFieldChoice } from './custom-field';
import { customFieldValue } from './custom-field-kinds';
import { checkValue, type Definition } from './custom-field-values';

/** Key of the request's definitions in the feature data. */
const DEFINITIONS = new DataKey<Definitions>('extras.custom_fields');
/** The definitions between requests, until a custom field or choice changes. */
const DEFINITIONS_CACHE = new CachedConfig<Definitions>('extras.custom_fields', ['extras_customfield']);

interface Definitions {
  byModel: Map<string, Definition[]>;
}

function byWeightThenName(a: Definition, b: Definition): number {
  return a.weight - b.weight || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** Every definition with its choices, once per request, whatever is rendered. */
async function loadDefinitions(db: Executor, registry: Registry): Promise<Definitions> {
  const fields = await new Store(db).find(registry.forClass(CustomField), TRUE);
  // Choices matter only to selection fields; without any, reads cost one query.
  const selections = fields.some((f) => f.type === 'select' || f.type === 'multi-select');
  const choices = selections ? await new Store(db).find(registry.forClass(CustomFieldChoice), TRUE) : [];
  choices.sort((a, b) => Number(a.weight) - Number(b.weight) || (String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0));
  const byModel = new Map<string, Definition[]>();
  for (const f of fields) {
    const def: Definition = {
      id: String(f.id),
      name: String(f.name),
      slug: String(f.slug),
      label: String(f.label ?? ''),
      type: f.type as Definition['type'],
      required: f.required === true,
      filter_logic: f.filter_logic as Definition['filter_logic'],
      default: (f.default ?? null) as Json,
      weight: Number(f.weight),
      description: String(f.description ?? ''),
      validation_minimum: f.validation_minimum === null || f.validation_minimum === undefined ? null : Number(f.validation_minimum),
      validation_maximum: f.validation_maximum === null || f.validation_maximum === undefined ? null : Number(f.validation_maximum),
      validation_regex: String(f.validation_regex ?? ''),
      content_types: (f.content_types as string[]) ?? [],
      choices: choices.filter((c) => c.field === f.id).map((c) => String(c.value)),
    };
    for (const label of def.content_types) byModel.set(label, [...(byModel.get(label) ?? []), def]);
  }
  for (const list of byModel.values()) list.sort(byWeightThenName);
  return { byModel };
}

function definitionsIn(features: RequestData, model: ModelMeta): Definition[] {
  return (features.get(DEFINITIONS))?.byModel.get(model.label) ?? [];
}

async function definitionsFor(wc: WriteContext, model: ModelMeta): Promise<Definition[]> {
  await provider.prepare(wc.tx, wc.features, wc.registry);
  return definitionsIn(wc.features, model);
}

/** `custom_fields` keys: names at API 1.2/1.3, slugs from 1.4 (Nautobot's should_use_custom_field_slug). */
function keyOf(def: Definition, version: ApiVersion): string {
  return version.gte('1.4') ? def.slug : def.name;
}

function invalid(def: Definition, reason: string): ValidationError {
  return ValidationError.model(`Invalid value for custom field '${def.name}': ${reason}`);
}

// -- filters -------------------------------------------------------------------------------------

/**
 * Loose filter logic makes the plain filter a case-insensitive contains, where the value compares
 * as free text (Nautobot: every type but integers, booleans, dates and selections).
 */
function matchesLoosely(def: Definition, value: FieldMeta): boolean {
  return def.filter_logic === 'loose' && value.kind.comparison === 'text' && value.kind.filterChoices?.(value) === undefined;
}

/**
 * `cf_<name>`, every custom field's plain filter (one value, the last wins; `null` selects objects
 * without a value), or `cf_<name>__<suffix>` for a further lookup of its kind (repeats OR; a
 * negated one also keeps objects without a value, as Nautobot's exclude() does). Values parse,
 * type and compare as the kind of the field's type says (custom-field-kinds.ts), through the
 * field's key in the custom field data.
 */
function customFieldFilter(data: FieldMeta, def: Definition, name: string, suffix: string): FilterDef | undefined {
  const value = customFieldValue(data.model, def);
  if (suffix !== '') return documentKeyFilter(data, def.name, value, name, suffix);
  const plain = documentKeyFilter(data, def.name, value, name, '', { lookup: matchesLoosely(def, value) ? 'icontains' : 'exact', multiple: 'last' });
  if (!plain) return undefined;
  const absent = jsonKeyTest(data, def.name, value.kind.jsonValue ?? 'text', 'isnull', [true]);
  return { ...plain, build: (values, fc) => (values[0] === 'null' ? absent : plain.build(values, fc)) };
}

/** The suffixes of a custom field's filters: '' and its kind's further lookups. */
function suffixesOf(model: ModelMeta, def: Definition): string[] {
  return ['', ...fieldLookups(customFieldValue(model, def)).filter((s) => s !== '')];
}

// -- OPTIONS -------------------------------------------------------------------------------------

/** A custom field as OPTIONS describes it: as a field of its type's kind. */
function describe(model: ModelMeta, def: Definition): FieldInfo {
  return describeValue(customFieldValue(model, def));
}

// -- the provider --------------------------------------------------------------------------------

export const provider: CustomFieldProvider & GraphQLFeature & { prepare(db: Executor, features: RequestData, registry: Registry): Promise<void> } = {
  filterPrefix: 'cf_',

  /** `cf_<name>`: the stored value (keyed by name, as `_custom_field_data`), typed by the field's type. */
  async graphqlFields(model, db, features, registry): Promise<FeatureGraphQLField[]> {
    await provider.prepare(db, features, registry);
    const data = model.fields.find((f) => f.options.feature === 'custom_fields');
    if (!data) return [];
    return definitionsIn(features, model).map((def) => ({
      name: `cf_${def.name}`,
      type: 'value',
      field: customFieldValue(model, def),
      read: (obj) => ((obj.values[data.name] as Record<string, Json> | null | undefined) ?? {})[def.name] ?? null,
    }));
  },

  async prepare(db, features, registry) {
    if (features.has(DEFINITIONS)) return;
    features.set(DEFINITIONS, await cachedConfig(db, DEFINITIONS_CACHE, () => loadDefinitions(db, registry)));
  },

  represent(model, data, rc: RenderContext) {
    const out: JsonObject = {};
    // Change records and webhooks key values by name whatever shapes the rest follows, as Nautobot does.
    const byName = rc.features.get(SNAPSHOT_RENDER) === true;
    for (const def of definitionsIn(rc.features, model)) {
      const value = data[def.name];
      out[byName ? def.name : keyOf(def, rc.version)] = value === undefined ? null : value;
    }
    return out;
  },

  async parse(model, input, wc, stored) {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new FieldError(`Expected a dictionary of items but got type "${pyTypeName(input)}".`);
    }
    const defs = await definitionsFor(wc, model);
    const byKey = new Map(defs.map((d) => [keyOf(d, wc.version), d]));
    const merged: JsonObject = { ...stored };
    // Unknown keys (another model's field, a name where a slug is expected) are ignored, not stored.
    for (const [key, value] of Object.entries(input as JsonObject)) {
      const def = byKey.get(key);
      if (def) merged[def.name] = value;
    }
    return merged;
  },

  async clean(model, data, wc) {
    const defs = await definitionsFor(wc, model);
    const out: JsonObject = {};
    for (const def of defs) {
      if (!Object.prototype.hasOwnProperty.call(data, def.name)) continue;
      const checked = checkValue(def, data[def.name]);
      if ('error' in checked) throw invalid(def, checked.error);
      out[def.name] = checked.value;
    }
    for (const def of defs) {
      if (Object.prototype.hasOwnProperty.call(out, def.name)) continue;
      if (def.default !== null) out[def.name] = def.default;
      else if (def.required) throw ValidationError.model(`Missing required custom field '${def.name}'.`);
    }
    return out;
  },

  describe(model, features, version) {
    const out: Record<string, FieldInfo> = {};
    for (const def of definitionsIn(features, model)) out[keyOf(def, version)] = describe(model, def);
    return out;
  },

  /** `cf_<name>` and its lookups for each custom field of the model whose filter logic is not disabled. */
  filterNames(model, features) {
    if (!model.field('custom_fields')) return [];
    return definitionsIn(features, model)
      .filter((d) => d.filter_logic !== 'disabled')
      .flatMap((d) => suffixesOf(model, d).map((suffix) => (suffix ? `cf_${d.name}__${suffix}` : `cf_${d.name}`)));
  },

  filter(model, name, features, version) {
    if (!name.startsWith('cf_')) return undefined;
    const field = model.field('custom_fields');
    if (!field) return undefined;
    const rest = name.slice(3);
    const defs = definitionsIn(features, model).filter((d) => d.filter_logic !== 'disabled');
    const exact = defs.find((d) => d.name === rest);
    if (exact) return customFieldFilter(field, exact, name, '');
    const cut = rest.lastIndexOf('__');
    if (cut <= 0) return undefined;
    const def = defs.find((d) => d.name === rest.slice(0, cut));
    const suffix = rest.slice(cut + 2);
    return def && suffix ? customFieldFilter(field, def, name, suffix) : undefined;
  },
};

/**
 * An object's custom field values keyed by name, from its representation (templates' `obj.cf`).
 * Unset values are left out, as Nautobot stores no key for them: `default()` then applies.
 */
export function storedCustomFields(model: ModelMeta, obj: JsonObject, rc: RenderContext): JsonObject {
  const shown = obj.custom_fields;
  const out: JsonObject = {};
  if (!shown || typeof shown !== 'object' || Array.isArray(shown)) return out;
  for (const def of definitionsIn(rc.features, model)) {
    const value = shown[keyOf(def, rc.version)];
    if (value !== undefined && value !== null) out[def.name] = value;
  }
  return out;
}
