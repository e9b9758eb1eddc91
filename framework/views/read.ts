import { DataKey, RequestData } from '../metadata/request-data';
import type { Executor, ObjectRow } from '../store/executor';
import { planRowsById, planRowsInOrder, planRowsWhere, readPage, type PageRead, type PageWindow } from '../store/pages';
import { NotFound, ValidationError } from '../errors';
import { filterSetFor, type FilterDef } from '../filterset/filterset';
import { and, fieldTest, type Predicate } from '../query/predicate';
import type { RequestContext } from '../http/context';
import type { Reply } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import { pageLinks, pageOf } from '../pagination/paginator';
import { loadForRows, planFor, renderRows, type Plan } from '../serializer/representation';
import { includeFrom, renderContext, type RenderContext } from '../serializer/render-context';
import type { Id } from '../query/id';
import { featureFilters, prepareFeatures } from '../features/registry';
import { entityTag, notModified } from './etag';

/** The `brief` parameter: on for any non-empty value except the usual spellings of false. */
function briefParam(ctx: RequestContext): boolean {
  const v = ctx.param('brief');
  if (v === undefined || v === '') return false;
  return !['0', 'false', 'no', 'off'].includes(v.trim().toLowerCase());
}

/** Brief form on GET; on writes too for models that ask for it (Nautobot's device and VM views). */
export function wantsBrief(ctx: RequestContext, model?: ModelMeta): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !model?.options.briefOnWrites) return false;
  return briefParam(ctx);
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Rows a caller may see: permission constraints and the model's own scope (own tokens only). */
export function visible(ctx: RequestContext, model: ModelMeta, restrict: Predicate): Predicate {
  // A model's static `scope(ctx)` limits the rows any caller sees (tokens: the caller's own).
  const scope = model.hook('scope') as ((ctx: RequestContext) => Predicate) | undefined;
  return scope ? and([restrict, scope(ctx)]) : restrict;
}

/**
 * Which opt-in fields (`relationships`, `computed_fields`) a response carries, as Nautobot's
 * OptInFieldsMixin decides: on GET, a single `include` value is matched as a substring (so
 * `include=computed_fields,relationships` works) and repeated values must match exactly; every
 * other method includes them all.
 */
export function includeOf(ctx: Pick<RequestContext, 'method' | 'query'>): (name: string) => boolean {
  return includeFrom(ctx.query, ctx.method !== 'GET' && ctx.method !== 'HEAD');
}

/** Render state of a request for objects of `model`, with its features' data loaded once. */
export async function newRenderContext(ctx: RequestContext, db: Executor, model: ModelMeta): Promise<RenderContext> {
  await prepareFeatures(ctx.registry, model, db, ctx.features);
  const rc = renderContext(ctx.baseUrl, ctx.version as NonNullable<RequestContext['version']>, db, {
    query: ctx.query,
    writing: !READS.has(ctx.method),
    creating: ctx.method === 'POST',
    include: includeOf(ctx),
  });
  rc.features.assign(ctx.features);
  return rc;
}

/** Renders objects by id with the full (or brief) plan, in the model's ordering. */
export async function renderByIds(ctx: RequestContext, model: ModelMeta, ids: Id[], db: Executor, brief = false): Promise<Json[]> {
  if (ids.length === 0) return [];
  const plan = planFor(model, brief, ctx.version as NonNullable<RequestContext['version']>, db.dialect, { single: ids.length === 1 });
  const rows = await planRowsById(db, model, plan.selectByIds ?? plan.select, ids, plan.orderBy);
  return renderRows(plan, rows, await newRenderContext(ctx, db, model));
}

export async function renderOne(ctx: RequestContext, model: ModelMeta, id: Id, db: Executor, brief = false): Promise<JsonObject> {
  const [obj] = await renderByIds(ctx, model, [id], db, brief);
  if (!obj) throw new NotFound();
  return obj as JsonObject;
}

/**
 * Rows of objects read by a write just before its commit (the change log's snapshots), by model,
 * statement text and id: the write's response is rendered from them instead of reading the object
 * a second time. The statement text stands for the row's layout: plans of another version or of
 * the brief form read the same columns.
 */
const ROWS_AT_COMMIT = new DataKey<Map<string, unknown[]>>('views:rows-at-commit');

function rowKey(model: ModelMeta, select: string, id: Id): string {
  return `${model.label}\u0000${select}\u0000${String(id)}`;
}

function keepRows(features: RequestData, model: ModelMeta, plan: Plan, rows: unknown[][]): void {
  let kept = features.get(ROWS_AT_COMMIT);
  if (!kept) features.set(ROWS_AT_COMMIT, (kept = new Map()));
  const select = plan.selectByIds ?? plan.select;
  // Copies: rendering the snapshot may add loaded columns to its rows.
  for (const row of rows) kept.set(rowKey(model, select, row[plan.builder.root.idIndex] as Id), row.slice());
}

/** One object rendered with its entity tag, both from the same read (write responses). */
export async function renderTagged(ctx: RequestContext, model: ModelMeta, id: Id, db: Executor, brief = false): Promise<{ body: JsonObject; etag: string }> {
  const kept = keptRows(ctx, model, [id], db, brief);
  const plan = kept?.plan ?? planFor(model, brief, ctx.version as NonNullable<RequestContext['version']>, db.dialect, { single: true });
  const rows = kept?.rows ?? (await planRowsById(db, model, plan.select, [id], plan.orderBy));
  if (rows.length === 0) throw new NotFound();
  const [obj] = await renderRows(plan, rows, await newRenderContext(ctx, db, model));
  return { body: obj as JsonObject, etag: entityTag(rows[0][plan.builder.root.idIndex] as Id, rows[0][plan.versionIndex]) };
}

/**
 * Objects a write just made, in the order of `ids` (bulk creates answer in request order): from
 * the rows its change log read before the commit when it kept every one of them, else read again.
 */
export async function renderWritten(ctx: RequestContext, model: ModelMeta, ids: Id[], db: Executor, brief = false): Promise<Json[]> {
  if (ids.length === 0) return [];
  const kept = keptRows(ctx, model, ids, db, brief);
  const plan = kept?.plan ?? planFor(model, brief, ctx.version as NonNullable<RequestContext['version']>, db.dialect, { single: ids.length === 1 });
  const rows = kept?.rows ?? (await planRowsInOrder(db, model, plan, ids));
  return renderRows(plan, rows, await newRenderContext(ctx, db, model));
}

/**
 * The rows a write's change log kept for all of these objects, with the plan to render them
 * with (the response's form, reading the stored columns as the snapshots did); null unless
 * every object has one in that plan's layout.
 */
function keptRows(ctx: RequestContext, model: ModelMeta, ids: Id[], db: Executor, brief: boolean): { plan: Plan; rows: unknown[][] } | null {
  const kept = ctx.features.get(ROWS_AT_COMMIT);
  if (!kept) return null;
  const plan = planFor(model, brief, ctx.version as NonNullable<RequestContext['version']>, db.dialect, { single: ids.length === 1, stored: true });
  const select = plan.selectByIds ?? plan.select;
  const rows: unknown[][] = [];
  for (const id of ids) {
    const row = kept.get(rowKey(model, select, id));
    if (!row) return null;
    rows.push(row);
  }
  return { plan, rows };
}

/** Dynamic filters (custom fields, relationships) that features add per request. */
export type ExtraFilters = (name: string) => FilterDef | undefined;

/**
 * Time a list query evaluating client regular expressions may take on PostgreSQL and
 * MySQL/MariaDB before the server cancels it (SQLite's RE2 engine runs in linear time).
 */
export const REGEX_QUERY_TIMEOUT_MS = 750;

/**
 * The list endpoint's selection for this request: its filters (with the features' dynamic ones),
 * the caller's permission predicate and the model's scope, and a reader of one window of it in
 * `plan`'s form (bounded in time when the filters evaluate client regular expressions).
 */
async function listSelection(ctx: RequestContext, model: ModelMeta, restrict: Predicate) {
  const db = ctx.db.reader;
  await prepareFeatures(ctx.registry, model, db, ctx.features, ctx.query.keys());
  const extra = featureFilters(ctx.registry, model, ctx.features, ctx.version as NonNullable<RequestContext['version']>);
  const parsed = await filterSetFor(model).parseQuery(ctx.query, { db }, ctx.config.strictFiltering, extra);
  const where = and([visible(ctx, model, restrict), parsed.predicate]);
  const limits = { chunkRows: STREAM_CHUNK_ROWS, sortIdsFirstRows: db.dialect.idsFirstAbove };
  const read = (plan: Plan, page: PageWindow): Promise<PageRead> => {
    if (!parsed.regexParams.length) return readPage(db, model, plan, where, page, limits);
    // Every statement that evaluates a pattern runs under the time limit: a long list's ids are
    // all read inside it (here they are held, not streamed).
    return boundedFetch(ctx, parsed.regexParams, async (reader) => {
      const read = await readPage(reader, model, plan, where, page, limits);
      if (!read.ids) return read;
      const chunks: Id[][] = [];
      for await (const chunk of read.ids) chunks.push(chunk);
      return { ...read, ids: chunksOf(chunks) };
    });
  };
  return { db, read };
}

export async function listView(ctx: RequestContext, model: ModelMeta, restrict: Predicate): Promise<Reply> {
  const { db, read } = await listSelection(ctx, model, restrict);
  const page = pageOf(ctx);
  const plan: Plan = planFor(model, wantsBrief(ctx), ctx.version as NonNullable<RequestContext['version']>, db.dialect);
  const { count, rows, ids } = await read(plan, page);
  const links = pageLinks(ctx, page, count);
  if (ids) {
    const rc = await newRenderContext(ctx, db, model);
    const chunks = renderChunks(plan, model, ids, db, rc);
    if (ctx.renderer === 'html') {
      const results: Json[] = [];
      for await (const chunk of chunks) results.push(...chunk);
      return { status: 200, body: { count, next: links.next, previous: links.previous, results } };
    }
    return { status: 200, body: null, pieces: listPieces(count, links, chunks) };
  }
  const results: Json[] = rows.length ? await renderRows(plan, rows, await newRenderContext(ctx, db, model)) : [];
  return { status: 200, body: { count, next: links.next, previous: links.previous, results } };
}

/**
 * Every object the list endpoint of `model` would answer for this request's filters, across all
 * pages, in the list's order and full representation: the same filter set (unknown filters are a
 * 400 under strict filtering), permission predicate and scope. For renderings of a whole list
 * (export templates); `maxObjects` bounds how many may be read.
 */
export async function listAll(ctx: RequestContext, model: ModelMeta, restrict: Predicate, maxObjects: number): Promise<Json[]> {
  const { db, read } = await listSelection(ctx, model, restrict);
  const plan: Plan = planFor(model, false, ctx.version as NonNullable<RequestContext['version']>, db.dialect);
  const { count, rows, ids } = await read(plan, { limit: maxObjects + 1, offset: 0 });
  if (count > maxObjects) throw new ValidationError({ detail: [`At most ${maxObjects} objects can be rendered at once; filter the list.`] });
  const rc = await newRenderContext(ctx, db, model);
  if (!ids) return rows.length ? renderRows(plan, rows, rc) : [];
  const results: Json[] = [];
  for await (const chunk of renderChunks(plan, model, ids, db, rc)) results.push(...chunk);
  return results;
}

/**
 * Rows per statement when a list is read in chunks: bounds both memory and the bound values of
 * the loaders' IN lists (SQLite accepts 32,766).
 */
export const STREAM_CHUNK_ROWS = 1000;


/**
 * Objects by id in the given order: each chunk of ids read in a constant number of queries, its
 * objects then rendered a piece at a time as the response takes them, so that an object lives
 * only as long as its piece does (objects that outlive a few young-generation collections would
 * pile up in the old generation while a long list streams out).
 */
async function* renderChunks(plan: Plan, model: ModelMeta, ids: AsyncIterable<Id[]>, db: Executor, rc: RenderContext): AsyncGenerator<Json[]> {
  for await (const chunk of ids) {
    for (let part = 0; part < chunk.length; part += ROWS_PER_READ) {
      const rows = await planRowsInOrder(db, model, plan, chunk.slice(part, part + ROWS_PER_READ));
      await loadForRows(plan, rows, rc);
      for (let start = 0; start < rows.length; start += PIECE_OBJECTS) yield rows.slice(start, start + PIECE_OBJECTS).map((r) => plan.emit(r, rc));
    }
  }
}

async function* chunksOf(chunks: Id[][]): AsyncGenerator<Id[]> {
  yield* chunks;
}

/**
 * Objects read by id per statement while a list streams: a read's rows live until its last piece
 * is written, and rows that live through several young-generation collections are promoted to the
 * old one, which then grows until a full collection (1,000 rows a read: 100 MB more at the peak
 * while 100,000 addresses stream; 250: 25 MB).
 */
const ROWS_PER_READ = 250;

/** Objects per piece of a streamed list (a few dozen kilobytes of JSON). */
const PIECE_OBJECTS = 50;

/** The pagination envelope as JSON text, its results written as they are rendered. */
async function* listPieces(count: number, links: { next: string | null; previous: string | null }, chunks: AsyncIterable<Json[]>): AsyncGenerator<string> {
  yield `{"count":${count},"next":${JSON.stringify(links.next)},"previous":${JSON.stringify(links.previous)},"results":[`;
  let first = true;
  for await (const chunk of chunks) {
    // Small pieces: strings under V8's large-object size die young, instead of piling up in the
    // old generation until a full collection while a long list streams out.
    for (let start = 0; start < chunk.length; start += PIECE_OBJECTS) {
      const text = JSON.stringify(start === 0 && chunk.length <= PIECE_OBJECTS ? chunk : chunk.slice(start, start + PIECE_OBJECTS));
      yield (first ? '' : ',') + text.slice(1, -1);
      first = false;
    }
  }
  yield ']}';
}

/**
 * Runs a read whose filters hold regular expressions under the server's statement time limit. A
 * pattern the engine cancels or refuses is the client's: a 400 naming the regex parameters.
 */
async function boundedFetch<T>(ctx: RequestContext, regexParams: string[], fetch: (db: Executor) => Promise<T>): Promise<T> {
  const dialect = ctx.db.dialect;
  try {
    return await ctx.db.boundedRead(ctx.config.regexTimeoutMs ?? REGEX_QUERY_TIMEOUT_MS, fetch);
  } catch (err) {
    const message = dialect.isTimeout(err)
      ? 'The regular expression is too expensive to evaluate.'
      : dialect.isBadRegex(err)
        ? 'Invalid regular expression.'
        : null;
    if (message === null) throw err;
    throw new ValidationError(Object.fromEntries(regexParams.map((name) => [name, [message]])));
  }
}

export async function retrieveView(ctx: RequestContext, model: ModelMeta, id: Id, restrict: Predicate): Promise<Reply> {
  const db = ctx.db.reader;
  const plan = planFor(model, wantsBrief(ctx), ctx.version as NonNullable<RequestContext['version']>, db.dialect, { single: true });
  const where = and([visible(ctx, model, restrict), fieldTest(model.pk, 'exact', [id])]);
  const rows = await planRowsWhere(db, model, plan.select, where);
  if (rows.length === 0) throw new NotFound();
  const etag = entityTag(rows[0][plan.builder.root.idIndex] as Id, rows[0][plan.versionIndex]);
  if (notModified(ctx, etag)) return { status: 304, headers: { ETag: etag } };
  const [obj] = await renderRows(plan, rows, await newRenderContext(ctx, db, model));
  return { status: 200, body: obj, headers: { ETag: etag } };
}

/** Set in a render context's features while snapshots render (features may shape them differently). */
export const SNAPSHOT_RENDER = new DataKey<boolean>('render:snapshot');

/** Objects as a change record holds them, keyed by id: the API form and the stored columns (by name). */
export interface Snapshots {
  readonly api: Map<Id, JsonObject>;
  readonly stored: Map<Id, ObjectRow>;
}

/**
 * The API form of objects as a webhook or change record holds them: relative URLs, no request
 * (opt-in keys left out), features' data loaded once for the batch; with their stored columns,
 * read by the same statement (the database form is made of them).
 */
export async function renderSnapshots(
  registry: RequestContext['registry'],
  model: ModelMeta,
  ids: Id[],
  db: Executor,
  version: NonNullable<RequestContext['version']>,
  features: RequestData = new RequestData(),
): Promise<Snapshots> {
  const api = new Map<Id, JsonObject>();
  const stored = new Map<Id, ObjectRow>();
  if (ids.length === 0) return { api, stored };
  const plan = planFor(model, false, version, db.dialect, { single: ids.length === 1, stored: true });
  const rows = await planRowsById(db, model, plan.selectByIds ?? plan.select, ids);
  keepRows(features, model, plan, rows);
  const idIndex = plan.builder.root.idIndex;
  for (const row of rows) {
    const columns: ObjectRow = {};
    for (const [column, i] of plan.stored ?? []) columns[column] = row[i];
    stored.set(row[idIndex] as Id, columns);
  }
  await prepareFeatures(registry, model, db, features);
  const rc = renderContext('', version, db, { include: () => false });
  rc.features.assign(features);
  rc.features.set(SNAPSHOT_RENDER, true);
  for (const obj of await renderRows(plan, rows, rc)) api.set((obj as { id: Id }).id, obj as JsonObject);
  return { api, stored };
}
