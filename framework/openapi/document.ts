import type { OpenApiSchema } from '../fields/kind';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { HttpMethod, ModelOperation, RouteEntry, RouteMethod, RouteTable } from '../router/route-table';
import type { ApiVersion } from '../versioning/version';
import { Components, ref } from './components';
import { briefParameter, filterParameters, idParameter, paginationParameters, versionParameter } from './parameters';

export interface OpenApiSources {
  registry: Registry;
  /** The routes the server serves; those not `documented` are left out. */
  table: RouteTable;
  /** netinv's own version, shown in `info.version` with the API version. */
  serverVersion: string;
}

/** Operations by method, plus path-level `parameters`. */
type PathItem = Record<string, unknown>;

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, PathItem> };

const RESPONSES: Record<string, OpenApiSchema> = {
  BadRequest: { description: 'Invalid request: messages per field, or `detail`', content: json(ref('ValidationError')) },
  Forbidden: { description: 'Not authenticated, or not permitted', content: json(ref('Error')) },
  NotFound: { description: 'No such object (or not visible to the caller)', content: json(ref('Error')) },
  Conflict: { description: 'Other objects depend on it', content: json(ref('Error')) },
  PreconditionFailed: {
    description: 'If-Match does not match the object\'s current entity tag (sent in `ETag`); nothing was changed',
    headers: { ETag: { $ref: '#/components/headers/ETag' } },
    content: json(ref('Error')),
  },
  NotModified: { description: 'If-None-Match matches the object\'s current entity tag; no body', headers: { ETag: { $ref: '#/components/headers/ETag' } } },
};

/** The entity tag of one object: its id and the version of its row, changed by every write. */
const HEADERS: Record<string, OpenApiSchema> = {
  ETag: {
    description: 'Strong entity tag of the object (`"<id>-<version>"`), changed by every write of it; send it back in If-Match or If-None-Match.',
    schema: { type: 'string' },
  },
};

const PARAMETERS: Record<string, OpenApiSchema> = {
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Write only if the object\'s current ETag is one of these (strong comparison) or `*`; otherwise 412 and nothing is changed.',
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description: 'Answer 304 without a body if the object\'s current ETag is one of these (weak comparison) or `*`.',
    schema: { type: 'string' },
  },
};

const etagHeader = (): OpenApiSchema => ({ ETag: { $ref: '#/components/headers/ETag' } });
const ifMatch = (): OpenApiSchema => ({ $ref: '#/components/parameters/IfMatch' });
const ifNoneMatch = (): OpenApiSchema => ({ $ref: '#/components/parameters/IfNoneMatch' });
const preconditionFailed = (): Record<string, OpenApiSchema> => ({ '412': { $ref: '#/components/responses/PreconditionFailed' } });

function json(schema: OpenApiSchema): OpenApiSchema {
  return { 'application/json': { schema } };
}

function body(schema: OpenApiSchema): OpenApiSchema {
  return { required: true, content: json(schema) };
}

function arrayOf(schema: OpenApiSchema): OpenApiSchema {
  return { type: 'array', items: schema };
}

function errors(...codes: Array<'400' | '404' | '409'>): Record<string, OpenApiSchema> {
  const out: Record<string, OpenApiSchema> = { '403': { $ref: '#/components/responses/Forbidden' } };
  const names = { '400': 'BadRequest', '404': 'NotFound', '409': 'Conflict' } as const;
  for (const c of codes) out[c] = { $ref: `#/components/responses/${names[c]}` };
  return out;
}

/** `/ipam/prefixes/` → `ipam_prefixes`, the operation id stem drf-spectacular derives. */
function operationStem(path: string): string {
  return path.replace(/\{[^}]+\}/g, '').split('/').filter(Boolean).join('_').replace(/-/g, '_');
}

/** OpenAPI path template of an Express path (`:id` → `{id}`), relative to `/api`. */
export function templatePath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function tagOf(model: ModelMeta): string {
  return model.app.urlBase.split('/')[0];
}

/** What every operation of one route shares: the route, its operation id stem and tags. */
interface RouteContext {
  entry: RouteEntry;
  stem: string;
  tags: string[];
}

/** A generic model operation, its shapes taken from the model's schemas. */
function modelOperation(operation: ModelOperation, model: ModelMeta, route: RouteContext, c: Components): OpenApiSchema | undefined {
  const { stem, tags } = route;
  const version = [versionParameter()];
  const one = () => ref(c.read(model));
  switch (operation) {
    case 'list':
      return {
        operationId: `${stem}_list`,
        description: `List ${model.verboseNamePlural}; every filter may be combined, repeated values are alternatives.`,
        tags,
        parameters: [...filterParameters(model), ...paginationParameters(), briefParameter(), ...version],
        responses: { '200': { description: 'A page of objects', content: json(ref(c.paginated(model))) }, ...errors('400') },
      };
    case 'create': {
      const writable = ref(c.writable(model, false));
      return {
        operationId: `${stem}_create`,
        description: `Create one ${model.verboseName}, or several from an array (all or none).`,
        tags,
        parameters: version,
        requestBody: body({ oneOf: [writable, arrayOf(writable)] }),
        responses: {
          '201': { description: 'The created object(s); `ETag` when one object was created', headers: etagHeader(), content: json({ oneOf: [one(), arrayOf(one())] }) },
          ...errors('400'),
        },
      };
    }
    case 'bulk_update':
      return {
        operationId: `${stem}_bulk_update`,
        description: 'Replace several objects, each identified by its `id` (all or none).',
        tags,
        parameters: version,
        requestBody: body(arrayOf(ref(c.bulkWritable(model, false)))),
        responses: { '200': { description: 'The updated objects', content: json(arrayOf(one())) }, ...errors('400') },
      };
    case 'bulk_partial_update':
      return {
        operationId: `${stem}_bulk_partial_update`,
        description: 'Change the given fields of several objects, each identified by its `id` (all or none).',
        tags,
        parameters: version,
        requestBody: body(arrayOf(ref(c.bulkWritable(model, true)))),
        responses: { '200': { description: 'The updated objects', content: json(arrayOf(one())) }, ...errors('400') },
      };
    case 'bulk_destroy':
      return {
        operationId: `${stem}_bulk_destroy`,
        description: 'Delete several objects given as `[{"id": ...}]` (all or none).',
        tags,
        parameters: version,
        requestBody: body(arrayOf(ref(c.bulkOperation(model)))),
        responses: { '204': { description: 'Deleted' }, ...errors('400', '409') },
      };
    case 'retrieve':
      return {
        operationId: `${stem}_retrieve`,
        tags,
        parameters: [briefParameter(), ...version, ifNoneMatch()],
        responses: {
          '200': { description: 'The object', headers: etagHeader(), content: json(one()) },
          '304': { $ref: '#/components/responses/NotModified' },
          ...errors('404'),
        },
      };
    case 'update':
    case 'partial_update':
      return {
        operationId: `${stem}_${operation}`,
        tags,
        parameters: [...version, ifMatch()],
        requestBody: body(ref(c.writable(model, operation === 'partial_update'))),
        responses: { '200': { description: 'The updated object', headers: etagHeader(), content: json(one()) }, ...errors('400', '404'), ...preconditionFailed() },
      };
    case 'destroy':
      return {
        operationId: `${stem}_destroy`,
        tags,
        parameters: [...version, ifMatch()],
        responses: { '204': { description: 'Deleted' }, ...errors('404', '409'), ...preconditionFailed() },
      };
    case 'metadata':
      return undefined;
  }
}

const ACTION_SUFFIX: Record<string, string> = { GET: 'list', POST: 'create', PUT: 'update', PATCH: 'partial_update', DELETE: 'destroy' };

/** Extra actions: their bodies are the action's own, described generically. */
function actionOperation(method: HttpMethod, route: RouteContext): OpenApiSchema {
  const operation: OpenApiSchema = {
    operationId: `${route.stem}_${ACTION_SUFFIX[method] ?? method.toLowerCase()}`,
    tags: route.tags,
    parameters: [versionParameter()],
    responses: {
      [method === 'POST' ? '201' : '200']: { description: 'Result of the action', content: json({ oneOf: [{ type: 'object' }, arrayOf({ type: 'object' })] }) },
      ...(method === 'POST' ? { '204': { description: 'Nothing could be done (e.g. no free space); `detail` says why', content: json(ref('Error')) } } : {}),
      ...errors('400', '404'),
    },
  };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    operation.requestBody = body({ oneOf: [{ type: 'object' }, arrayOf({ type: 'object' })] });
  }
  return operation;
}

/** Routes outside the models answer objects of their own. */
function extraOperation(method: HttpMethod, route: RouteContext): OpenApiSchema {
  const lower = method.toLowerCase();
  return {
    operationId: `${route.stem}_${lower === 'get' ? 'retrieve' : lower}`,
    tags: route.tags,
    parameters: [versionParameter()],
    responses: { '200': { description: 'OK', content: json({ type: 'object', additionalProperties: true }) }, ...errors() },
  };
}

/** The operation of one method of a route; none for OPTIONS and listings, which are not documented. */
function operationOf(method: HttpMethod, routeMethod: RouteMethod, route: RouteContext, c: Components): OpenApiSchema | undefined {
  const { operation } = routeMethod;
  const model = route.entry.model;
  if (operation === 'action') return actionOperation(method, route);
  if (operation === 'extra') return extraOperation(method, route);
  if (operation === 'index' || !model) return undefined;
  return modelOperation(operation, model, route, c);
}

/** The path item of a documented route, or none when no method of it is an operation. */
function pathItem(entry: RouteEntry, c: Components): PathItem | undefined {
  const stem = operationStem(templatePath(entry.path));
  const route: RouteContext = { entry, stem, tags: [entry.model ? tagOf(entry.model) : stem.split('_')[0]] };
  const item: PathItem = {};
  if (entry.detail && entry.model) item.parameters = [idParameter(entry.model)];
  let operations = 0;
  for (const [method, routeMethod] of Object.entries(entry.methods) as Array<[HttpMethod, RouteMethod]>) {
    const operation = operationOf(method, routeMethod, route, c);
    if (!operation) continue;
    item[method.toLowerCase()] = operation;
    operations++;
  }
  return operations ? item : undefined;
}

/**
 * The OpenAPI 3.0 document of one API version, from the route table and the registry: paths
 * relative to `/api` (servers `[{url: '/api'}]`), one read, writable and patched schema per
 * model, filters as query parameters, the pagination envelope, error bodies and the token scheme.
 */
export function buildOpenApi(sources: OpenApiSources, version: ApiVersion): OpenApiDocument {
  const c = new Components(sources.registry, version);
  c.errors();
  const paths: Record<string, PathItem> = {};
  for (const entry of sources.table) {
    if (!entry.documented) continue;
    const item = pathItem(entry, c);
    if (item) paths[templatePath(entry.path)] = item;
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const schemas = Object.fromEntries(Object.entries(c.schemas).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.0.3',
    info: {
      title: 'API Documentation',
      version: `${sources.serverVersion} (${version})`,
      description: 'Source of truth and network automation platform',
      license: { name: 'Apache v2 License' },
    },
    servers: [{ url: '/api' }],
    paths: sorted,
    components: {
      schemas,
      responses: RESPONSES,
      headers: HEADERS,
      parameters: PARAMETERS,
      securitySchemes: {
        tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token-based authentication with required prefix "Token"' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
      },
    },
    security: [{ cookieAuth: [] }, { tokenAuth: [] }],
  };
}
