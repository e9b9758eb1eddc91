import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, Json, JsonObject } from '../metadata/types';
import type { RenderContext } from '../serializer/render-context';
import type { Id } from '../serializer/select';
import type { WriteContext } from '../serializer/write-context';
import { baseInfo } from './common';
import type { FieldKind } from './kind';

export interface ComputedOptions extends FieldOptions {
  /**
   * `include`: on GET the field is present only when the `include` parameter names it; write
   * responses always carry it (Nautobot's opt-in fields).
   */
  optIn: 'include';
}

/**
 * Supplies the values of a computed field. It is the provider of the feature named like the
 * field (`relationships`, `computed_fields`), contributed by an application; without one the
 * field reads `{}`.
 */
export interface ComputedProvider {
  /** Data for a page of objects, in a number of queries that does not grow with the page. */
  load?(model: ModelMeta, ids: Id[], rc: RenderContext): Promise<Map<Id, Json>>;
  /** One object's value, from what `load` returned and the representation built so far. */
  value?(model: ModelMeta, obj: JsonObject, loaded: Json | undefined, rc: RenderContext): Json;
  /** Written input → internal value, for writable computed fields (relationships). */
  parse?(model: ModelMeta, input: unknown, wc: WriteContext): Promise<unknown>;
  /** Checks before save, also when nothing was written (required relationships). */
  validate?(model: ModelMeta, value: unknown, wc: WriteContext): Promise<void>;
  /** Applies a written value once the object's row is saved, in the same transaction. */
  write?(model: ModelMeta, id: Id, value: unknown, wc: WriteContext): Promise<void>;
  /** Removes what belongs to objects about to be deleted (associations). */
  removed?(model: ModelMeta, ids: Id[], wc: WriteContext): Promise<void>;
}

function providerOf(field: FieldMeta): ComputedProvider | undefined {
  return field.extra.provider as ComputedProvider | undefined;
}

function isProvider(value: unknown): value is ComputedProvider {
  if (value === null || typeof value !== 'object') return false;
  const p = value as ComputedProvider;
  return typeof p.load === 'function' || typeof p.value === 'function';
}

/** A value derived per request from data outside the row (relationships, computed fields). */
export const computedKind: FieldKind & ResolvingKind = {
  name: 'computed',
  decorate() {
    /* no column */
  },
  resolve(field: FieldMeta, registry: Registry) {
    const provider = registry.providers[field.name];
    if (isProvider(provider)) field.extra.provider = provider;
  },
  column: () => null,
  reader(field, scope, mode) {
    if (mode.brief) return null;
    const name = field.name;
    const model = scope.model;
    const idIndex = scope.idIndex;
    const key = `${model.label}.${name}:${scope.key}`;
    const provider = providerOf(field);
    if (provider?.load) {
      const load = provider.load.bind(provider);
      scope.addLoader({
        key,
        idIndex,
        load: (ids, rc) => (rc.include(name) ? load(model, ids, rc) : Promise.resolve(new Map())),
      });
    }
    return (row, rc, out) => {
      if (!rc.include(name)) return undefined;
      const loaded = rc.loaded.get(key)?.get(row[idIndex] as Id);
      if (provider?.value) return provider.value(model, out ?? {}, loaded, rc);
      return loaded ?? {};
    };
  },
  async parse(field, input, wc) {
    const provider = providerOf(field);
    return provider?.parse ? provider.parse(field.model, input, wc) : undefined;
  },
  async validate(field, values, wc) {
    await providerOf(field)?.validate?.(field.model, values[field.name], wc);
  },
  async afterWrite(field, id, value, wc) {
    await providerOf(field)?.write?.(field.model, id, value, wc);
  },
  async removed(field, ids, wc) {
    await providerOf(field)?.removed?.(field.model, ids, wc);
  },
  info: (field) => baseInfo(field, 'field'),
  schema: (field) => ({ type: 'object', additionalProperties: true, ...(field.readOnly ? { readOnly: true } : {}) }),
};
