/**
 * The one description of everything served under `/api`: the Express router, OPTIONS, the
 * browsable API and the OpenAPI document all read it, so none can list a route the others lack.
 */
import type { Action } from '../auth/types';
import { negotiate } from '../http/negotiation';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { Operation } from '../metadata/types';
import { actionsOf, type ActionDoc, type ExtraRoute, type Handler, type ModelAction, type Negotiator } from '../actions/declared-routes';
import { indexHandler, modelHandler, type ModelOperation } from './handlers';

export type { ModelOperation } from './handlers';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** What a method of a route does: a generic model operation, a listing, or hand-written code. */
export type OperationKind = ModelOperation | 'index' | 'action' | 'extra';

export interface RouteMethod {
  readonly operation: OperationKind;
  readonly handler: Handler;
  /** On model routes: the permission the method needs; none for OPTIONS, which needs only a login (or exempt reads). */
  readonly permission?: Readonly<{ action: Action; model: ModelMeta }>;
  /** Extra actions: how the OpenAPI document describes the method, when the action says. */
  readonly doc?: ActionDoc;
}

/** How the caller must be authenticated: `model` checks the method's permission on the model. */
export type RouteAuth = 'model' | 'authenticated' | 'staff' | 'none';

export interface RouteEntry {
  /** Express path under `/api` (`/ipam/prefixes/:id/`). */
  readonly path: string;
  readonly kind: 'root' | 'app-root' | 'plugins' | 'list' | 'detail' | 'action' | 'extra';
  /** The model of model endpoints and their actions; OpenAPI derives their shapes from it. */
  readonly model?: ModelMeta;
  /** The path carries the object's `:id`. */
  readonly detail: boolean;
  /** In the order GET, POST, PUT, PATCH, DELETE, OPTIONS; HEAD is answered by GET. */
  readonly methods: Readonly<Partial<Record<HttpMethod, RouteMethod>>>;
  readonly auth: RouteAuth;
  /** HTTP Basic credentials are accepted besides tokens and sessions. */
  readonly basicAuth: boolean;
  readonly negotiate: Negotiator;
  /** Responses carry API-Version. */
  readonly versioned: boolean;
  /** Listed in the OpenAPI document. */
  readonly documented: boolean;
  /** Its unsafe methods only read (GraphQL's POST): read-only tokens may use them. */
  readonly readsOnly?: boolean;
}

export type RouteTable = readonly RouteEntry[];

/** What the table is built from; the app adds the database, authentication and mounts to serve it. */
export interface RouteSources {
  readonly registry: Registry;
  readonly routes?: readonly ExtraRoute[];
  readonly actions?: readonly ModelAction[];
  /** Entries of `/api/` besides the applications (`status`, `docs`…). */
  readonly rootEntries?: readonly string[];
}

/** The permission each method needs on a model endpoint, as Nautobot maps them. */
export const METHOD_ACTION: Readonly<Record<string, Action>> = { GET: 'view', HEAD: 'view', POST: 'add', PUT: 'change', PATCH: 'change', DELETE: 'delete' };

/** The generic operations of a model's list and detail routes, each served if the model allows it. */
const MODEL_OPERATIONS: Record<'list' | 'detail', ReadonlyArray<readonly [HttpMethod, ModelOperation, Operation]>> = {
  list: [
    ['GET', 'list', 'list'],
    ['POST', 'create', 'create'],
    ['PUT', 'bulk_update', 'update'],
    ['PATCH', 'bulk_partial_update', 'update'],
    ['DELETE', 'bulk_destroy', 'delete'],
  ],
  detail: [
    ['GET', 'retrieve', 'retrieve'],
    ['PUT', 'update', 'update'],
    ['PATCH', 'partial_update', 'update'],
    ['DELETE', 'destroy', 'delete'],
  ],
};

function isHttpMethod(method: string): method is HttpMethod {
  return (HTTP_METHODS as readonly string[]).includes(method);
}

/** Methods in the table's order, whatever order they were declared in. */
function ordered(methods: Partial<Record<HttpMethod, RouteMethod>>): Partial<Record<HttpMethod, RouteMethod>> {
  return Object.fromEntries(HTTP_METHODS.filter((m) => methods[m]).map((m) => [m, methods[m]]));
}

function checkedMethod(method: string, where: string): HttpMethod {
  if (!isHttpMethod(method)) throw new Error(`route ${where}: unknown HTTP method ${method}`);
  return method;
}

/** A listing for any authenticated caller, left out of the OpenAPI document. */
function indexEntry(path: string, kind: 'root' | 'app-root' | 'plugins', entries: ReadonlyArray<readonly [string, string]>): RouteEntry {
  return {
    path,
    kind,
    detail: false,
    methods: { GET: { operation: 'index', handler: indexHandler(entries) } },
    auth: 'authenticated',
    basicAuth: false,
    negotiate,
    versioned: true,
    documented: false,
  };
}

function extraEntry(route: ExtraRoute): RouteEntry {
  const methods: Partial<Record<HttpMethod, RouteMethod>> = {};
  for (const [m, handler] of Object.entries(route.methods)) {
    if (handler) methods[checkedMethod(m, route.path)] = { operation: 'extra', handler };
  }
  return {
    path: route.path,
    kind: 'extra',
    detail: false,
    methods: ordered(methods),
    auth: route.auth,
    basicAuth: false,
    negotiate: route.negotiate ?? negotiate,
    versioned: route.versioned ?? true,
    documented: route.documented ?? true,
    readsOnly: route.readsOnly ?? false,
  };
}

function modelEntry(model: ModelMeta, kind: 'list' | 'detail'): RouteEntry {
  const base = `/${model.app.urlBase}/${model.path}/`;
  const methods: Partial<Record<HttpMethod, RouteMethod>> = {};
  for (const [method, operation, allowed] of MODEL_OPERATIONS[kind]) {
    if (!model.allows(allowed)) continue;
    methods[method] = { operation, handler: modelHandler(operation, model), permission: { action: METHOD_ACTION[method], model } };
  }
  methods.OPTIONS = { operation: 'metadata', handler: modelHandler('metadata', model) };
  return {
    path: kind === 'detail' ? `${base}:id/` : base,
    kind,
    model,
    detail: kind === 'detail',
    methods,
    auth: 'model',
    basicAuth: model.options.basicAuth === true,
    negotiate,
    versioned: true,
    documented: true,
  };
}

function actionEntry(registry: Registry, model: ModelMeta, action: ModelAction): RouteEntry {
  const base = `/${model.app.urlBase}/${model.path}/`;
  const path = action.detail ? `${base}:id/${action.path}/` : `${base}${action.path}/`;
  const methods: Partial<Record<HttpMethod, RouteMethod>> = {};
  for (const [m, spec] of Object.entries(action.methods)) {
    if (!spec) continue;
    const permissionModel = spec.permissionModel ? registry.forClass(spec.permissionModel) : model;
    methods[checkedMethod(m, path)] = {
      operation: 'action',
      handler: spec.handler,
      permission: { action: spec.action, model: permissionModel },
      ...(spec.doc ? { doc: spec.doc } : {}),
    };
  }
  return {
    path,
    kind: 'action',
    model,
    detail: action.detail,
    methods: ordered(methods),
    auth: 'model',
    basicAuth: false,
    negotiate,
    versioned: true,
    documented: true,
  };
}

/** `/api/plugins/`: the installed-plugins list, then each plugin's API root. */
function pluginsIndex(registry: Registry): RouteEntry {
  const roots = registry.apps.filter((a) => a.plugin).map((a): [string, string] => [a.urlBase.replace(/^plugins\//, ''), `/api/${a.urlBase}/`]);
  return indexEntry('/plugins/', 'plugins', [['installed-plugins', '/api/plugins/installed-plugins/'], ...roots]);
}

/**
 * Every route under `/api`, in the order Express must try them: the root, the extra routes, then
 * per application its root and per model its actions (before the detail route, whose `:id` would
 * match an action's name), list and detail.
 */
export function buildRouteTable(sources: RouteSources): RouteTable {
  const { registry } = sources;
  const table: RouteEntry[] = [];
  const appsWithModels = registry.apps.filter((a) => !a.plugin && a.models.some((m) => m.path !== null));
  const rootEntries = [...appsWithModels.map((a) => a.urlBase), 'plugins', ...(sources.rootEntries ?? [])].sort();
  table.push(indexEntry('/', 'root', rootEntries.map((e) => [e, `/api/${e}/`])));

  for (const route of sources.routes ?? []) table.push(extraEntry(route));

  for (const app of registry.apps) {
    const routed = app.models.filter((m) => m.path !== null).sort((a, b) => String(a.path).localeCompare(String(b.path)));
    if (routed.length === 0 && !app.plugin) continue;
    table.push(indexEntry(`/${app.urlBase}/`, 'app-root', routed.map((m) => [String(m.path), m.listPath])));
    for (const model of routed) {
      for (const action of actionsOf(sources.actions, registry, model)) table.push(actionEntry(registry, model, action));
      table.push(modelEntry(model, 'list'), modelEntry(model, 'detail'));
    }
  }
  if (!table.some((r) => r.path === '/plugins/')) table.push(pluginsIndex(registry));
  return deepFreeze(table);
}

/**
 * Freezes the table's own arrays and plain objects. Models belong to the registry and handlers to
 * their authors: those are referenced, not owned, and stay as they are.
 */
function deepFreeze<T>(value: T): T {
  if (Array.isArray(value) || isPlainObject(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
