import type { Dialect } from '../store/dialect/types';
import { orderBy, orderKeys, orderText, parentFirstOrder, resolvePath, type OrderKey, type ParentFirstOrder } from '../store/ordering';
import type { Executor } from '../store/executor';
import { planRowsById } from '../store/pages';
import { loadColumns } from '../store/objects';
import { canonicalUuid } from '../fields/uuid';
import { DEFAULT_VERSION } from '../versioning/version';
import { renderContext } from './render-context';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import { VERSION_COLUMN } from '../metadata/registry';
import type { Json, JsonObject } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import type { RenderContext } from './render-context';
import type { Id } from '../query/id';
import type { ObjectEmitter, RenderState } from '../fields/kind';
import { SelectBuilder, type Emitter, type ListReading, type PlanMode, type Representation, type SelectScope } from '../store/select';

/** Fields of the representation for a mode, in output order (id, display and url excluded). */
export function representedFields(model: ModelMeta, mode: PlanMode): FieldMeta[] {
  // Nested forms are not versioned in Nautobot (one nested serializer for every API version).
  if (mode.fields) return mode.fields.map((n) => model.field(n) as FieldMeta);
  if (mode.brief) return model.brief.map((n) => model.field(n) as FieldMeta);
  return model.fields.filter((f) => f.name !== 'id' && !f.hidden && !f.writeOnly && f.inVersion(mode.version));
}

export function displayEmitter(model: ModelMeta, scope: SelectScope): Emitter {
  const spec = model.display;
  if (typeof spec === 'string') {
    const { scope: s, field } = resolvePath(scope, spec);
    const i = s.column(field.column as string);
    return (row) => (row[i] === null || row[i] === undefined ? '' : String(row[i]));
  }
  const refs = spec.fields.map((p) => {
    const { scope: s, field } = resolvePath(scope, p);
    return [p, s.column(field.column as string)] as const;
  });
  const objects = Object.entries(spec.objects ?? {}).map(([name, ref]) => [name, objectDisplayLoader(model, scope, name, ref)] as const);
  return (row, rc) => {
    const values: Record<string, unknown> = {};
    for (const [p, i] of refs) values[p] = row[i];
    for (const [name, loader] of objects) {
      const key = loader.rowKey(row);
      values[name] = key === null ? null : (rc.loaded.get(loader.key)?.get(key) ?? null);
    }
    return spec.render(values);
  };
}

/** Separates the type and the id in the keys of objects referenced by type and id. */
const PAIR = '|';

/**
 * Loads the display strings of objects referenced by a (content type, id) pair of columns, for
 * a page: one query per referenced type present on the page.
 */
function objectDisplayLoader(model: ModelMeta, scope: SelectScope, name: string, ref: { type: string; id: string }) {
  const typeField = model.field(ref.type);
  const idField = model.field(ref.id);
  if (!typeField?.column || !idField?.column) throw new Error(`${model.label}: display object ${name} names unknown fields`);
  const typeIndex = scope.column(typeField.column);
  const idIndex = scope.column(idField.column);
  const loader = {
    key: `${model.label}.display.${name}:${scope.key}`,
    idIndex,
    rowKey(row: unknown[]): Id | null {
      const type = row[typeIndex];
      const id = row[idIndex];
      return type === null || type === undefined || id === null || id === undefined ? null : `${String(type)}${PAIR}${String(id)}`;
    },
    async load(keys: Id[], rc: RenderContext): Promise<Map<Id, Json>> {
      const byType = new Map<string, string[]>();
      for (const key of keys) {
        const [type, id] = String(key).split(PAIR);
        byType.set(type, [...(byType.get(type) ?? []), id]);
      }
      const out = new Map<Id, Json>();
      for (const [type, ids] of byType) {
        const target = model.registry?.get(type);
        if (!target) continue;
        for (const [id, display] of await displaysOf(rc.db, target, ids)) out.set(`${type}${PAIR}${String(id)}`, display);
      }
      return out;
    },
  };
  scope.addLoader(loader);
  return loader;
}

/**
 * The emitter of a model's representation at a scope: `id`, `display`, `url`, then the fields of
 * the mode. Every column it needs is added to the scope's query, nested parents as joins.
 */
export function objectEmitter(model: ModelMeta, scope: SelectScope, mode: PlanMode): (row: unknown[], rc: RenderState) => JsonObject {
  const idIndex = scope.idIndex;
  const display = displayEmitter(model, scope);
  const parts: Array<[string, Emitter]> = [];
  for (const field of representedFields(model, mode)) {
    const emitter = field.kind.reader(field, scope, mode);
    if (emitter) parts.push([field.name, emitter]);
  }
  return compileObjectEmitter(idIndex, display, model.path !== null ? model.listPath : null, parts);
}

/**
 * One function per model and field set, written out field by field: each field's emitter is
 * called from a call site of its own and its key stored by name. A loop over the fields made
 * every call and every keyed store megamorphic (one site for all the fields of every model),
 * and a page of 1,000 prefixes makes some 40,000 of each, nested objects included. The keys come
 * from the model declarations, written as JSON string literals.
 */
function compileObjectEmitter(idIndex: number, display: Emitter, listPath: string | null, parts: ReadonlyArray<[string, Emitter]>): ObjectEmitter {
  const url = listPath === null ? '' : ', url: rc.baseUrl + listPath + id + "/"';
  const fields = parts.map(([key], i) => `v = e${i}(row, rc, out); if (v !== undefined) out[${JSON.stringify(key)}] = v;`).join('\n');
  const body = `return function emit(row, rc) {
  const id = row[idIndex];
  const out = { id: id, display: display(row, rc)${url} };
  let v;
  ${fields}
  return out;
};`;
  const names = parts.map((_, i) => `e${i}`);
  const factory = new Function('idIndex', 'display', 'listPath', ...names, body) as (...args: unknown[]) => ObjectEmitter;
  return factory(idIndex, display, listPath, ...parts.map(([, emit]) => emit));
}

/** How the store's query builders represent nested objects and order them. */
export const representation: Representation = {
  object: objectEmitter,
  order: (model, scope) => orderBy(model, scope, scope.dialect),
};

/** A compiled representation: its query and the function turning a row into JSON. */
export interface Plan {
  readonly builder: SelectBuilder;
  readonly emit: (row: unknown[], rc: RenderContext) => JsonObject;
  readonly orderBy: string;
  /** The terms of `orderBy`, to read a long list on from its last row. */
  readonly orderKeys: readonly OrderKey[];
  /** The query's column list, table and joins, built once. */
  readonly select: string;
  /** The same, for rows read by their ids (bound as one array), with the page's lists joined; see ListReading. */
  readonly selectByIds?: string;
  /** Where a row holds the object's version (not represented; the ETag of a detail response); -1 in nested plans, which do not read it. */
  readonly versionIndex: number;
  /** With PlanOptions.stored: each stored column (loadColumns) and where a row holds it. */
  readonly stored?: ReadonlyArray<readonly [string, number]>;
  readonly parentFirst: ParentFirstOrder | null;
}

/** Plans by model, then by form, version and dialect: built on first use, kept beside the frozen registry. */
const PLANS = new WeakMap<ModelMeta, Map<string, Plan>>();

/** Plans of field subsets kept per model; the subsets clients ask for are few, but not bounded. */
const MAX_SUBSET_PLANS = 64;

/** How a plan reads, besides its form. */
export interface PlanOptions {
  /** Leave the annotated counts out (readers that never show them, such as GraphQL, skip their subqueries). */
  withoutCounts?: boolean;
  /** These fields alone (after id, display and url), for readers that need no more (GraphQL). */
  fields?: readonly string[] | null;
  /** The plan reads one object (a detail, a write's response): short lists (tags) in a subquery of its row. */
  single?: boolean;
  /**
   * Every stored column as well (Plan.stored), after those the representation reads: a change
   * record's two forms of an object come from one statement.
   */
  stored?: boolean;
}

/**
 * How a plan reads short lists. Pages read by their ids bound as one array (PostgreSQL)
 * join them for the whole page: per-row subqueries would cost PostgreSQL more than the statement
 * they replace (0.33 ms against 0.15 ms for 50 prefixes). Elsewhere a subquery per row costs
 * the database what the separate statement did (MariaDB 0.35 ms, SQLite 0.09 ms for 50 prefixes)
 * and saves its round trip. Field subsets (GraphQL) read unbounded windows by condition: loaders.
 */
function listReading(dialect: Dialect, options: PlanOptions): ListReading {
  if (options.single) return 'in-row';
  if (options.fields) return 'loaders';
  return dialect.bindListsWhole ? 'page' : 'in-row';
}

/** Plans are built once per model, form, version, dialect and options, then reused. */
export function planFor(model: ModelMeta, brief: boolean, version: ApiVersion, dialect: Dialect, options: PlanOptions = {}): Plan {
  const { withoutCounts = false, fields = null, single = false, stored: withStored = false } = options;
  let cache = PLANS.get(model);
  if (!cache) PLANS.set(model, (cache = new Map()));
  const key = `${brief ? 'b' : 'f'}${withoutCounts ? 'n' : ''}${single ? 's' : ''}${withStored ? 'w' : ''}:${version}:${dialect.name}${fields ? `:${fields.join(',')}` : ''}`;
  let plan = cache.get(key);
  if (!plan) {
    const builder = new SelectBuilder(model, dialect, representation, 't', listReading(dialect, options));
    const emit = objectEmitter(model, builder.root, { brief, nested: withoutCounts, version, ...(fields ? { fields } : {}) });
    const keys = orderKeys(model, builder.root, dialect);
    const parentFirst = parentFirstOrder(model, builder.root, dialect);
    const versionIndex = builder.root.column(VERSION_COLUMN);
    const stored = withStored ? loadColumns(model).map((c) => [c, builder.root.column(c)] as const) : undefined;
    const selectByIds = builder.selectFromByIds() ?? undefined;
    plan = { builder, emit, orderBy: orderText(keys), orderKeys: keys, select: builder.selectFrom(), selectByIds, parentFirst, versionIndex, ...(stored ? { stored } : {}) };
    if (!fields || cache.size < MAX_SUBSET_PLANS) cache.set(key, plan);
  }
  return plan;
}

/** Runs a page's loaders (tags, many-to-many) once each, then emits every row. */
export async function renderRows(plan: Plan, rows: unknown[][], rc: RenderContext): Promise<Json[]> {
  await loadForRows(plan, rows, rc);
  return rows.map((r) => plan.emit(r, rc));
}

/** What the rows' objects show besides their columns (tags, many-to-many), each loader once for all rows. */
export async function loadForRows(plan: Plan, rows: unknown[][], rc: RenderContext): Promise<void> {
  for (const loader of plan.builder.loaders) {
    const carried = loader.rowColumn?.();
    if (carried !== undefined && rows.length && rows[0].length > carried) continue;
    const ids = new Set<string | number>();
    for (const row of rows) {
      const id = loader.rowKey ? loader.rowKey(row) : row[loader.idIndex];
      if (id !== null && id !== undefined) ids.add(id as string | number);
    }
    rc.loaded.set(loader.key, ids.size ? await loader.load([...ids], rc, rows) : new Map());
  }
}

/** `display` of objects by id (the text Nautobot's messages quote), in no particular order. */
export async function displayStrings(db: Executor, model: ModelMeta, ids: Id[]): Promise<Array<{ display: string; id: Id }>> {
  if (ids.length === 0) return [];
  const sb = new SelectBuilder(model, db.dialect);
  const display = displayEmitter(model, sb.root);
  const idIndex = sb.root.idIndex;
  const rows = await planRowsById(db, model, sb.selectFrom(), ids);
  const rc = renderContext('', DEFAULT_VERSION, db);
  return rows.map((r) => ({ display: String(display(r, rc)), id: r[idIndex] as Id }));
}

/** Display strings of objects by id, given as client text (ids that are not ids and missing objects are left out). */
export async function displaysOf(db: Executor, model: ModelMeta, ids: Id[]): Promise<Map<Id, string>> {
  const wanted = ids
    .map((id) => (model.integerPk ? (/^\d+$/.test(String(id)) ? Number(id) : null) : canonicalUuid(String(id))))
    .filter((id): id is Id => id !== null);
  return new Map((await displayStrings(db, model, wanted)).map((d) => [d.id, d.display]));
}

export { orderBy, orderKeys, orderText, resolvePath, type ParentFirstOrder };
