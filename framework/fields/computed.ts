import type { FieldMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, Json } from '../metadata/types';
import type { RenderContext } from '../serializer/render-context';
import type { Id } from '../serializer/select';
import { baseInfo } from './common';
import type { FieldKind } from './kind';

/**
 * A read-only key whose value is not a column: derived from the object's own columns by the model
 * (`network_driver_mappings`), or supplied by an application that provides it (`config_context`
 * from config contexts). With neither, it reads `{}`.
 */
export interface ComputedOptions extends FieldOptions {
  /** Query parameter that must name the key for it to appear on GET (`include=relationships`). */
  optIn?: string;
  /** Query parameter that removes the key when it names it (`exclude=config_context`). */
  optOut?: string;
  /** Fields of the model the value is computed from; `compute` receives their raw column values. */
  from?: string[];
  compute?: (values: Record<string, unknown>) => Json;
  /** Name under which an application provides the values (`provides` of defineApp); default: the field name. */
  provider?: string;
}

/** What an application supplies for a computed key: the values for a page of objects. */
export interface ComputedValueProvider {
  /** Values by object id; objects left out read as `{}`. Called only when the key is shown. */
  load(field: FieldMeta, ids: Id[], rc: RenderContext): Promise<Map<Id, Json>>;
}

function opts(field: FieldMeta): ComputedOptions {
  return field.opts<ComputedOptions>();
}

function isProvider(value: unknown): value is ComputedValueProvider {
  return typeof (value as ComputedValueProvider | undefined)?.load === 'function';
}

export function computedProvider(field: FieldMeta): ComputedValueProvider | undefined {
  return field.extra.provider as ComputedValueProvider | undefined;
}

/**
 * Whether a request shows the key. Opt-out follows Nautobot's views: the last value of the
 * parameter is searched as text (`exclude=config_context,foo` works). Opt-in follows its
 * OptInFieldsMixin: write responses always show it; on reads a single value is searched as
 * text, repeated values must name the key exactly.
 */
export function computedShown(field: FieldMeta, rc: Pick<RenderContext, 'query' | 'writing'>): boolean {
  const o = opts(field);
  if (o.optOut) {
    const values = rc.query.get(o.optOut);
    if (values && values.length && values[values.length - 1].includes(field.name)) return false;
  }
  if (o.optIn) {
    if (rc.writing) return true;
    const values = rc.query.get(o.optIn) ?? [];
    return values.length === 1 ? values[0].includes(field.name) : values.includes(field.name);
  }
  return true;
}

export const computedKind: FieldKind & ResolvingKind = {
  name: 'computed',
  decorate() {
    /* no column */
  },
  resolve(field: FieldMeta, registry: Registry) {
    const o = opts(field);
    if (o.compute) {
      for (const name of o.from ?? []) {
        if (!field.model.field(name)?.column) throw new Error(`${field.model.label}.${field.name}: computed from ${name}, which is not a column field`);
      }
      return;
    }
    const provided = registry.providers[o.provider ?? field.name];
    if (isProvider(provided)) field.extra.provider = provided;
  },
  column: () => null,
  reader(field, scope) {
    const o = opts(field);
    if (o.compute) {
      const compute = o.compute;
      const refs = (o.from ?? []).map((name) => [name, scope.column(scope.model.field(name)?.column as string)] as const);
      return (row, rc) => {
        if (!computedShown(field, rc)) return undefined;
        const values: Record<string, unknown> = {};
        for (const [name, i] of refs) values[name] = row[i];
        return compute(values);
      };
    }
    const provider = computedProvider(field);
    if (!provider) return (_row, rc) => (computedShown(field, rc) ? {} : undefined);
    const idIndex = scope.idIndex;
    const key = `computed:${scope.key}:${field.name}`;
    // The provider's work (merging config contexts…) is skipped for requests that leave the key out.
    scope.addLoader({
      key,
      idIndex,
      load: (ids, rc) => (computedShown(field, rc) ? provider.load(field, ids, rc) : Promise.resolve(new Map<Id, Json>())),
    });
    return (row, rc) => (computedShown(field, rc) ? (rc.loaded.get(key)?.get(row[idIndex] as Id) ?? {}) : undefined);
  },
  queryParams(field) {
    const o = opts(field);
    return [o.optIn, o.optOut].filter((p): p is string => !!p);
  },
  info: (field) => baseInfo(field, 'field'),
  schema: () => ({ type: 'object', additionalProperties: true, readOnly: true }),
};
