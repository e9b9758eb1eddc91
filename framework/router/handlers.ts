import type { ModelMeta } from '../metadata/model-meta';
import { optionsView } from '../options/options';
import type { Id } from '../query/id';
import { listView, retrieveView } from '../views/read';
import { bulkDestroyView, bulkUpdateView, createView, destroyView, updateView } from '../views/write';
import type { Handler } from '../actions/declared-routes';

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
      return (ctx, a) => createView(ctx, model, a.body(), a.restrict);
    case 'update':
    case 'partial_update':
      return (ctx, a) => updateView(ctx, model, a.id as Id, a.body(), operation === 'partial_update', a.restrict);
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

/** A root listing (`/api/`, `/api/<app>/`): name → absolute URL. */
export function indexHandler(entries: ReadonlyArray<readonly [string, string]>): Handler {
  return async (ctx) => ({ status: 200, body: Object.fromEntries(entries.map(([k, path]) => [k, `${ctx.baseUrl}${path}`])) });
}
