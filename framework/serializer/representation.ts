import type { Dialect } from '../store/dialect/types';
import type { Executor } from '../store/executor';
import { Params } from '../store/params';
import { canonicalUuid } from '../fields/uuid';
import { DEFAULT_VERSION } from '../versioning/version';
import { renderContext } from './render-context';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import type { RenderContext } from './render-context';
import type { Id } from '../query/id';
import type { RenderState } from '../fields/read';
import { SelectBuilder, type Emitter, type PlanMode, type Representation, type SelectScope } from '../store/select';

/** Fields of the representation for a mode, in output order (id, display and url excluded). */
export function representedFields(model: ModelMeta, mode: PlanMode): FieldMeta[] {
  // Nested forms are not versioned in Nautobot (one nested serializer for every API version).
  if (mode.brief) return model.brief.map((n) => model.field(n) as FieldMeta);
  return model.fields.filter((f) => f.name !== 'id' && !f.hidden && !f.writeOnly && f.inVersion(mode.version));
}

/** Resolves a dotted path (`device_type.manufacturer.name`) to its scope and field. */
export function resolvePath(scope: SelectScope, path: string): { scope: SelectScope; field: FieldMeta } {
  const parts = path.split('.');
  let s = scope;
  for (const [i, part] of parts.entries()) {
    const field = s.model.field(part);
    if (!field) throw new Error(`${s.model.label} has no field ${part}`);
    if (i === parts.length - 1) return { scope: s, field };
    s = s.join(field);
  }
  throw new Error(`empty path`);
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

/** Display strings of objects by id (missing objects are left out). */
export async function displaysOf(db: Executor, model: ModelMeta, ids: Id[]): Promise<Map<Id, string>> {
  const out = new Map<Id, string>();
  const wanted = ids
    .map((id) => (model.integerPk ? (/^\d+$/.test(String(id)) ? Number(id) : null) : canonicalUuid(String(id))))
    .filter((id): id is Id => id !== null);
  if (wanted.length === 0) return out;
  const sb = new SelectBuilder(model, db.dialect);
  const display = displayEmitter(model, sb.root);
  const idIndex = sb.root.idIndex;
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const rows = await db.rows(`${sb.selectFrom()} WHERE ${q('t0')}.${q(model.pk.column as string)} IN (${params.list(wanted)})`, params.values);
  const rc = renderContext('', DEFAULT_VERSION, db);
  for (const row of rows) out.set(row[idIndex] as Id, String(display(row, rc)));
  return out;
}

/**
 * The emitter of a model's representation at a scope: `id`, `display`, `url`, then the fields of
 * the mode. Every column it needs is added to the scope's SELECT, nested parents as joins.
 */
export function objectEmitter(model: ModelMeta, scope: SelectScope, mode: PlanMode): (row: unknown[], rc: RenderState) => JsonObject {
  const idIndex = scope.idIndex;
  const display = displayEmitter(model, scope);
  const parts: Array<[string, Emitter]> = [];
  for (const field of representedFields(model, mode)) {
    const emitter = field.kind.reader(field, scope, mode);
    if (emitter) parts.push([field.name, emitter]);
  }
  const routed = model.path !== null;
  const listPath = routed ? model.listPath : '';
  return (row, rc) => {
    const id = row[idIndex] as string | number;
    const out: JsonObject = { id, display: display(row, rc) as string };
    if (routed) out.url = `${rc.baseUrl}${listPath}${id}/`;
    for (const [key, emit] of parts) {
      const value = emit(row, rc, out);
      if (value !== undefined) out[key] = value;
    }
    return out;
  };
}

/** How the store's SELECT builders represent nested objects and order them. */
export const representation: Representation = {
  object: objectEmitter,
  order: (model, scope) => orderBy(model, scope, scope.dialect),
};

/** ORDER BY of a model's default ordering at a scope, ending with the primary key. */
export function orderBy(model: ModelMeta, scope: SelectScope, dialect: Dialect): string {
  return orderTerms(model.options.ordering ?? [], model, scope, dialect).join(', ');
}

/**
 * An ordering led by a field of an optional parent (prefixes: `vrf.name`, then `prefix`): rows
 * without the parent come first, ordered by the remaining terms alone, which an index of the
 * model's own columns can serve; only the rows with a parent need the join to sort.
 */
export interface ParentFirstOrder {
  /** The foreign key column of the optional parent, on the model's own table (alias t0). */
  column: string;
  /** ORDER BY of the rows without the parent: the remaining terms and the primary key. */
  withoutParent: string;
}

export function parentFirstOrder(model: ModelMeta, scope: SelectScope, dialect: Dialect): ParentFirstOrder | null {
  const [first, ...rest] = model.options.ordering ?? [];
  if (!first || first.startsWith('-') || first.split('.').length !== 2) return null;
  const parent = model.field(first.split('.')[0]);
  if (!parent?.column || parent.kind.relation !== 'foreign-key') return null;
  const { field } = resolvePath(scope, first);
  // The parent's field must be set whenever the parent is: then NULL means "no parent".
  if (field.nullable) return null;
  for (const entry of rest) {
    if (entry.replace(/^-/, '').includes('.')) return null;
  }
  return { column: parent.column, withoutParent: orderTerms(rest, model, scope, dialect).join(', ') };
}

function orderTerms(ordering: readonly string[], model: ModelMeta, scope: SelectScope, dialect: Dialect): string[] {
  const terms: string[] = [];
  for (const entry of ordering) {
    const desc = entry.startsWith('-');
    const { scope: s, field } = resolvePath(scope, desc ? entry.slice(1) : entry);
    const column = field.column;
    if (!column) continue;
    const ref = s.ref(column);
    const nullable = field.nullable || s !== scope;
    if (nullable) terms.push(`CASE WHEN ${ref} IS NULL THEN 0 ELSE 1 END${desc ? ' DESC' : ''}`);
    const own = field.kind.orderColumns?.(field);
    if (own) {
      for (const c of own) terms.push(`${c.text ? dialect.orderText(s.ref(c.column)) : s.ref(c.column)}${desc ? ' DESC' : ''}`);
      continue;
    }
    const expr = field.kind.textual ? dialect.orderText(ref) : ref;
    terms.push(`${expr}${desc ? ' DESC' : ''}`);
  }
  terms.push(scope.ref(model.pk.column as string));
  return terms;
}

/** A compiled representation: its SELECT and the function turning a row into JSON. */
export interface Plan {
  readonly builder: SelectBuilder;
  readonly emit: (row: unknown[], rc: RenderContext) => JsonObject;
  readonly orderBy: string;
  /** `SELECT … FROM … JOIN …`, built once. */
  readonly select: string;
  readonly parentFirst: ParentFirstOrder | null;
}

/** Plans are built once per model, form, version and dialect, then reused. */
export function planFor(model: ModelMeta, brief: boolean, version: ApiVersion, dialect: Dialect): Plan {
  const cache = (model.extra.plans ??= new Map<string, Plan>()) as Map<string, Plan>;
  const key = `${brief ? 'b' : 'f'}:${version}:${dialect.name}`;
  let plan = cache.get(key);
  if (!plan) {
    const builder = new SelectBuilder(model, dialect, representation);
    const emit = objectEmitter(model, builder.root, { brief, nested: false, version });
    const order = orderBy(model, builder.root, dialect);
    const parentFirst = parentFirstOrder(model, builder.root, dialect);
    plan = { builder, emit, orderBy: order, select: builder.selectFrom(), parentFirst };
    cache.set(key, plan);
  }
  return plan;
}

/** Runs a page's loaders (tags, many-to-many) once each, then emits every row. */
export async function renderRows(plan: Plan, rows: unknown[][], rc: RenderContext): Promise<Json[]> {
  for (const loader of plan.builder.loaders) {
    const ids = new Set<string | number>();
    for (const row of rows) {
      const id = loader.rowKey ? loader.rowKey(row) : row[loader.idIndex];
      if (id !== null && id !== undefined) ids.add(id as string | number);
    }
    rc.loaded.set(loader.key, ids.size ? await loader.load([...ids], rc) : new Map());
  }
  return rows.map((r) => plan.emit(r, rc));
}
