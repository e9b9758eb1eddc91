import {
  Store,
  SNAPSHOT_RENDER,
  booleanFilterValue,
  compileRegex,
  FieldError,
  FilterValueError,
  integerFilterValue,
  jsonKeyTest,
  parseDate,
  pyTypeName,
  TRUE,
  ValidationError,
  not,
  or,
  type ApiVersion,
  type CustomFieldProvider,
  type Executor,
  type FieldInfo,
  type FieldMeta,
  type FilterDef,
  type Json,
  type JsonObject,
  type JsonValueType,
  type ModelMeta,
  type Predicate,
  type Registry,
  type RenderContext,
  type WriteContext,
  type RequestData,
  DataKey,
  CachedConfig,
  cachedConfig,
  lookupSuffixes,
  type FeatureGraphQLField,
  type GraphQLFeature,
} from '../../framework';
import { CustomField, CustomFieldChoice } from './custom-field';
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

/** The framework's REST suffixes (`ic` → icontains, `n` → negated exact) that text and numbers take. */
const STRING_SUFFIXES = lookupSuffixes(['n', 'ic', 'nic', 'iew', 'niew', 'isw', 'nisw', 'ie', 'nie', 're', 'nre', 'ire', 'nire']);
const NUMERIC_SUFFIXES = lookupSuffixes(['n', 'lt', 'lte', 'gt', 'gte']);

/** Lookup suffixes of `cf_<name>__<suffix>` per type (API 1.4+); other types have none. */
function suffixesOf(def: Definition): Record<string, [string, boolean]> {
  if (def.type === 'text' || def.type === 'url' || def.type === 'select') return STRING_SUFFIXES;
  if (def.type === 'integer' || def.type === 'date') return NUMERIC_SUFFIXES;
  return {};
}

/** How a type's values compare in SQL, and how a filter value parses. */
function comparison(def: Definition): { as: JsonValueType; parse: (raw: string) => unknown } {
  switch (def.type) {
    case 'integer':
      return { as: 'number', parse: integerFilterValue };
    case 'boolean':
      return { as: 'boolean', parse: booleanFilterValue };
    case 'date':
      return {
        as: 'text',
        parse: (raw) => {
          if (!parseDate(raw)) throw new FilterValueError('Enter a valid date.');
          return raw.trim();
        },
      };
    case 'multi-select':
      return { as: 'array', parse: (raw) => raw };
    default:
      return { as: 'text', parse: (raw) => raw };
  }
}

function checkedRegex(raw: string): string {
  try {
    compileRegex(raw, false);
  } catch (err) {
    throw new FilterValueError(`Invalid regular expression: ${(err as Error).message}`);
  }
  return raw;
}

/** `cf_<name>` (one value, the last wins) or `cf_<name>__<suffix>` (repeats OR). */
function customFieldFilter(field: FieldMeta, def: Definition, name: string, suffix: string | null): FilterDef {
  const { as, parse } = comparison(def);
  const test = (lookup: string, value: unknown): Predicate => jsonKeyTest(field, def.name, as, lookup, [value]);
  if (suffix === null) {
    // Loose text matching is a case-insensitive contains; selections and other types match exactly.
    const loose = def.filter_logic === 'loose' && ['text', 'url', 'markdown', 'json'].includes(def.type);
    return {
      name,
      multiple: 'last',
      type: as === 'number' ? 'integer' : as === 'boolean' ? 'boolean' : def.type === 'date' ? 'date' : 'string',
      build([raw]) {
        if (raw === 'null') return jsonKeyTest(field, def.name, as, 'isnull', [true]);
        return test(loose ? 'icontains' : 'exact', parse(raw));
      },
    };
  }
  const [lookup, negated] = suffixesOf(def)[suffix];
  return {
    name,
    multiple: 'or',
    type: as === 'number' ? 'integer' : def.type === 'date' ? 'date' : 'string',
    build(values) {
      const parsed = values.map((raw) => (lookup === 'regex' || lookup === 'iregex' ? checkedRegex(raw) : parse(raw)));
      const positive = or(parsed.map((v) => test(lookup, v)));
      // A negated test also keeps objects where the field is empty or absent (Nautobot's exclude()).
      return negated ? not(positive) : positive;
    },
  };
}

// -- OPTIONS -------------------------------------------------------------------------------------

const INFO_TYPES: Record<string, string> = {
  text: 'string',
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  url: 'url',
  select: 'choice',
  'multi-select': 'multiple choice',
  json: 'field',
  markdown: 'string',
};

function describe(def: Definition): FieldInfo {
  const info: FieldInfo = { type: INFO_TYPES[def.type] ?? 'field', required: def.required, read_only: false, label: def.label || def.name };
  if (def.description) info.help_text = def.description;
  if (def.validation_minimum !== null) info.min_value = def.validation_minimum;
  if (def.validation_maximum !== null) info.max_value = def.validation_maximum;
  if (def.type === 'select' || def.type === 'multi-select') info.choices = def.choices.map((c) => ({ value: c, display: c }));
  return info;
}

const GRAPHQL_TYPES: Partial<Record<string, FeatureGraphQLField['type']>> = {
  integer: 'integer',
  boolean: 'boolean',
  date: 'date',
  json: 'json',
  'multi-select': 'string-list',
};

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
      type: GRAPHQL_TYPES[def.type] ?? 'string',
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
    for (const def of definitionsIn(features, model)) out[keyOf(def, version)] = describe(def);
    return out;
  },

  /** `cf_<name>` and its lookups for each custom field of the model whose filter logic is not disabled. */
  filterNames(model, features) {
    if (!model.field('custom_fields')) return [];
    return definitionsIn(features, model)
      .filter((d) => d.filter_logic !== 'disabled')
      .flatMap((d) => [`cf_${d.name}`, ...Object.keys(suffixesOf(d)).map((suffix) => `cf_${d.name}__${suffix}`)]);
  },

  filter(model, name, features, version) {
    if (!name.startsWith('cf_')) return undefined;
    const field = model.field('custom_fields');
    if (!field) return undefined;
    const rest = name.slice(3);
    const defs = definitionsIn(features, model).filter((d) => d.filter_logic !== 'disabled');
    const exact = defs.find((d) => d.name === rest);
    if (exact) return customFieldFilter(field, exact, name, null);
    const cut = rest.lastIndexOf('__');
    if (cut <= 0) return undefined;
    const def = defs.find((d) => d.name === rest.slice(0, cut));
    const suffix = rest.slice(cut + 2);
    if (!def || !Object.prototype.hasOwnProperty.call(suffixesOf(def), suffix)) return undefined;
    return customFieldFilter(field, def, name, suffix);
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
