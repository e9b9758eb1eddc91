import type { Executor } from '../db/executor';
import { Params } from '../db/params';
import { paginateClause } from '../db/dialect/types';
import { NotFound } from '../errors';
import { filterSetFor, type FilterDef } from '../filterset/filterset';
import { and, compilePredicate, type Predicate } from '../filterset/predicate';
import type { RequestContext } from '../http/context';
import type { Reply } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import { pageLinks, pageOf } from '../pagination/paginator';
import { planFor, renderRows, type Plan } from '../serializer/representation';
import { renderContext, type RenderContext } from '../serializer/render-context';
import type { Id } from '../serializer/select';
import { featureFilters, prepareFeatures } from '../features/registry';

/** `brief` is on for any non-empty value except the usual spellings of false; GET only. */
export function wantsBrief(ctx: RequestContext): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const v = ctx.param('brief');
  if (v === undefined || v === '') return false;
  return !['0', 'false', 'no', 'off'].includes(v.trim().toLowerCase());
}

/** Rows a caller may see: permission constraints and the model's own scope (own tokens only). */
export function visible(ctx: RequestContext, model: ModelMeta, restrict: Predicate): Predicate {
  const scope = model.options.scope;
  return scope ? and([restrict, scope(ctx)]) : restrict;
}

/**
 * Which opt-in fields (`relationships`, `computed_fields`) a response carries, as Nautobot's
 * OptInFieldsMixin decides: on GET, a single `include` value is matched as a substring (so
 * `include=computed_fields,relationships` works) and repeated values must match exactly; every
 * other method includes them all.
 */
export function includeOf(ctx: RequestContext): (name: string) => boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return () => true;
  const values = ctx.query.get('include') ?? [];
  if (values.length === 0) return () => false;
  if (values.length === 1) return (name) => values[0].includes(name);
  return (name) => values.includes(name);
}

/** Render state of a request for objects of `model`, with its features' data loaded once. */
export async function newRenderContext(ctx: RequestContext, db: Executor, model: ModelMeta): Promise<RenderContext> {
  await prepareFeatures(ctx.registry, model, db, ctx.features);
  const rc = renderContext(ctx.baseUrl, ctx.version as NonNullable<RequestContext['version']>, db, includeOf(ctx));
  for (const [k, v] of ctx.features) rc.features.set(k, v);
  return rc;
}

/** Renders objects by id with the full (or brief) plan, in the model's ordering. */
export async function renderByIds(ctx: RequestContext, model: ModelMeta, ids: Id[], db: Executor, brief = false): Promise<Json[]> {
  if (ids.length === 0) return [];
  const plan = planFor(model, brief, ctx.version as NonNullable<RequestContext['version']>, db.dialect);
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const rows = await db.rows(
    `${plan.select} WHERE ${q('t0')}.${q(model.pk.column as string)} IN (${params.list(ids)}) ORDER BY ${plan.orderBy}`,
    params.values,
  );
  return renderRows(plan, rows, await newRenderContext(ctx, db, model));
}

export async function renderOne(ctx: RequestContext, model: ModelMeta, id: Id, db: Executor): Promise<JsonObject> {
  const [obj] = await renderByIds(ctx, model, [id], db);
  if (!obj) throw new NotFound();
  return obj as JsonObject;
}

/** Dynamic filters (custom fields, relationships) that features add per request. */
export type ExtraFilters = (name: string) => FilterDef | undefined;

export async function listView(ctx: RequestContext, model: ModelMeta, restrict: Predicate): Promise<Reply> {
  const db = ctx.db.reader;
  const filters = filterSetFor(model);
  await prepareFeatures(ctx.registry, model, db, ctx.features, ctx.query.keys());
  const extra = featureFilters(ctx.registry, model, ctx.features, ctx.version as NonNullable<RequestContext['version']>);
  const where = and([visible(ctx, model, restrict), await filters.parse(ctx.query, { db }, ctx.config.strictFiltering, extra)]);
  const page = pageOf(ctx);
  const plan: Plan = planFor(model, wantsBrief(ctx), ctx.version as NonNullable<RequestContext['version']>, db.dialect);
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const condition = compilePredicate(where, model, 't0', params);
  const [[total]] = await db.rows(`SELECT COUNT(*) FROM ${q(model.table)} ${q('t0')} WHERE ${condition}`, params.values);
  const count = Number(total);
  let results: Json[] = [];
  if (page.offset < count && page.limit !== 0) {
    const pageParams = params.fork();
    const clause = paginateClause(
      db.dialect,
      page.limit === null ? null : pageParams.add(page.limit),
      pageParams.add(page.offset),
    );
    const rows = await db.rows(`${plan.select} WHERE ${condition} ORDER BY ${plan.orderBy} ${clause}`, pageParams.values);
    results = await renderRows(plan, rows, await newRenderContext(ctx, db, model));
  }
  const links = pageLinks(ctx, page, count);
  return { status: 200, body: { count, next: links.next, previous: links.previous, results } };
}

export async function retrieveView(ctx: RequestContext, model: ModelMeta, id: Id, restrict: Predicate): Promise<Reply> {
  const db = ctx.db.reader;
  const plan = planFor(model, wantsBrief(ctx), ctx.version as NonNullable<RequestContext['version']>, db.dialect);
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const condition = compilePredicate(
    and([visible(ctx, model, restrict), { kind: 'field', field: model.pk, lookup: 'exact', values: [id] }]),
    model,
    't0',
    params,
  );
  const rows = await db.rows(`${plan.select} WHERE ${condition}`, params.values);
  if (rows.length === 0) throw new NotFound();
  const [obj] = await renderRows(plan, rows, await newRenderContext(ctx, db, model));
  return { status: 200, body: obj };
}
