import { parseId } from '../fields/foreign-key';
import { linkOf } from '../fields/many-to-many';
import type { Loader, ObjectEmitter, PlanMode, RelatedObjects, RenderState, Row } from '../fields/kind';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json } from '../metadata/types';
import type { Id } from '../query/id';
import type { Executor } from './executor';
import { Params } from './params';

/** What the store's loaders need of the page being rendered: what kinds see, and the connection. */
export interface LoadContext extends RenderState {
  readonly db: Executor;
}

/** A SELECT of a loader's own (store/select.ts builds it), read in the target's nested form. */
export interface NestedSelect {
  /** Expressions selected so far, and the LEFT JOINs they need. */
  readonly exprs: readonly string[];
  readonly joins: readonly string[];
  /** Adds an expression (deduplicated) and returns its position in the row. */
  add(sql: string): number;
  /** Position of a column of the target's table (alias `t0`). */
  column(column: string): number;
  /** The target's nested form, reading what it needs into this SELECT. */
  nested(mode: PlanMode): ObjectEmitter;
  /** ORDER BY of the target's default ordering. */
  order(): string;
  /** `SELECT … FROM … LEFT JOIN …` without WHERE/ORDER. */
  selectFrom(): string;
  /** Loaders the nested form registered (values not in the row: computed keys, tags). */
  readonly loaders: readonly Loader[];
}

/** The rows a loader is registered for: a scope of the page's SELECT. */
export interface LoaderOwner {
  readonly model: ModelMeta;
  readonly key: string;
  readonly idIndex: number;
  column(column: string): number;
}

/** Starts a SELECT of `model`'s rows for a loader. */
export type SelectOf = (model: ModelMeta, rc: LoadContext) => NestedSelect;

/** One compiled query of a loader: its SQL with a `%WHERE%` slot, and how to read its rows. */
interface Compiled {
  readonly sql: string;
  /** Loaders of the emitted form, run on the fetched rows before they are emitted. */
  readonly loaders?: readonly Loader[];
  /** Position of the owner's id (linked, pointing). */
  readonly ownerIndex: number;
  readonly emit: (row: Row, rc: LoadContext) => Json;
}

/** Compiled queries by dialect: plans are per dialect, and so are their loaders. */
function perDialect<T>(build: (rc: LoadContext) => T): (rc: LoadContext) => T {
  const cache = new Map<string, T>();
  return (rc) => {
    let compiled = cache.get(rc.db.dialect.name);
    if (!compiled) cache.set(rc.db.dialect.name, (compiled = build(rc)));
    return compiled;
  };
}

/** Runs the emitted form's own loaders over the fetched rows, as a page's loaders run over its rows. */
async function runLoaders(rows: Row[], compiled: Compiled, rc: LoadContext): Promise<void> {
  for (const loader of compiled.loaders ?? []) {
    const ids = new Set<Id>();
    for (const row of rows) {
      const id = loader.rowKey ? loader.rowKey(row) : (row[loader.idIndex] as Id | null);
      if (id !== null && id !== undefined) ids.add(id);
    }
    rc.loaded.set(loader.key, ids.size ? await loader.load([...ids], rc) : new Map());
  }
}

/** Groups rows by owner into lists of emitted values. */
function byOwner(rows: Row[], compiled: Compiled, rc: LoadContext): Map<Id, Json> {
  const out = new Map<Id, Json>();
  for (const row of rows) {
    const owner = row[compiled.ownerIndex] as Id;
    let list = out.get(owner) as Json[] | undefined;
    if (!list) out.set(owner, (list = []));
    list.push(compiled.emit(row, rc));
  }
  return out;
}

/** The loader a scope registers for related objects of its rows (see RelatedObjects). */
export function relatedLoader(spec: RelatedObjects, owner: LoaderOwner, mode: PlanMode, select: SelectOf): Loader {
  const key = `${owner.model.label}.${spec.field.name}:${owner.key}`;
  switch (spec.kind) {
    case 'linked':
      return linkedLoader(spec.field, spec.slugField, owner.idIndex, mode, key, select);
    case 'pointing':
      return pointingLoader(spec, owner.idIndex, mode, key, select);
    case 'generic': {
      const idIndex = owner.column(spec.idColumn);
      const typeIndex = owner.column(spec.typeColumn);
      return genericLoader(spec.targets, typeIndex, idIndex, mode, key, select);
    }
  }
}

/** Loads the nested form of linked objects for a page of owners, in the target's ordering. */
function linkedLoader(field: FieldMeta, slugField: string | undefined, ownerIdIndex: number, mode: PlanMode, key: string, select: SelectOf): Loader {
  const target = field.target as ModelMeta;
  const link = linkOf(field);
  const compile = perDialect((rc): Compiled => {
    const dialect = rc.db.dialect;
    const sb = select(target, rc);
    const q = dialect.quote;
    let emit: (row: Row, rc: LoadContext) => Json;
    if (slugField) {
      const slugIndex = sb.add(`${q('t0')}.${q(target.field(slugField)?.column as string)}`);
      emit = (row) => row[slugIndex] as Json;
    } else {
      emit = sb.nested({ brief: true, nested: true, version: mode.version });
    }
    const ownerIndex = sb.add(`${q('lk')}.${q(link.owner)}`);
    const order = sb.order();
    const from = `${q(target.table)} ${q('t0')} JOIN ${q(link.table)} ${q('lk')} ON ${q('lk')}.${q(link.target)} = ${q('t0')}.${q(target.pk.column as string)}`;
    const sql = `SELECT ${sb.exprs.join(', ')} FROM ${from}${sb.joins.length ? ' ' + sb.joins.join(' ') : ''} WHERE %WHERE% ORDER BY ${order}`;
    return { sql, ownerIndex, emit };
  });
  return {
    key,
    idIndex: ownerIdIndex,
    async load(ids: Id[], rc: LoadContext): Promise<Map<Id, Json>> {
      const compiled = compile(rc);
      const params = new Params(rc.db.dialect);
      const q = rc.db.dialect.quote;
      let where = params.in(`${q('lk')}.${q(link.owner)}`, ids);
      if (link.discriminator) where += ` AND ${q('lk')}.${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
      return byOwner(await rc.db.rows(compiled.sql.replace('%WHERE%', where), params.values), compiled, rc);
    },
  };
}

/** Loads the objects pointing at each owner through their foreign key `via`, in their ordering. */
function pointingLoader(spec: Extract<RelatedObjects, { kind: 'pointing' }>, idIndex: number, mode: PlanMode, key: string, select: SelectOf): Loader {
  const { field, via, where: condition, form } = spec;
  const target = field.target as ModelMeta;
  const compile = perDialect((rc): Compiled => {
    const sb = select(target, rc);
    const emit = sb.nested(form ? { brief: false, nested: true, version: mode.version, fields: form } : { brief: true, nested: true, version: mode.version });
    const ownerIndex = sb.column(via.column as string);
    // The ordering may join further tables (a termination orders by its circuit's provider): before the FROM is built.
    const order = sb.order();
    // A form of chosen fields may hold computed keys whose values load beside the rows.
    return { sql: `${sb.selectFrom()} WHERE %WHERE% ORDER BY ${order}`, ownerIndex, emit, loaders: form ? sb.loaders : [] };
  });
  return {
    key,
    idIndex,
    async load(ids: Id[], rc: LoadContext): Promise<Map<Id, Json>> {
      const compiled = compile(rc);
      const params = new Params(rc.db.dialect);
      const q = rc.db.dialect.quote;
      let where = params.in(`${q('t0')}.${q(via.column as string)}`, ids);
      if (condition) where += ` AND ${q('t0')}.${q(condition.field.column as string)} = ${params.add(condition.value)}`;
      const rows = await rc.db.rows(compiled.sql.replace('%WHERE%', where), params.values);
      await runLoaders(rows, compiled, rc);
      return byOwner(rows, compiled, rc);
    },
  };
}

/** Separates the type and the id in the keys the generic loader works with. */
const PAIR = '|';

/**
 * Loads the nested forms of the targets on a page, keyed `type|id`: one query per type present
 * on the page (a note list touches only the types its notes name, not every model).
 */
function genericLoader(targets: readonly ModelMeta[], typeIndex: number, idIndex: number, mode: PlanMode, key: string, select: SelectOf): Loader {
  const cache = new Map<string, Map<string, { sql: string; emit: ObjectEmitter }>>();
  return {
    key,
    idIndex,
    rowKey(row: Row): Id | null {
      const type = row[typeIndex];
      const id = row[idIndex];
      return type === null || type === undefined || id === null || id === undefined ? null : `${String(type)}${PAIR}${String(id)}`;
    },
    async load(keys: Id[], rc: LoadContext): Promise<Map<Id, Json>> {
      const dialect = rc.db.dialect;
      let compiled = cache.get(dialect.name);
      if (!compiled) cache.set(dialect.name, (compiled = new Map()));
      const byType = new Map<string, string[]>();
      for (const k of keys) {
        const [type, id] = String(k).split(PAIR);
        byType.set(type, [...(byType.get(type) ?? []), id]);
      }
      const out = new Map<Id, Json>();
      const q = dialect.quote;
      for (const [type, ids] of byType) {
        const model = targets.find((m) => m.label === type);
        if (!model) continue;
        let c = compiled.get(type);
        if (!c) {
          const sb = select(model, rc);
          const emit = sb.nested({ brief: true, nested: true, version: mode.version });
          // Results are keyed by id: no ordering (which may need joins the nested form does not make).
          c = { sql: `${sb.selectFrom()} WHERE %WHERE%`, emit };
          compiled.set(type, c);
        }
        // A stored id that is not one of the model's ids matches nothing (PostgreSQL refuses to compare it).
        const wanted = ids.map((id) => parseId(model, id)).filter((id): id is Id => id !== null);
        if (wanted.length === 0) continue;
        const params = new Params(dialect);
        const where = params.in(`${q('t0')}.${q(model.pk.column as string)}`, wanted);
        for (const row of await rc.db.rows(c.sql.replace('%WHERE%', where), params.values)) {
          const obj = c.emit(row, rc) as { id: Id };
          out.set(`${type}${PAIR}${String(obj.id)}`, obj as unknown as Json);
        }
      }
      return out;
    },
  };
}
