import type { OpenApiSchema } from '../fields/kind';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import { actionsOf, type ExtraRoute, type ModelAction } from '../router/api';
import type { ApiVersion } from '../versioning/version';
import { Components, ref } from './components';
import { briefParameter, filterParameters, idParameter, paginationParameters, versionParameter } from './parameters';

export interface OpenApiSources {
  registry: Registry;
  /** Extra actions of models (defineActions). */
  actions?: readonly ModelAction[];
  /** Routes outside the models; those with `documented: false` are left out. */
  routes?: readonly ExtraRoute[];
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
};

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

function modelPaths(model: ModelMeta, c: Components): Record<string, PathItem> {
  const listPath = `/${model.app.urlBase}/${model.path}/`;
  const detailPath = `${listPath}{id}/`;
  const stem = operationStem(listPath);
  const tags = [tagOf(model)];
  const version = [versionParameter()];
  const list: Record<string, OpenApiSchema> = {};
  const detail: PathItem = { parameters: [idParameter(model)] };
  const one = ref(c.read(model));
  if (model.allows('list')) {
    list.get = {
      operationId: `${stem}_list`,
      description: `List ${model.verboseNamePlural}; every filter may be combined, repeated values are alternatives.`,
      tags,
      parameters: [...filterParameters(model), ...paginationParameters(), briefParameter(), ...version],
      responses: { '200': { description: 'A page of objects', content: json(ref(c.paginated(model))) }, ...errors('400') },
    };
  }
  if (model.allows('create')) {
    const writable = ref(c.writable(model, false));
    list.post = {
      operationId: `${stem}_create`,
      description: `Create one ${model.verboseName}, or several from an array (all or none).`,
      tags,
      parameters: version,
      requestBody: body({ oneOf: [writable, arrayOf(writable)] }),
      responses: { '201': { description: 'The created object(s)', content: json({ oneOf: [one, arrayOf(one)] }) }, ...errors('400') },
    };
  }
  if (model.allows('update')) {
    list.put = {
      operationId: `${stem}_bulk_update`,
      description: 'Replace several objects, each identified by its `id` (all or none).',
      tags,
      parameters: version,
      requestBody: body(arrayOf(ref(c.bulkWritable(model, false)))),
      responses: { '200': { description: 'The updated objects', content: json(arrayOf(one)) }, ...errors('400') },
    };
    list.patch = {
      operationId: `${stem}_bulk_partial_update`,
      description: 'Change the given fields of several objects, each identified by its `id` (all or none).',
      tags,
      parameters: version,
      requestBody: body(arrayOf(ref(c.bulkWritable(model, true)))),
      responses: { '200': { description: 'The updated objects', content: json(arrayOf(one)) }, ...errors('400') },
    };
    detail.put = {
      operationId: `${stem}_update`,
      tags,
      parameters: version,
      requestBody: body(ref(c.writable(model, false))),
      responses: { '200': { description: 'The updated object', content: json(one) }, ...errors('400', '404') },
    };
    detail.patch = {
      operationId: `${stem}_partial_update`,
      tags,
      parameters: version,
      requestBody: body(ref(c.writable(model, true))),
      responses: { '200': { description: 'The updated object', content: json(one) }, ...errors('400', '404') },
    };
  }
  if (model.allows('delete')) {
    list.delete = {
      operationId: `${stem}_bulk_destroy`,
      description: 'Delete several objects given as `[{"id": ...}]` (all or none).',
      tags,
      parameters: version,
      requestBody: body(arrayOf(ref(c.bulkOperation(model)))),
      responses: { '204': { description: 'Deleted' }, ...errors('400', '409') },
    };
    detail.delete = {
      operationId: `${stem}_destroy`,
      tags,
      parameters: version,
      responses: { '204': { description: 'Deleted' }, ...errors('404', '409') },
    };
  }
  if (model.allows('retrieve')) {
    detail.get = {
      operationId: `${stem}_retrieve`,
      tags,
      parameters: [briefParameter(), ...version],
      responses: { '200': { description: 'The object', content: json(one) }, ...errors('404') },
    };
  }
  const out: Record<string, PathItem> = {};
  if (Object.keys(list).length) out[listPath] = list;
  if (Object.keys(detail).length > 1) out[detailPath] = detail;
  return out;
}

const ACTION_SUFFIX: Record<string, string> = { GET: 'list', POST: 'create', PUT: 'update', PATCH: 'partial_update', DELETE: 'destroy' };

/** Extra actions: their bodies are the action's own, described generically. */
function actionPath(action: ModelAction, model: ModelMeta): [string, PathItem] {
  const base = `/${model.app.urlBase}/${model.path}/`;
  const path = action.detail ? `${base}{id}/${action.path}/` : `${base}${action.path}/`;
  const item: PathItem = {};
  if (action.detail) item.parameters = [idParameter(model)];
  const stem = operationStem(path);
  for (const method of Object.keys(action.methods)) {
    const operation: OpenApiSchema = {
      operationId: `${stem}_${ACTION_SUFFIX[method] ?? method.toLowerCase()}`,
      tags: [tagOf(model)],
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
    item[method.toLowerCase()] = operation;
  }
  return [path, item];
}

function extraRoutePath(route: ExtraRoute): [string, PathItem] {
  const item: PathItem = {};
  const stem = operationStem(route.path);
  for (const method of Object.keys(route.methods)) {
    const lower = method.toLowerCase();
    item[lower] = {
      operationId: `${stem}_${lower === 'get' ? 'retrieve' : lower}`,
      tags: [stem.split('_')[0]],
      parameters: [versionParameter()],
      responses: { '200': { description: 'OK', content: json({ type: 'object', additionalProperties: true }) }, ...errors() },
    };
  }
  return [route.path, item];
}

/**
 * The OpenAPI 3.0 document of one API version, from the registry alone: paths relative to
 * `/api` (servers `[{url: '/api'}]`), one read, writable and patched schema per model, filters
 * as query parameters, the pagination envelope, error bodies and the token scheme.
 */
export function buildOpenApi(sources: OpenApiSources, version: ApiVersion): OpenApiDocument {
  const c = new Components(sources.registry, version);
  c.errors();
  const paths: Record<string, PathItem> = {};
  for (const route of sources.routes ?? []) {
    if (route.documented === false) continue;
    const [path, item] = extraRoutePath(route);
    paths[path] = item;
  }
  for (const model of sources.registry.routed) {
    for (const action of actionsOf(sources.actions, sources.registry, model)) {
      const [path, item] = actionPath(action, model);
      paths[path] = item;
    }
    Object.assign(paths, modelPaths(model, c));
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
      securitySchemes: {
        tokenAuth: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token-based authentication with required prefix "Token"' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
      },
    },
    security: [{ cookieAuth: [] }, { tokenAuth: [] }],
  };
}
