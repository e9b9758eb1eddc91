import type { ActionDoc, ActionField } from '../actions/declared-routes';
import type { OpenApiSchema } from '../fields/kind';
import type { FilterDef } from '../filterset/filterset';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { HttpMethod, ModelOperation, RouteEntry, RouteMethod, RouteTable } from '../router/route-table';
import type { ApiVersion } from '../versioning/version';
import { Components, ref } from './components';
import { briefParameter, filterParameters, idParameter, paginationParameters, renderParameters, versionParameter } from './parameters';

export interface OpenApiSources {
  registry: Registry;
  /** The routes the server serves; those not `documented` are left out. */
  table: RouteTable;
  /** netinv's own version, shown in `info.version` with the API version. */
  serverVersion: string;
}

/** What a document of a request adds to the registry's: data the database holds. */
export interface OpenApiRequestData {
  /** Filters features add per model (`cf_<name>` from the custom fields defined now). */
  featureFilters?: ReadonlyMap<ModelMeta, readonly FilterDef[]>;
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
  registry: Registry;
  data: OpenApiRequestData;
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
        parameters: [...filterParameters(model, route.data.featureFilters?.get(model)), ...paginationParameters(), briefParameter(), ...renderParameters(model, c.version), ...version],
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
        parameters: [briefParameter(), ...renderParameters(model, c.version), ...version, ifNoneMatch()],
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

/** A key of an action's own objects. */
function actionFieldSchema(field: ActionField, route: RouteContext, c: Components): OpenApiSchema {
  const { nullable, description } = field;
  let schema: OpenApiSchema;
  if ('nested' in field) {
    const nested = ref(c.nested(route.registry.forClass(field.nested)));
    schema = nullable || description ? { allOf: [nested] } : nested;
  } else {
    schema = { type: field.type, ...(field.format ? { format: field.format } : {}), ...(field.enum ? { enum: [...field.enum] } : {}) };
  }
  return { ...schema, ...(nullable ? { nullable: true } : {}), ...(description ? { description } : {}) };
}

/** The body item an action's doc declares: the model's writable shape less what the action sets, plus its own keys. */
function actionBody(spec: NonNullable<ActionDoc['body']>, route: RouteContext, c: Components): string {
  return c.custom(spec.name, () => {
    const writable = c.schemas[c.writable(route.registry.forClass(spec.model), false)] as { properties: Record<string, OpenApiSchema>; required?: string[] };
    const omit = new Set(spec.omit ?? []);
    const properties: Record<string, OpenApiSchema> = {};
    for (const [name, schema] of Object.entries(spec.add ?? {})) properties[name] = actionFieldSchema(schema, route, c);
    for (const [name, schema] of Object.entries(writable.properties)) if (!omit.has(name) && !(name in properties)) properties[name] = schema;
    const required = [...(spec.required ?? []), ...(writable.required ?? []).filter((n) => !omit.has(n) && !(spec.required ?? []).includes(n))];
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  });
}

/** Extra actions: described by their doc when they have one, else as any object or array of objects. */
function actionOperation(method: HttpMethod, routeMethod: RouteMethod, route: RouteContext, c: Components): OpenApiSchema {
  const doc = routeMethod.doc;
  const status = method === 'POST' ? '201' : '200';
  const anyObjects = json({ oneOf: [{ type: 'object' }, arrayOf({ type: 'object' })] });
  let answer: OpenApiSchema = { description: 'Result of the action', content: anyObjects };
  if (doc?.response && 'items' in doc.response) {
    const { items, name } = doc.response;
    const item = c.custom(name, () => ({
      type: 'object',
      properties: Object.fromEntries(Object.entries(items).map(([k, f]) => [k, actionFieldSchema(f, route, c)])),
      required: Object.keys(items),
    }));
    answer = { description: 'A bare array (not paginated)', content: json(arrayOf(ref(item))) };
  } else if (doc?.response && 'created' in doc.response) {
    const one = ref(c.read(route.registry.forClass(doc.response.created)));
    answer = { description: 'The created object, or an array of them for an array body', content: json({ oneOf: [one, arrayOf(one)] }) };
  }
  const query = (doc?.query ?? []).map((q) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: { type: q.type } }));
  const empty = doc ? doc.empty : method === 'POST' ? 'Nothing could be done (e.g. no free space); `detail` says why' : undefined;
  const operation: OpenApiSchema = {
    operationId: `${route.stem}_${ACTION_SUFFIX[method] ?? method.toLowerCase()}`,
    ...(doc?.description ? { description: doc.description } : {}),
    tags: route.tags,
    parameters: [...query, versionParameter()],
    responses: {
      [status]: answer,
      ...(empty ? { '204': { description: empty, content: json(ref('Error')) } } : {}),
      ...errors('400', '404'),
    },
  };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    if (doc?.body) {
      const item = ref(actionBody(doc.body, route, c));
      operation.requestBody = body({ oneOf: [item, arrayOf(item)] });
    } else {
      operation.requestBody = body({ oneOf: [{ type: 'object' }, arrayOf({ type: 'object' })] });
    }
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
  if (operation === 'action') return actionOperation(method, routeMethod, route, c);
  if (operation === 'extra') return extraOperation(method, route);
  if (operation === 'index' || !model) return undefined;
  return modelOperation(operation, model, route, c);
}

/** The path item of a documented route, or none when no method of it is an operation. */
function pathItem(entry: RouteEntry, c: Components, registry: Registry, data: OpenApiRequestData): PathItem | undefined {
  const stem = operationStem(templatePath(entry.path));
  const route: RouteContext = { entry, stem, tags: [entry.model ? tagOf(entry.model) : stem.split('_')[0]], registry, data };
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
export function buildOpenApi(sources: OpenApiSources, version: ApiVersion, data: OpenApiRequestData = {}): OpenApiDocument {
  const c = new Components(sources.registry, version);
  c.errors();
  const paths: Record<string, PathItem> = {};
  for (const entry of sources.table) {
    if (!entry.documented) continue;
    const item = pathItem(entry, c, sources.registry, data);
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
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'Token-based authentication with required prefix "Token": the header value is `Token <key>` (the word Token, a space, then the 40-character key; in Swagger UI\'s Authorize dialog, enter `Token <key>`). A key is made with `netinv createtoken` or `POST /api/users/tokens/`.',
        },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: 'sessionid',
          description: 'The session of a browser logged in at `/api-auth/login/`. Unsafe methods (POST, PUT, PATCH, DELETE) also need the `X-CSRFToken` header carrying the `csrftoken` cookie; Swagger UI at `/api/docs/` sends it.',
        },
      },
    },
    security: [{ cookieAuth: [] }, { tokenAuth: [] }],
  };
}
