import type { WriteListener } from '../serializer/write-scope';
/**
 * The request pipeline of one route-table entry, in Nautobot's order (DRF's `APIView.initial()`):
 * negotiation and version (400/404/406), authentication (403), the method's permission (403),
 * CSRF for sessions (403), then 405 for a method the route lacks, the id of a detail route (404),
 * the handler (body errors come from it). Errors become responses in errors/mapper.ts only.
 */
import type { Request, Response } from 'express';
import { authenticate } from '../auth/authenticate';
import { isExempt, type PermissionEngine } from '../auth/permissions';
import type { AuthBackend } from '../auth/types';
import { AuthenticationFailed, MethodNotAllowed, NotAuthenticated, NotFound, PermissionDenied } from '../errors';
import { errorToResponse } from '../errors/mapper';
import { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_BULK_OBJECTS, limitBulk, readJson, readRequestBody } from '../http/body';
import { readForm } from '../http/form';
import { parseId } from '../fields/foreign-key';
import { FALSE, TRUE, type Predicate } from '../query/predicate';
import { RequestContext, type FrameworkConfig } from '../http/context';
import type { Logger } from '../http/logger';
import { NO_BROWSABLE_DATA, prepareBrowsable, renderBrowsable, type BrowsableData } from '../browsable/render';
import { send } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import { visible } from '../views/read';
import type { Database } from '../store/executor';
import { countingQueries } from '../store/query-counter';
import type { Id } from '../query/id';
import { resolveVersion } from '../versioning/negotiate';
import { HTTP_METHODS, METHOD_ACTION, type HttpMethod, type RouteEntry, type RouteMethod } from './route-table';

/** What serving a route needs besides the route itself. */
export interface PipelineServices {
  readonly registry: Registry;
  /** Features told of every write (change logging, webhooks). */
  readonly listeners?: readonly WriteListener[];
  readonly db: Database;
  readonly config: FrameworkConfig;
  readonly logger: Logger;
  readonly auth: AuthBackend;
  readonly permissions: PermissionEngine;
}

type ExpressHandler = (req: Request, res: Response) => Promise<void>;

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The Express handler of one route, with the query-count header when configured. */
export function routeHandler(services: PipelineServices, entry: RouteEntry): ExpressHandler {
  const handle = handleRequest(services, entry);
  return services.config.countQueries ? withQueryCount(handle) : handle;
}

/** `X-Query-Count`: the SQL statements run for the request. */
function withQueryCount(handle: ExpressHandler): ExpressHandler {
  return async (req, res) => {
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

function allowHeader(entry: RouteEntry): string {
  const methods: string[] = Object.keys(entry.methods);
  if (entry.methods.GET) methods.push('HEAD');
  return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].filter((m) => methods.includes(m)).join(', ');
}

/** HEAD is answered by GET. */
function requestedMethod(ctx: RequestContext): string {
  return ctx.method === 'HEAD' ? 'GET' : ctx.method;
}

function methodOf(entry: RouteEntry, method: string): RouteMethod | undefined {
  return (HTTP_METHODS as readonly string[]).includes(method) ? entry.methods[method as HttpMethod] : undefined;
}

function handleRequest(services: PipelineServices, entry: RouteEntry): ExpressHandler {
  const allow = allowHeader(entry);
  const versionHeader = entry.versioned;
  return async (req, res) => {
    const ctx = new RequestContext(req, res, services.registry, services.db, services.config, services.logger, services.listeners);
    try {
      const negotiated = entry.negotiate(req.headers.accept, ctx.param('format'));
      ctx.renderer = negotiated.renderer;
      ctx.contentType = negotiated.contentType;
      ctx.version = resolveVersion(negotiated.version, ctx.param('api_version'));
      await authenticate(ctx, services.auth, entry.basicAuth);
      ctx.viewable = viewableBy(services, ctx);
      const routeMethod = methodOf(entry, requestedMethod(ctx));
      const restrict = await authorize(services, entry, ctx, routeMethod);
      checkCsrf(ctx);
      if (!routeMethod) throw new MethodNotAllowed(req.method.toUpperCase());
      // Only now, authenticated and authorised, is the body read.
      const raw = await readRequestBody(req, services.config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      // Handlers that parse a body themselves (GraphQL documents) find it where Express keeps bodies.
      (req as { body?: unknown }).body = raw;
      const reply = await routeMethod.handler(ctx, {
        restrict,
        id: routeId(entry, req),
        // A list body over the bulk limit is refused here, before any handler writes.
        body: () => limitBulk(readJson(raw, req.headers['content-type']), services.config.maxBulkObjects ?? DEFAULT_MAX_BULK_OBJECTS),
        form: () => readForm(raw, req.headers['content-type']),
        restrictFor: (model, action) => services.permissions.restrict(ctx, model, action),
        model: entry.model,
        mayUse: (method) => mayUse(services, entry, ctx, method),
      });
      let page: BrowsableData = NO_BROWSABLE_DATA;
      if (ctx.renderer === 'html') {
        ctx.allowedMethods = await usableMethods(services, entry, ctx);
        page = await prepareBrowsable(ctx, entry);
      }
      await send(ctx, { ...reply, headers: { Allow: allow, ...reply.headers } }, { versionHeader, html: (c, r, v) => renderBrowsable(c, r, v, page) });
    } catch (err) {
      const r = errorToResponse(err, services.config.version, ctx.id);
      if (r.unexpected) ctx.logger.error('unhandled error', { method: req.method, path: req.originalUrl, error: err });
      await send(ctx, { status: r.status, body: r.body, headers: { Allow: allow, ...r.headers } }, { versionHeader, html: renderBrowsable });
    }
  };
}

/**
 * The objects of each model the caller may view (its view restriction and the model's scope),
 * worked out once per model and request; nothing of a model it may not view at all.
 */
function viewableBy(services: PipelineServices, ctx: RequestContext): (model: ModelMeta) => Promise<Predicate> {
  const known = new Map<ModelMeta, Promise<Predicate>>();
  const decide = async (model: ModelMeta): Promise<Predicate> => {
    try {
      return visible(ctx, model, await services.permissions.restrict(ctx, model, 'view'));
    } catch (err) {
      if (err instanceof PermissionDenied || err instanceof NotAuthenticated || err instanceof AuthenticationFailed) return FALSE;
      throw err;
    }
  };
  return (model) => {
    let p = known.get(model);
    if (!p) known.set(model, (p = decide(model)));
    return p;
  };
}

/**
 * The caller's right to the method, once authenticated: on model routes the object-level
 * restriction of its action (a method the route lacks is checked as Nautobot maps it, so 403
 * precedes 405); elsewhere a login, staff for staff routes, and a writing token for writes.
 */
async function authorize(services: PipelineServices, entry: RouteEntry, ctx: RequestContext, routeMethod: RouteMethod | undefined): Promise<Predicate> {
  const method = requestedMethod(ctx);
  if (entry.auth === 'model' && entry.model) {
    if (method === 'OPTIONS') {
      if (!ctx.user && !isExempt(ctx, entry.model)) throw new NotAuthenticated();
      return TRUE;
    }
    const action = routeMethod?.permission?.action ?? METHOD_ACTION[method];
    if (action) return services.permissions.restrict(ctx, routeMethod?.permission?.model ?? entry.model, action);
    if (!ctx.user) throw new NotAuthenticated();
    return TRUE;
  }
  if (entry.auth === 'authenticated' || entry.auth === 'staff') {
    if (!ctx.user) throw new NotAuthenticated();
    if (entry.auth === 'staff' && !ctx.user.isStaff && !ctx.user.isSuperuser) throw new PermissionDenied();
    // A read-only token writes nowhere, model or not (user preferences).
    if (ctx.token && !ctx.token.writeEnabled && !SAFE.has(ctx.method) && routeMethod && !entry.readsOnly) throw new PermissionDenied();
  }
  return TRUE;
}

function checkCsrf(ctx: RequestContext): void {
  if (!ctx.session || SAFE.has(ctx.method)) return;
  const sent = String(ctx.req.headers['x-csrftoken'] ?? '');
  if (!sent || sent !== ctx.session.csrf) throw new PermissionDenied('CSRF Failed: CSRF token missing or incorrect.');
}

/** The object id of a detail route; one that cannot be an id of the model finds nothing. */
function routeId(entry: RouteEntry, req: Request): Id | undefined {
  if (!entry.detail || !entry.model) return undefined;
  const parsed = parseId(entry.model, req.params.id);
  if (parsed === null) throw new NotFound();
  return parsed;
}

/**
 * Whether the caller could use an unsafe method of the route: the model-level check OPTIONS makes
 * (token write flag, permissions) on model routes, authentication with a writing token elsewhere.
 */
async function mayUse(services: PipelineServices, entry: RouteEntry, ctx: RequestContext, method: string): Promise<boolean> {
  const routeMethod = methodOf(entry, method);
  if (!routeMethod || SAFE.has(method)) return false;
  if (entry.auth === 'model' && entry.model) {
    const p = routeMethod.permission;
    return !!p && services.permissions.allows(ctx, p.model, p.action);
  }
  return !!ctx.user && (!ctx.token || ctx.token.writeEnabled);
}

/** The unsafe methods of the route the caller could use, for the browsable page's forms. */
async function usableMethods(services: PipelineServices, entry: RouteEntry, ctx: RequestContext): Promise<string[]> {
  const out: string[] = [];
  for (const method of Object.keys(entry.methods)) if (await mayUse(services, entry, ctx, method)) out.push(method);
  return out;
}
