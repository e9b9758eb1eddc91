import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, Json, JsonObject } from '../metadata/types';
import type { Id } from '../query/id';
import { baseInfo } from './common';
import type { FieldKind, KindWriteContext, PlanMode, ReadScope, Row } from './kind';
import type { RenderState } from './kind';

/**
 * A key whose value is not a column. Three sources, one kind:
 * - derived from the object's own columns by the model (`from` + `compute`:
 *   `network_driver_mappings`);
 * - supplied read-only by an application providing a {@link ComputedValueProvider}
 *   (`config_context` from config contexts), usually opt-out (`exclude=config_context`);
 * - a per-request feature (`relationships`, `computed_fields`, declared with `@Computed`): the
 *   application provides a {@link ComputedProvider} that loads, derives and possibly writes the
 *   value; opt-in through `include`.
 * With no source at all the key reads `{}`.
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
  /**
   * Set by `@Computed`: the field is the feature named like it, whose provider is a
   * {@link ComputedProvider} (per-request values, optionally writable).
   */
  feature?: string;
}

/**
 * What an application supplies for a read-only computed key: the values for a page of objects.
 * `R` is what the request passes while rendering: the kind sees a RenderState; applications
 * implement framework/features/field-providers.ts's form, which receives the full RenderContext.
 */
export interface ComputedValueProvider<R extends RenderState = RenderState> {
  /**
   * Values by object id; objects left out read as `{}`. Called only when the key is shown.
   * `selected`: what `select` read from each object's row, when the provider has one.
   */
  load(field: FieldMeta, ids: Id[], rc: R, selected?: ReadonlyMap<Id, unknown>): Promise<Map<Id, Json>>;
  /**
   * Adds what the provider needs of each object to the page's own statement (a column, a
   * correlated subquery) and returns the reader of that value: a page then costs the provider no
   * statement for what its rows already hold.
   */
  select?(field: FieldMeta, scope: ReadScope, mode: PlanMode): (row: Row, rc: RenderState) => unknown;
}

/**
 * Supplies the values of a feature computed field. It is the provider of the feature named like
 * the field (`relationships`, `computed_fields`), contributed by an application; without one the
 * field reads `{}`. `R` and `W` are the render and write contexts the request passes (see
 * ComputedValueProvider).
 */
export interface ComputedProvider<R extends RenderState = RenderState, W extends KindWriteContext = KindWriteContext> {
  /** Data for a page of objects, in a number of queries that does not grow with the page. */
  load?(model: ModelMeta, ids: Id[], rc: R): Promise<Map<Id, Json>>;
  /** One object's value, from what `load` returned and the representation built so far. */
  value?(model: ModelMeta, obj: JsonObject, loaded: Json | undefined, rc: R): Json;
  /** Written input → internal value, for writable computed fields (relationships). */
  parse?(model: ModelMeta, input: unknown, wc: W): Promise<unknown>;
  /** Checks before save, also when nothing was written (required relationships). */
  validate?(model: ModelMeta, value: unknown, wc: W): Promise<void>;
  /** Applies a written value once the object's row is saved, in the same transaction. */
  write?(model: ModelMeta, id: Id, value: unknown, wc: W): Promise<void>;
  /** Removes what belongs to objects about to be deleted (associations). */
  removed?(model: ModelMeta, ids: Id[], wc: W): Promise<void>;
}

function opts(field: FieldMeta): ComputedOptions {
  return field.opts<ComputedOptions>();
}

function isFeatureField(field: FieldMeta): boolean {
  return !!opts(field).feature;
}

function isValueProvider(value: unknown): value is ComputedValueProvider {
  return typeof (value as ComputedValueProvider | undefined)?.load === 'function';
}

function isFeatureProvider(value: unknown): value is ComputedProvider {
  if (value === null || typeof value !== 'object') return false;
  const p = value as ComputedProvider;
  return typeof p.load === 'function' || typeof p.value === 'function';
}

/** The read-only provider of a plain computed key (`config_context`). */
export function computedProvider(field: FieldMeta): ComputedValueProvider | undefined {
  return isFeatureField(field) ? undefined : (field.resolved.computedBy as ComputedValueProvider | undefined);
}

/** The provider of a feature computed field (`relationships`, `computed_fields`). */
function featureProvider(field: FieldMeta): ComputedProvider | undefined {
  return isFeatureField(field) ? (field.resolved.computedBy as ComputedProvider | undefined) : undefined;
}

/**
 * Whether a request shows the key. Opt-out follows Nautobot's views: the last value of the
 * parameter is searched as text (`exclude=config_context,foo` works). Opt-in follows its
 * OptInFieldsMixin: write responses always show it; on reads a single value is searched as
 * text, repeated values must name the key exactly. `include` is decided once per request
 * (`RenderContext.include`); other opt-in parameters apply the same rule here.
 */
export function computedShown(field: FieldMeta, rc: Pick<RenderState, 'query' | 'writing' | 'include'>): boolean {
  const o = opts(field);
  if (o.optOut) {
    const values = rc.query.get(o.optOut);
    if (values && values.length && values[values.length - 1].includes(field.name)) return false;
  }
  if (o.optIn === 'include') return rc.include(field.name);
  if (o.optIn) {
    if (rc.writing) return true;
    const values = rc.query.get(o.optIn) ?? [];
    return values.length === 1 ? values[0].includes(field.name) : values.includes(field.name);
  }
  return true;
}

export const computedKind: FieldKind & ResolvingKind = {
  name: 'computed',
  databaseForm: 'omitted',
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
    if (o.feature ? isFeatureProvider(provided) : isValueProvider(provided)) field.resolved.computedBy = provided as ComputedValueProvider | ComputedProvider;
  },
  column: () => null,
  reader(field, scope, mode) {
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
    const idIndex = scope.idIndex;
    if (o.feature) {
      // Feature fields (relationships, computed fields) never appear in brief form.
      if (mode.brief) return null;
      const model = scope.model;
      const key = `${model.label}.${field.name}:${scope.key}`;
      const provider = featureProvider(field);
      if (provider?.load) {
        const load = provider.load.bind(provider);
        scope.addLoader({
          key,
          idIndex,
          load: (ids, rc) => (computedShown(field, rc) ? load(model, ids, rc) : Promise.resolve(new Map<Id, Json>())),
        });
      }
      return (row, rc, out) => {
        if (!computedShown(field, rc)) return undefined;
        const loaded = rc.loaded.get(key)?.get(row[idIndex] as Id);
        if (provider?.value) return provider.value(model, out ?? {}, loaded, rc);
        return loaded ?? {};
      };
    }
    const provider = computedProvider(field);
    if (!provider) return (_row, rc) => (computedShown(field, rc) ? {} : undefined);
    const key = `computed:${scope.key}:${field.name}`;
    const selectedOf = provider.select?.(field, scope, mode);
    const selected = (rows: readonly Row[] | undefined, rc: RenderState): ReadonlyMap<Id, unknown> | undefined =>
      selectedOf && rows ? new Map(rows.map((row) => [row[idIndex] as Id, selectedOf(row, rc)])) : undefined;
    // The provider's work (merging config contexts…) is skipped for requests that leave the key out.
    scope.addLoader({
      key,
      idIndex,
      load: (ids, rc, rows) => (computedShown(field, rc) ? provider.load(field, ids, rc, selected(rows, rc)) : Promise.resolve(new Map<Id, Json>())),
    });
    // A provider may answer null for an object (no parent device); only objects it left out read as {}.
    return (row, rc) => {
      if (!computedShown(field, rc)) return undefined;
      const values = rc.loaded.get(key);
      const id = row[idIndex] as Id;
      return values?.has(id) ? (values.get(id) as Json) : {};
    };
  },
  queryParams(field) {
    const o = opts(field);
    return [o.optIn, o.optOut].filter((p): p is string => !!p);
  },
  queryParamEffects(field) {
    const o = opts(field);
    return [
      ...(o.optIn ? [{ name: o.optIn, effect: 'show' as const }] : []),
      ...(o.optOut ? [{ name: o.optOut, effect: 'hide' as const }] : []),
    ];
  },
  async parse(field, input, wc) {
    const provider = featureProvider(field);
    return provider?.parse ? provider.parse(field.model, input, wc) : undefined;
  },
  async validate(field, values, wc) {
    await featureProvider(field)?.validate?.(field.model, values[field.name], wc);
  },
  async afterWrite(field, id, value, wc) {
    await featureProvider(field)?.write?.(field.model, id, value, wc);
  },
  async removed(field, ids, wc) {
    await featureProvider(field)?.removed?.(field.model, ids, wc);
  },
  info: (field) => baseInfo(field, 'field'),
  schema: (field) => ({ type: 'object', additionalProperties: true, ...(field.readOnly ? { readOnly: true } : {}) }),
};

declare module '../metadata/model-meta' {
  interface ResolvedField {
    /** Who supplies a computed field's values. */
    computedBy?: ComputedValueProvider | ComputedProvider;
  }
}
