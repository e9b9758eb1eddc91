import express, { type Request, type Response, type Router } from 'express';
import { countingQueries } from '../store/query-counter';
import { authenticate } from '../auth/authenticate';
import type { PermissionEngine } from '../auth/permissions';
import { isExempt } from '../auth/permissions';
import type { Action, AuthBackend, AuthUser } from '../auth/types';
import type { Database } from '../store/executor';
import { MethodNotAllowed, NotAuthenticated, NotFound, PermissionDenied } from '../errors';
import { errorToResponse } from '../errors/mapper';
import { parseId } from '../fields/foreign-key';
import { TRUE, type Predicate } from '../filterset/predicate';
import { readJson } from '../http/body';
import { RequestContext, type FrameworkConfig } from '../http/context';
import type { Logger } from '../http/logger';
import { negotiate } from '../http/negotiation';
import { send } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import { optionsView } from '../options/options';
import { filterSetFor } from '../filterset/filterset';
import type { Id } from '../serializer/select';
import { resolveVersion } from '../versioning/negotiate';
import { listView, retrieveView } from '../views/read';
import { bulkDestroyView, bulkUpdateView, createView, destroyView, updateView } from '../views/write';
import { actionsOf, type ExtraRoute, type Handler, type ModelAction, type Mount, type Negotiator } from './declared-routes';

export { actionsOf, type ExtraRoute, type Handler, type HandlerArgs, type ModelAction, type Mount, type Negotiator } from './declared-routes';

export interface Services {
  readonly registry: Registry;
  readonly db: Database;
  readonly config: FrameworkConfig;
  readonly logger: Logger;
  readonly auth: AuthBackend;
  readonly permissions: PermissionEngine;
  readonly routes?: ExtraRoute[];
  readonly actions?: ModelAction[];
  /** Entries of `/api/` besides the applications (`status`, `docs`…). */
  readonly rootEntries?: string[];
  readonly mounts?: Mount[];
}

const METHOD_ACTION: Record<string, Action> = { GET: 'view', HEAD: 'view', POST: 'add', PUT: 'change', PATCH: 'change', DELETE: 'delete' };
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

interface Dispatch {
  model?: ModelMeta;
  detail?: boolean;
  /** Handlers by method; OPTIONS is added for models. */
  methods: Partial<Record<string, { handler: Handler; action?: Action; permissionModel?: ModelMeta }>>;
  auth: 'model' | 'authenticated' | 'staff' | 'none';
  basicAuth?: boolean;
  negotiate?: Negotiator;
}

function allowHeader(d: Dispatch): string {
  const methods = Object.keys(d.methods);
  if (d.methods.GET && !d.methods.HEAD) methods.push('HEAD');
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].filter((m) => methods.includes(m)).join(', ');
}

/**
 * The request pipeline, in Nautobot's order: negotiation and version (400/404/406), authentication
 * (403), the method's permission (403), then 405 for a method the route lacks, then the handler
 * (body errors). Errors become responses in errors/mapper.ts only.
 */
function pipeline(services: Services, d: Dispatch) {
  const handle = handleRequest(services, d);
  if (!services.config.countQueries) return handle;
  return async (req: Request, res: Response): Promise<void> => {
    const { counter, done } = countingQueries(() => handle(req, res));
    // The header must precede the body: set it when the response starts to write.
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
      if (!res.headersSent) res.setHeader('X-Query-Count', String(counter.count));
      return writeHead.apply(this, args);
    } as Response['writeHead'];
    await done;
  };
}

function handleRequest(services: Services, d: Dispatch) {
  return async (req: Request, res: Response): Promise<void> => {
    const ctx = new RequestContext(req, res, services.registry, services.db, services.config, services.logger);
    const allow = allowHeader(d);
    try {
      const negotiated = (d.negotiate ?? negotiate)(req.headers.accept, ctx.param('format'));
      ctx.renderer = negotiated.renderer;
      ctx.contentType = negotiated.contentType;
      ctx.version = resolveVersion(negotiated.version, ctx.param('api_version'));
      await authenticate(ctx, services.auth, d.basicAuth === true);
      const method = ctx.method === 'HEAD' ? 'GET' : ctx.method;
      const entry = d.methods[method] ?? (ctx.method === 'HEAD' ? d.methods.GET : undefined);
      let restrict: Predicate = TRUE;
      if (d.auth === 'model' && d.model) {
        const model = entry?.permissionModel ?? d.model;
        const action = entry?.action ?? METHOD_ACTION[method];
        if (method === 'OPTIONS') {
          if (!ctx.user && !isExempt(ctx, model)) throw new NotAuthenticated();
        } else if (action) {
          restrict = await services.permissions.restrict(ctx, model, action);
        } else if (!ctx.user) {
          throw new NotAuthenticated();
        }
      } else if ((d.auth === 'authenticated' || d.auth === 'staff') && !ctx.user) {
        throw new NotAuthenticated();
      } else if (d.auth === 'staff' && !(ctx.user as AuthUser).isStaff && !(ctx.user as AuthUser).isSuperuser) {
        throw new PermissionDenied();
      } else if ((d.auth === 'authenticated' || d.auth === 'staff') && ctx.token && !ctx.token.writeEnabled && !SAFE.has(ctx.method) && d.methods[method]) {
        // A read-only token writes nowhere, model or not (user preferences).
        throw new PermissionDenied();
      }
      if (ctx.session && !SAFE.has(ctx.method)) {
        const sent = String(req.headers['x-csrftoken'] ?? '');
        if (!sent || sent !== ctx.session.csrf) throw new PermissionDenied('CSRF Failed: CSRF token missing or incorrect.');
      }
      if (!entry) throw new MethodNotAllowed(req.method.toUpperCase());
      let id: Id | undefined;
      if (d.detail && d.model) {
        const parsed = parseId(d.model, req.params.id);
        if (parsed === null) throw new NotFound();
        id = parsed;
      }
      const reply = await entry.handler(ctx, {
        restrict,
        id,
        body: () => readJson(Buffer.isBuffer(req.body) ? req.body : undefined, req.headers['content-type']),
        restrictFor: (model, action) => services.permissions.restrict(ctx, model, action),
        model: d.model,
      });
      if (ctx.renderer === 'html') ctx.allowedMethods = await usableMethods(services, d, ctx);
      await send(ctx, { ...reply, headers: { Allow: allow, ...reply.headers } });
    } catch (err) {
      const r = errorToResponse(err, services.config.version);
      if (r.unexpected) ctx.logger.error('unhandled error', { error: String((err as Error)?.stack ?? err), path: req.originalUrl });
      await send(ctx, { status: r.status, body: r.body, headers: { Allow: allow, ...r.headers } });
    }
  };
}

/**
 * The unsafe methods of a route the caller could use, for the browsable page's forms: the same
 * model-level check OPTIONS makes (token write flag, permissions), or authentication elsewhere.
 */
async function usableMethods(services: Services, d: Dispatch, ctx: RequestContext): Promise<string[]> {
  const out: string[] = [];
  for (const [method, entry] of Object.entries(d.methods)) {
    if (!entry || SAFE.has(method)) continue;
    if (d.auth === 'model' && d.model) {
      const action = entry.action ?? METHOD_ACTION[method];
      if (action && (await services.permissions.allows(ctx, entry.permissionModel ?? d.model, action))) out.push(method);
    } else if (ctx.user && (!ctx.token || ctx.token.writeEnabled)) {
      out.push(method);
    }
  }
  return out;
}

/** A root listing (`/api/`, `/api/<app>/`): name → absolute URL, for any authenticated caller. */
function indexDispatch(entries: Array<[string, string]>): Dispatch {
  return {
    auth: 'authenticated',
    methods: {
      GET: { handler: async (ctx) => ({ status: 200, body: Object.fromEntries(entries.map(([k, path]) => [k, `${ctx.baseUrl}${path}`])) }) },
    },
  };
}

function modelDispatches(services: Services, model: ModelMeta): { list: Dispatch; detail: Dispatch } {
  const perms = services.permissions;
  const basicAuth = model.options.basicAuth;
  const list: Dispatch = { model, auth: 'model', basicAuth, methods: {} };
  const detail: Dispatch = { model, detail: true, auth: 'model', basicAuth, methods: {} };
  list.methods.OPTIONS = { handler: (ctx) => optionsView(ctx, model, true, perms) };
  detail.methods.OPTIONS = { handler: (ctx) => optionsView(ctx, model, false, perms) };
  if (model.allows('list')) list.methods.GET = { handler: (ctx, a) => listView(ctx, model, a.restrict) };
  if (model.allows('retrieve')) detail.methods.GET = { handler: (ctx, a) => retrieveView(ctx, model, a.id as Id, a.restrict) };
  if (model.allows('create')) list.methods.POST = { handler: (ctx, a) => createView(ctx, model, a.body(), a.restrict) };
  if (model.allows('update')) {
    for (const [m, partial] of [['PUT', false], ['PATCH', true]] as const) {
      list.methods[m] = { handler: (ctx, a) => bulkUpdateView(ctx, model, a.body(), partial, a.restrict) };
      detail.methods[m] = { handler: (ctx, a) => updateView(ctx, model, a.id as Id, a.body(), partial, a.restrict) };
    }
  }
  if (model.allows('delete')) {
    list.methods.DELETE = { handler: (ctx, a) => bulkDestroyView(ctx, model, a.body(), a.restrict) };
    detail.methods.DELETE = { handler: (ctx, a) => destroyView(ctx, model, a.id as Id, a.restrict) };
  }
  return { list, detail };
}

/** One route under `/api`: its Express path and how it is dispatched. */
export interface RouteEntry {
  /** Express path under `/api` (`/ipam/prefixes/:id/`). */
  path: string;
  kind: 'root' | 'app-root' | 'list' | 'detail' | 'action' | 'extra' | 'plugins';
  dispatch: Dispatch;
  model?: ModelMeta;
  action?: ModelAction;
  route?: ExtraRoute;
}

/** `/api/plugins/`: the installed-plugins list, then each plugin's API root. */
function pluginsIndex(registry: Registry): Dispatch {
  const roots = registry.apps.filter((a) => a.plugin).map((a): [string, string] => [a.urlBase.replace(/^plugins\//, ''), `/api/${a.urlBase}/`]);
  return indexDispatch([['installed-plugins', '/api/plugins/installed-plugins/'], ...roots]);
}

/** Every route under `/api`, in registration order: the table the router and OpenAPI read. */
export function routeTable(services: Services): RouteEntry[] {
  const { registry } = services;
  const table: RouteEntry[] = [];
  const appsWithModels = registry.apps.filter((a) => !a.plugin && a.models.some((m) => m.path !== null));
  const rootEntries = [...appsWithModels.map((a) => a.urlBase), 'plugins', ...(services.rootEntries ?? [])].sort();
  table.push({ path: '/', kind: 'root', dispatch: indexDispatch(rootEntries.map((e) => [e, `/api/${e}/`])) });

  for (const route of services.routes ?? []) {
    const methods: Dispatch['methods'] = {};
    for (const [m, h] of Object.entries(route.methods)) if (h) methods[m] = { handler: h };
    table.push({ path: route.path, kind: 'extra', route, dispatch: { auth: route.auth, methods, negotiate: route.negotiate } });
  }

  for (const app of registry.apps) {
    const routed = app.models.filter((m) => m.path !== null).sort((a, b) => String(a.path).localeCompare(String(b.path)));
    if (routed.length === 0 && !app.plugin) continue;
    table.push({ path: `/${app.urlBase}/`, kind: 'app-root', dispatch: indexDispatch(routed.map((m) => [String(m.path), m.listPath])) });
    for (const model of routed) {
      for (const action of actionsOf(services.actions, registry, model)) {
        const methods: Dispatch['methods'] = {};
        for (const [m, spec] of Object.entries(action.methods)) {
          if (spec) methods[m] = { handler: spec.handler, action: spec.action, permissionModel: spec.permissionModel ? registry.forClass(spec.permissionModel) : undefined };
        }
        const path = action.detail ? `/${app.urlBase}/${model.path}/:id/${action.path}/` : `/${app.urlBase}/${model.path}/${action.path}/`;
        table.push({ path, kind: 'action', model, action, dispatch: { model, detail: action.detail, auth: 'model', methods } });
      }
      const { list, detail } = modelDispatches(services, model);
      table.push({ path: `/${app.urlBase}/${model.path}/`, kind: 'list', model, dispatch: list });
      table.push({ path: `/${app.urlBase}/${model.path}/:id/`, kind: 'detail', model, dispatch: detail });
    }
  }
  if (!table.some((r) => r.path === '/plugins/')) table.push({ path: '/plugins/', kind: 'plugins', dispatch: pluginsIndex(registry) });
  return table;
}

/** Express router for everything under `/api`, built once from the registry. */
export function apiRouter(services: Services): Router {
  const router = express.Router({ strict: true, caseSensitive: true });
  const { registry } = services;
  const table = routeTable(services);

  // Static files and file-like routes (`/swagger.json`) exist without a trailing slash.
  for (const mount of services.mounts ?? []) router.use(mount.path, ...mount.handlers);
  for (const entry of table.filter((r) => !r.path.endsWith('/'))) router.all(entry.path, pipeline(services, entry.dispatch));

  // A path without its trailing slash is redirected to the slashed form, query kept.
  router.use((req, res, next) => {
    if (req.path.endsWith('/')) return next();
    const q = req.originalUrl.indexOf('?');
    const query = q >= 0 ? req.originalUrl.slice(q) : '';
    res.redirect(302, `${req.baseUrl}${req.path}/${query}`);
  });

  // Filter sets are built (and checked) at start, not on the first request.
  for (const model of registry.routed) filterSetFor(model);

  for (const entry of table.filter((r) => r.path.endsWith('/'))) router.all(entry.path, pipeline(services, entry.dispatch));

  // Unknown paths under /api: 404 without API-Version, before negotiation or authentication.
  router.use((_req, res) => {
    res.status(404).setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ detail: 'Not found.' }));
  });
  return router;
}

export { send };
