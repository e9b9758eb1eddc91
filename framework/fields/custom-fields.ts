import type { FieldMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import type { RenderContext } from '../serializer/render-context';
import type { Values, WriteContext } from '../serializer/write-context';
import { applyColumn, baseInfo } from './common';
import { parseJsonColumn } from './json';
import type { FieldKind } from './kind';

/** Column holding the JSON object of custom field values, as Nautobot's `_custom_field_data`. */
export const CUSTOM_FIELD_DATA = '_custom_field_data';

/**
 * What the custom-field feature provider supplies: definitions per request, representation of the
 * stored data, and parsing/validation of written values. Without a provider the field reads `{}`.
 */
export interface CustomFieldProvider {
  /** Loads whatever the request needs (definitions) into `features`, once. */
  prepare(db: RenderContext['db'], features: Map<string, unknown>): Promise<void>;
  represent(model: FieldMeta['model'], data: JsonObject, rc: RenderContext): JsonObject;
  parse(model: FieldMeta['model'], input: unknown, wc: WriteContext, stored: JsonObject): Promise<JsonObject>;
  defaults(model: FieldMeta['model'], wc: WriteContext): Promise<JsonObject>;
}

export function customFieldProvider(field: FieldMeta): CustomFieldProvider | undefined {
  return field.extra.provider as CustomFieldProvider | undefined;
}

export const customFieldsKind: FieldKind = {
  name: 'custom-fields',
  decorate(proto, property) {
    applyColumn(proto, property, { name: CUSTOM_FIELD_DATA, type: 'text', nullable: false });
  },
  column: () => CUSTOM_FIELD_DATA,
  reader(field, scope) {
    const i = scope.column(CUSTOM_FIELD_DATA);
    return (row, rc) => {
      const provider = customFieldProvider(field);
      if (!provider) return {};
      const data = parseJsonColumn(row[i]);
      return provider.represent(field.model, (data && typeof data === 'object' && !Array.isArray(data) ? data : {}) as JsonObject, rc);
    };
  },
  async parse(field, input, wc) {
    const provider = customFieldProvider(field);
    const stored = (wc.current?.[field.name] as JsonObject | undefined) ?? {};
    if (!provider) return stored;
    return provider.parse(field.model, input, wc, stored);
  },
  async prepare(field, values: Values, wc: WriteContext) {
    if (!wc.creating) return;
    const provider = customFieldProvider(field);
    if (!provider) {
      values[field.name] ??= {};
      return;
    }
    const defaults = await provider.defaults(field.model, wc);
    values[field.name] = { ...defaults, ...((values[field.name] as JsonObject | undefined) ?? {}) };
  },
  defaultValue: () => ({}),
  load(_field, row) {
    const v = parseJsonColumn(row[CUSTOM_FIELD_DATA]);
    return (v && typeof v === 'object' && !Array.isArray(v) ? v : {}) as Json;
  },
  store: (_field, value) => ({ [CUSTOM_FIELD_DATA]: JSON.stringify(value ?? {}) }),
  info: (field) => baseInfo(field, 'field'),
  schema: () => ({ type: 'object', additionalProperties: true }),
};
