import { PermissionDenied, NotAuthenticated } from '../errors';
import { prepareFeatures } from '../features/registry';
import type { RequestContext } from '../http/context';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject, Values } from '../metadata/types';
import type { Id } from '../query/id';
import { and, FALSE, fieldTest, or, TRUE, type Predicate } from '../query/predicate';
import { planFor, renderRows, representedFields } from '../serializer/representation';
import { renderContext } from '../serializer/render-context';
import type { Executor } from '../store/executor';
import { planRowsOrdered, type PageWindow } from '../store/pages';
import { Store } from '../store/store';
import { LATEST_VERSION } from '../versioning/version';
import { visible } from '../views/read';
import { Batch, chunks } from './batch';
import { restKeysRead } from './rest-keys';
import type { DocumentNode, GraphQLSchema } from 'graphql';

/**
 * One object as GraphQL resolves it: its REST representation (newest API version, opt-in keys
 * included: url, nested ids, choices, tags, config context, computed fields), and on demand its
 * stored values (read for a whole level at once, only when a field needs them: statuses by id,
 * custom field data).
 */
export interface GraphObject {
  readonly model: ModelMeta;
  readonly rest: JsonObject;
  stored(): Promise<Values>;
}

/** The id of the object a representation's key names: a nested object's `id`, or the value itself. */
export function restId(value: Json | undefined): Id | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'object' && !Array.isArray(value)) return ((value as JsonObject).id as Id | undefined) ?? null;
  return typeof value === 'string' || typeof value === 'number' ? value : null;
}

/** The caller's view restriction of a model, as the REST list applies it. */
export type ViewRestriction = (model: ModelMeta) => Promise<Predicate>;

/**
 * Every read of one GraphQL request: objects come through the REST representation and the
 * store, restricted by the caller's view permissions, and nested reads are batched per level.
 */
export class GraphReads {
  readonly db: Executor;
  private readonly restrictions = new Map<ModelMeta, Promise<Predicate>>();
  private readonly batches = new Map<string, Batch<unknown>>();
  private readonly prepared = new Map<ModelMeta, Promise<void>>();
  /** The REST keys the document reads of each model's objects (restKeysRead); null until it is known. */
  private keysRead: Map<ModelMeta, Set<string> | null> | null = null;

  constructor(
    readonly ctx: RequestContext,
    private readonly restriction: ViewRestriction,
  ) {
    this.db = ctx.db.reader;
  }

  /** The rows of `model` the caller may view; none when it may view none (no error, as Nautobot). */
  visibleRows(model: ModelMeta): Promise<Predicate> {
    let p = this.restrictions.get(model);
    if (!p) {
      p = this.restriction(model).then(
        (restrict) => visible(this.ctx, model, restrict),
        (err: unknown) => {
          if (err instanceof PermissionDenied || err instanceof NotAuthenticated) return FALSE;
          throw err;
        },
      );
      this.restrictions.set(model, p);
    }
    return p;
  }

  /** A batch shared by every resolver asking the same question in this request. */
  batch<R>(key: string, loadMany: (keys: Id[]) => Promise<Map<Id, R>>): Batch<R> {
    let b = this.batches.get(key) as Batch<R> | undefined;
    if (!b) this.batches.set(key, (b = new Batch<R>(loadMany)) as Batch<unknown>);
    return b;
  }

  private prepare(model: ModelMeta): Promise<void> {
    let p = this.prepared.get(model);
    if (!p) this.prepared.set(model, (p = prepareFeatures(this.ctx.registry, model, this.db, this.ctx.features)));
    return p;
  }

  /** Learns which fields the document reads of each model, so that objects are read with those alone. */
  expect(schema: GraphQLSchema, document: DocumentNode): void {
    this.keysRead = restKeysRead(schema, document);
  }

  /** The fields of `model` to represent: those the document reads and `also`, or null for all of them. */
  private fieldsRead(model: ModelMeta, also: readonly string[]): string[] | null {
    const keys = this.keysRead?.get(model);
    if (!keys) return null;
    return representedFields(model, { brief: false, nested: true, version: LATEST_VERSION })
      .map((f) => f.name)
      .filter((name) => keys.has(name) || also.includes(name));
  }

  /**
   * Objects matching `where`, in the model's ordering, within `window`; `also`: fields the caller
   * reads of them beside those the document selects (the one that groups them by owner).
   */
  async objects(model: ModelMeta, where: Predicate, window: PageWindow = { offset: 0, limit: null }, also: readonly string[] = []): Promise<GraphObject[]> {
    const plan = planFor(model, false, LATEST_VERSION, this.db.dialect, { withoutCounts: true, fields: this.fieldsRead(model, also) });
    const rows = await planRowsOrdered(this.db, model, plan, where, window);
    if (rows.length === 0) return [];
    await this.prepare(model);
    const rc = renderContext(this.ctx.baseUrl, LATEST_VERSION, this.db, { include: () => true });
    rc.features.assign(this.ctx.features);
    const rendered = (await renderRows(plan, rows, rc)) as JsonObject[];
    const values = this.batch<Values>(`values:${model.label}`, async (ids) => {
      const out = new Map<Id, Values>();
      const store = new Store(this.db);
      for (const part of chunks(ids)) for (const v of await store.find(model, part)) out.set(v.id as Id, v);
      return out;
    });
    return rendered.map((rest) => ({ model, rest, stored: async () => (await values.load(rest.id as Id)) ?? {} }));
  }

  /** Objects by id, grouped per id; with `restricted`, only those the caller may view. */
  async byIds(model: ModelMeta, ids: Id[], restricted: boolean): Promise<Map<Id, GraphObject>> {
    const out = new Map<Id, GraphObject>();
    const allowed = restricted ? await this.visibleRows(model) : TRUE;
    for (const part of chunks(ids)) {
      for (const obj of await this.objects(model, and([allowed, fieldTest(model.pk, 'exact', part)]))) out.set(obj.rest.id as Id, obj);
    }
    return out;
  }

  /**
   * Objects of `model` whose `via` field names one of `owners`, grouped by owner in the model's
   * ordering; `extra` narrows them (filters, the generic relation's type).
   */
  async pointing(model: ModelMeta, via: FieldMeta, owners: Id[], extra: Predicate): Promise<Map<Id, GraphObject[]>> {
    const out = new Map<Id, GraphObject[]>();
    const allowed = await this.visibleRows(model);
    for (const part of chunks(owners)) {
      for (const obj of await this.objects(model, and([allowed, extra, fieldTest(via, 'exact', part)]), undefined, [via.name])) {
        const owner = restId(obj.rest[via.name]) ?? ((await obj.stored())[via.name] as Id);
        let list = out.get(owner);
        if (!list) out.set(owner, (list = []));
        list.push(obj);
      }
    }
    return out;
  }

  /**
   * Objects of `model` linked through its many-to-many `field` to one of `targets`, grouped by
   * target in the model's ordering (an object linked to several targets is in each group).
   */
  async linking(model: ModelMeta, field: FieldMeta, targets: Id[]): Promise<Map<Id, GraphObject[]>> {
    const out = new Map<Id, GraphObject[]>();
    const allowed = await this.visibleRows(model);
    // One link test per target: a link predicate holds when the object is linked to all its values.
    for (const part of chunks(targets, LINK_TESTS_PER_STATEMENT)) {
      const wanted = new Set(part);
      const linked = or(part.map((id) => fieldTest(field, 'exact', [id])));
      for (const obj of await this.objects(model, and([allowed, linked]), undefined, [field.name])) {
        const shown = obj.rest[field.name];
        const ids = Array.isArray(shown) ? shown.map((x) => restId(x)) : (((await obj.stored())[field.name] as Id[] | undefined) ?? []);
        for (const id of ids) {
          if (id === null || !wanted.has(id)) continue;
          let list = out.get(id);
          if (!list) out.set(id, (list = []));
          list.push(obj);
        }
      }
    }
    return out;
  }
}

/** Targets whose links one statement tests (each is a subquery). */
const LINK_TESTS_PER_STATEMENT = 200;
