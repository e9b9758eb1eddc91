import type { ModelMeta } from '../metadata/model-meta';
import { optionsView } from '../options/options';
import type { Id } from '../query/id';
import { listView, retrieveView } from '../views/read';
import { bulkDestroyView, bulkUpdateView, createView, destroyView, updateView } from '../views/write';
import type { Handler, HandlerArgs } from '../actions/declared-routes';
import type { RequestContext } from '../http/context';
import { isMultipart } from '../http/form';

/** What a generic model endpoint does for one method; also names the OpenAPI operation. */
export type ModelOperation =
  | 'list'
  | 'retrieve'
  | 'create'
  | 'update'
  | 'partial_update'
  | 'destroy'
  | 'bulk_update'
  | 'bulk_partial_update'
  | 'bulk_destroy'
  | 'metadata';

/** The generic view serving an operation on a model (views/ and options/). */
export function modelHandler(operation: ModelOperation, model: ModelMeta): Handler {
  switch (operation) {
    case 'list':
      return (ctx, a) => listView(ctx, model, a.restrict);
    case 'retrieve':
      return (ctx, a) => retrieveView(ctx, model, a.id as Id, a.restrict);
    case 'create':
      return async (ctx, a) => createView(ctx, model, await bodyOf(ctx, model, a), a.restrict);
    case 'update':
    case 'partial_update':
      return async (ctx, a) => updateView(ctx, model, a.id as Id, await bodyOf(ctx, model, a), operation === 'partial_update', a.restrict);
    case 'destroy':
      return (ctx, a) => destroyView(ctx, model, a.id as Id, a.restrict);
    case 'bulk_update':
    case 'bulk_partial_update':
      return (ctx, a) => bulkUpdateView(ctx, model, a.body(), operation === 'bulk_partial_update', a.restrict);
    case 'bulk_destroy':
      return (ctx, a) => bulkDestroyView(ctx, model, a.body(), a.restrict);
    case 'metadata':
      return (ctx, a) => optionsView(ctx, model, a.mayUse);
  }
}

/**
 * The body of a single create or update: JSON, or for models taking uploads (`multipart: true`,
 * an extension of Nautobot's JSON-only API) a multipart/form-data form, each field's first
 * value and each file field's first file.
 */
async function bodyOf(ctx: RequestContext, model: ModelMeta, a: HandlerArgs): Promise<unknown> {
  if (!model.options.multipart || !isMultipart(ctx.req.headers['content-type'])) return a.body();
  const form = await a.form();
  const body: Record<string, unknown> = {};
  for (const [name, values] of form.fields) body[name] = values[0];
  for (const [name, files] of form.files) body[name] = files[0];
  return body;
}

/** A root listing (`/api/`, `/api/<app>/`): name → absolute URL. */
export function indexHandler(entries: ReadonlyArray<readonly [string, string]>): Handler {
  return async (ctx) => ({ status: 200, body: Object.fromEntries(entries.map(([k, path]) => [k, `${ctx.baseUrl}${path}`])) });
}
