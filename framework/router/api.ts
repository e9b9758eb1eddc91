import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { filterSetFor } from '../filterset/filterset';
import type { Mount } from '../actions/declared-routes';
import { routeHandler, type PipelineServices } from './pipeline';
import { buildRouteTable, type RouteEntry, type RouteSources, type RouteTable } from './route-table';
import { PathMatcher } from './path-matcher';

export { actionsOf, type ExtraRoute, type Handler, type HandlerArgs, type ModelAction, type Mount, type Negotiator } from '../actions/declared-routes';

export interface Services extends PipelineServices, RouteSources {
  readonly mounts?: readonly Mount[];
}

/**
 * Express router for everything under `/api`: each entry of the route table (built from the
 * services unless given) becomes one route running the request pipeline.
 */
export function apiRouter(services: Services, table: RouteTable = buildRouteTable(services)): Router {
  const router = express.Router({ strict: true, caseSensitive: true });

  // Static files and file-like routes (`/swagger.json`) exist without a trailing slash.
  for (const mount of services.mounts ?? []) router.use(mount.path, ...mount.handlers);
  router.use(dispatcher(services, table.filter((r) => !r.path.endsWith('/'))));

  // A path without its trailing slash is redirected to the slashed form, query kept.
  router.use((req, res, next) => {
    if (req.path.endsWith('/')) return next();
    const q = req.originalUrl.indexOf('?');
    const query = q >= 0 ? req.originalUrl.slice(q) : '';
    res.redirect(302, `${req.baseUrl}${req.path}/${query}`);
  });

  // Filter sets are built (and checked) at start, not on the first request.
  for (const model of services.registry.routed) filterSetFor(model);

  router.use(dispatcher(services, table.filter((r) => r.path.endsWith('/'))));

  // Unknown paths under /api: 404 without API-Version, before negotiation or authentication.
  router.use((_req, res) => {
    res.status(404).setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ detail: 'Not found.' }));
  });
  return router;
}

/**
 * One middleware serving `entries`: the request's path finds its entry in one walk of its
 * segments (path-matcher.ts) instead of Express trying each route's pattern in turn; a path
 * none of them serves goes on to the next middleware.
 */
function dispatcher(services: PipelineServices, entries: readonly RouteEntry[]): RequestHandler {
  const matcher = new PathMatcher<ReturnType<typeof routeHandler>>();
  for (const entry of entries) matcher.add(entry.path, routeHandler(services, entry));
  return (req: Request, res: Response, next: NextFunction) => {
    const found = matcher.match(req.path);
    if (!found) return next();
    req.params = found.params;
    found.value(req, res).catch(next);
  };
}
