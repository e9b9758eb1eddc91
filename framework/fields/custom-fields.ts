import type { RequestData } from '../metadata/request-data';
import type { FieldMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { Json, JsonObject } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import { applyColumn, baseInfo } from './common';
import { parseJsonColumn } from './json';
import type { FieldInfo, FieldKind, KindWriteContext } from './kind';
import type { RenderState } from './kind';

/** Column holding the JSON object of custom field values, as Nautobot's `_custom_field_data`. */
export const CUSTOM_FIELD_DATA = '_custom_field_data';

type ModelOf = FieldMeta['model'];

/**
 * What the custom-fields kind asks of the custom-field feature provider: representation of the
 * stored data, and parsing/validation of written values (the provider's per-request part is a
 * FeatureProvider: framework/features/field-providers.ts joins both). `R` and `W` are the render
 * and write contexts the request passes. Without a provider the field reads `{}` and keeps
 * whatever is stored.
 */
export interface CustomFieldValues<R extends RenderState = RenderState, W extends KindWriteContext = KindWriteContext> {
  /** The `custom_fields` object for the request's version, from the stored data. */
  represent(model: ModelOf, data: JsonObject, rc: R): JsonObject;
  /** Written values merged into the stored ones (update) or the empty object (create). */
  parse(model: ModelOf, input: unknown, wc: W, stored: JsonObject): Promise<JsonObject>;
  /** The data to store: defaults for missing keys, every value validated, required fields enforced. */
  clean(model: ModelOf, data: JsonObject, wc: W): Promise<JsonObject>;
  /** OPTIONS: one entry per custom field of the model, keyed as in the representation. */
  describe?(model: ModelOf, features: RequestData, version: ApiVersion): Record<string, FieldInfo>;
}

export function customFieldProvider(field: FieldMeta): CustomFieldValues | undefined {
  return field.resolved.customFields as CustomFieldValues | undefined;
}

function asObject(value: Json | undefined): JsonObject {
  return (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as JsonObject;
}

export const customFieldsKind: FieldKind & ResolvingKind = {
  name: 'custom-fields',
  // Keyed by custom field name, as the representation has them.
  databaseForm: 'rendered',
  decorate(proto, property) {
    applyColumn(proto, property, { name: CUSTOM_FIELD_DATA, type: 'text', nullable: false });
  },
  resolve(field: FieldMeta, registry: Registry) {
    const provider = registry.providers.custom_fields as CustomFieldValues | undefined;
    if (provider && typeof provider.represent === 'function') field.resolved.customFields = provider;
  },
  column: () => CUSTOM_FIELD_DATA,
  reader(field, scope) {
    const i = scope.column(CUSTOM_FIELD_DATA);
    return (row, rc) => {
      const provider = customFieldProvider(field);
      if (!provider) return {};
      return provider.represent(field.model, asObject(parseJsonColumn(row[i])), rc);
    };
  },
  async parse(field, input, wc) {
    const provider = customFieldProvider(field);
    const stored = asObject(wc.current?.[field.name] as Json | undefined);
    if (!provider) return stored;
    return provider.parse(field.model, input, wc, stored);
  },
  async validate(field, values, wc) {
    const provider = customFieldProvider(field);
    if (!provider) return;
    values[field.name] = await provider.clean(field.model, asObject(values[field.name] as Json | undefined), wc);
  },
  defaultValue: () => ({}),
  load: (_field, row) => asObject(parseJsonColumn(row[CUSTOM_FIELD_DATA])),
  store: (_field, value) => ({ [CUSTOM_FIELD_DATA]: JSON.stringify(value ?? {}) }),
  info(field, ic) {
    const info: FieldInfo = baseInfo(field, 'field');
    const provider = customFieldProvider(field);
    if (provider?.describe && ic.features && ic.version) {
      const children = provider.describe(field.model, ic.features, ic.version);
      if (Object.keys(children).length) info.children = children;
    }
    return info;
  },
  schema: () => ({ type: 'object', additionalProperties: true }),
};

declare module '../metadata/model-meta' {
  interface ResolvedField {
    /** The custom-field values provider of the application that provides custom fields. */
    customFields?: CustomFieldValues;
  }
}
