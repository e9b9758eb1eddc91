import type { Action } from '../auth/types';
import { Store } from '../store/store';
import type { Executor } from '../store/executor';
import { NotFound } from '../errors';
import { ormFilter } from '../query/orm';
import { and, fieldTest, type Predicate } from '../query/predicate';
import type { RequestContext } from '../http/context';
import type { Reply } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import type { FieldKind } from '../fields/kind';
import type { Json, ModelClass } from '../metadata/types';
import type { Id } from '../query/id';

import type { Values } from '../serializer/write-context';
import type { ActionDoc, HandlerArgs, ModelAction } from './declared-routes';
import { visible } from '../views/read';
import { createObjects, inTransaction, renderInOrder } from '../views/write';
import { listAll, listView, renderByIds, renderOne } from '../views/read';
import { pageLinks, pageOf } from '../pagination/paginator';
import type { FormBody } from '../http/form';

/** What an extra action's handler works with: the request, its object and the write path. */
export class ActionRequest {
  constructor(readonly ctx: RequestContext, readonly args: HandlerArgs, readonly model: ModelMeta) {}

  get id(): Id {
    if (this.args.id === undefined) throw new NotFound();
    return this.args.id;
  }

  /** Settings of the application the model belongs to (a plugin's configuration). */
  get settings(): Readonly<Record<string, unknown>> {
    return this.model.app.settings;
  }

  meta(cls: ModelClass): ModelMeta {
    return this.ctx.registry.forClass(cls);
  }

  body(): unknown {
    return this.args.body();
  }

  form(): Promise<FormBody> {
    return this.args.form();
  }

  /** The restriction of the caller for `action` on `cls` (object permissions). */
  restrict(cls: ModelClass, action: Action): Promise<Predicate> {
    return this.args.restrictFor(this.meta(cls), action);
  }

  /**
   * The stored values of this detail URL's object if `restrict` lets the caller see it, else 404:
   * those of `fields` alone when given (and the primary key), saving the reads of its links.
   */
  async object(db: Executor, restrict: Predicate, fields?: readonly string[]): Promise<Values> {
    const store = new Store(db);
    const where = and([visible(this.ctx, this.model, restrict), fieldTest(this.model.pk, 'exact', [this.id])]);
    const [values] = fields ? await store.findFields(this.model, where, fields) : await store.find(this.model, where);
    if (!values) throw new NotFound();
    return values;
  }

  /** Stored values of the objects of `cls` matching Django-style attributes. */
  find(db: Executor, cls: ModelClass, attributes: Record<string, unknown>): Promise<Values[]> {
    const model = this.meta(cls);
    return new Store(db).find(model, ormFilter(model, attributes));
  }

  /** One transaction; a unique violation inside it becomes a 400 as on the model endpoints. */
  transaction<T>(cls: ModelClass, fn: (tx: Executor) => Promise<T>): Promise<T> {
    return inTransaction(this.ctx, this.meta(cls), fn);
  }

  /** Creates objects through the model's normal validation, inside `tx`. */
  create(tx: Executor, cls: ModelClass, items: unknown[], many: boolean, restrict: Predicate): Promise<Id[]> {
    return createObjects(this.ctx, tx, this.meta(cls), items, many, restrict);
  }

  /** The nested form of an object as other objects embed it (annotated counts left out). */
  async nested(cls: ModelClass, id: Id): Promise<Json> {
    const model = this.meta(cls);
    const [obj] = await renderByIds(this.ctx, model, [id], this.ctx.db.reader, true);
    return obj ? withoutAnnotations(model, obj) : null;
  }

  /** The nested form of an object read in the transaction `tx` (see renderIn). */
  async nestedIn(tx: Executor, cls: ModelClass, id: Id): Promise<Json> {
    const model = this.meta(cls);
    const [obj] = await renderByIds(this.ctx, model, [id], tx, true);
    return obj ? withoutAnnotations(model, obj) : null;
  }

  /** Nested forms of many objects of one model in one read, by id (annotated counts left out). */
  async nestedMany(cls: ModelClass, ids: Id[]): Promise<Map<Id, Json>> {
    const model = this.meta(cls);
    const out = new Map<Id, Json>();
    if (ids.length === 0) return out;
    for (const obj of await renderByIds(this.ctx, model, ids, this.ctx.db.reader, true)) {
      const nested = withoutAnnotations(model, obj);
      out.set(nested.id as Id, nested);
    }
    return out;
  }

  /** A list computed in memory, answered in the pagination envelope of this request's `limit`/`offset`. */
  paginate(items: readonly Json[]): Reply {
    const page = pageOf(this.ctx);
    const results = page.limit === null ? items.slice(page.offset) : items.slice(page.offset, page.offset + page.limit);
    return { status: 200, body: { count: items.length, ...pageLinks(this.ctx, page, items.length), results } };
  }

  /**
   * A page of another model's objects limited by `where`, answered as that model's list endpoint
   * answers (envelope, links to this URL, the request's filters): a note list under its object.
   */
  list(cls: ModelClass, where: Predicate): Promise<Reply> {
    return listView(this.ctx, this.meta(cls), where);
  }

  /**
   * Every object of `model` the caller may view that its list endpoint would answer for this
   * request's query parameters (its filters), unpaginated, in full representation.
   */
  async listAll(model: ModelMeta, maxObjects: number): Promise<Json[]> {
    return listAll(this.ctx, model, await this.args.restrictFor(model, 'view'), maxObjects);
  }

  /** Full representations in the given order, or one object. */
  async render(cls: ModelClass, ids: Id[], many: boolean): Promise<Json> {
    const model = this.meta(cls);
    return many ? renderInOrder(this.ctx, model, ids) : renderOne(this.ctx, model, ids[0], this.ctx.db.reader);
  }

  /**
   * One object's full representation read in the transaction `tx`: the state this request wrote,
   * before anything else (a job worker claiming a queued run) can change it after the commit.
   */
  renderIn(tx: Executor, cls: ModelClass, id: Id): Promise<Json> {
    return renderOne(this.ctx, this.meta(cls), id, tx);
  }
}

/** An object's nested form as other objects embed it: without the annotated counts. */
function withoutAnnotations(model: ModelMeta, obj: Json): Record<string, Json> {
  const out = { ...(obj as Record<string, Json>) };
  for (const f of model.fields) if (f.kind.annotation) delete out[f.name];
  return out;
}

export type ActionHandler = (req: ActionRequest) => Promise<Reply>;

export interface ActionMethodSpec {
  /** Permission needed (on `permissionModel`, default the action's model). */
  action: Action;
  permissionModel?: ModelClass;
  handler: ActionHandler;
  /** How the OpenAPI document and the generated reference describe the method. */
  doc?: ActionDoc;
}

type ActionSpecs = Record<string, { detail: boolean } & Partial<Record<'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', ActionMethodSpec>>>;

/**
 * Extra routes of a model, as DRF's `@action`: `/api/<app>/<path>/<id>/<name>/` when `detail`.
 * `owner` is the model, or `{ withField: kind }`: every model declaring a field of that kind (the
 * `notes/` route of each model with `notes_url`). The app passes the result to the server; these
 * are the only hand-written routes.
 */
export function defineActions(owner: ModelClass | { withField: FieldKind }, actions: ActionSpecs): ModelAction[] {
  const cls = typeof owner === 'function' ? owner : null;
  return Object.entries(actions).map(([path, spec]) => {
    const methods: ModelAction['methods'] = {};
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const method = spec[m];
      if (!method) continue;
      methods[m] = {
        action: method.action,
        permissionModel: method.permissionModel,
        doc: method.doc,
        handler: (ctx, args) => method.handler(new ActionRequest(ctx, args, args.model ?? ctx.registry.forClass(cls as ModelClass))),
      };
    }
    const target = cls ? { model: cls } : { withField: (owner as { withField: FieldKind }).withField };
    return { ...target, path, detail: spec.detail, methods };
  });
}
