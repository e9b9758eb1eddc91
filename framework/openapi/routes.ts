import type { RequestHandler } from 'express';
import * as swaggerUi from 'swagger-ui-express';
import type { RequestContext } from '../http/context';
import type { Negotiated } from '../http/negotiation';
import type { Reply } from '../http/respond';
import type { ExtraRoute, Handler, Mount } from '../actions/declared-routes';
import { DEFAULT_VERSION, type ApiVersion } from '../versioning/version';
import { listFeatureFilters } from '../features/registry';
import type { FilterDef } from '../filterset/filterset';
import type { ModelMeta } from '../metadata/model-meta';
import { buildOpenApi, type OpenApiDocument, type OpenApiSources } from './document';
import { toYaml } from './yaml';

type Format = 'json' | 'yaml';

/** `version=` of the first media range carrying one. */
function acceptedVersion(accept: string | undefined): string | undefined {
  for (const range of (accept ?? '').split(',')) {
    for (const param of range.split(';').slice(1)) {
      const [k, v] = param.split('=').map((t) => t.trim());
      if (k?.toLowerCase() === 'version' && v !== undefined) return v.replace(/^"|"$/g, '');
    }
  }
  return undefined;
}

/** Schema documents accept any media type; `json` in it (or `?format=json`) picks JSON, else YAML. */
function schemaNegotiator(fixed?: Format) {
  return (accept: string | undefined, format: string | undefined): Negotiated => {
    const wanted: Format = fixed ?? (format === 'json' || (format === undefined && /json/i.test(accept ?? '')) ? 'json' : 'yaml');
    return { renderer: 'json', version: acceptedVersion(accept), contentType: wanted === 'json' ? 'application/vnd.oai.openapi+json' : 'application/vnd.oai.openapi' };
  };
}

/** The documentation page is HTML whatever the client asks for; errors render as HTML too. */
function pageNegotiator(accept: string | undefined): Negotiated {
  return { renderer: 'html', version: acceptedVersion(accept), contentType: 'text/html; charset=utf-8' };
}

/**
 * Filters features add in this request, per model: `cf_<name>` for the custom fields defined now,
 * `cr_<slug>__<side>` for the relationships. A few queries, whatever the number of models.
 */
async function requestFilters(ctx: RequestContext, version: ApiVersion): Promise<Map<ModelMeta, FilterDef[]>> {
  const out = new Map<ModelMeta, FilterDef[]>();
  for (const model of ctx.registry.routed) {
    const defs = await listFeatureFilters(ctx.registry, model, ctx.db.reader, ctx.features, version);
    if (defs.length) out.set(model, defs);
  }
  return out;
}

/** What the document depends on besides the version: the feature filters' names and shapes. */
function signatureOf(filters: ReadonlyMap<ModelMeta, readonly FilterDef[]>): string {
  return JSON.stringify([...filters].map(([model, defs]) => [model.label, defs.map((d) => [d.name, d.type, d.multiple, d.help ?? null])]));
}

/**
 * Documents by version and by the feature filters of the moment. The registry is frozen, but
 * custom fields and relationships live in the database: each request reads them (a few queries)
 * and the document is rebuilt only when they changed, in whichever worker process serves it.
 */
class DocumentCache {
  private static readonly KEPT = 16;
  private readonly built = new Map<string, OpenApiDocument>();
  constructor(private readonly sources: () => OpenApiSources) {}
  get(version: ApiVersion, filters: ReadonlyMap<ModelMeta, readonly FilterDef[]> = new Map()): OpenApiDocument {
    const key = `${version}\n${signatureOf(filters)}`;
    let doc = this.built.get(key);
    if (!doc) {
      doc = buildOpenApi(this.sources(), version, { featureFilters: filters });
      if (this.built.size >= DocumentCache.KEPT) this.built.delete(this.built.keys().next().value as string);
      this.built.set(key, doc);
    }
    return doc;
  }
}

async function documentReply(cache: DocumentCache, ctx: RequestContext, format: Format): Promise<Reply> {
  const version = ctx.version ?? DEFAULT_VERSION;
  const doc = cache.get(version, await requestFilters(ctx, version));
  const text = format === 'json' ? `${JSON.stringify(doc, null, 4)}\n` : toYaml(doc);
  return {
    status: 200,
    headers: { 'Content-Disposition': `inline; filename="API Documentation (${version}).${format}"` },
    raw: { contentType: format === 'json' ? 'application/vnd.oai.openapi+json' : 'application/vnd.oai.openapi', text },
  };
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STATIC = '/api/docs/static';

/**
 * Swagger UI, loading the schema of the requested version; scripts and styles are served here.
 * A session's CSRF token is in the page (as on the browsable pages) for "Try it out" to send.
 */
function docsPage(ctx: RequestContext): Reply {
  const version = ctx.version ?? DEFAULT_VERSION;
  const schemaUrl = `/api/swagger/?api_version=${version}`;
  const csrf = ctx.session ? `\n<meta name="csrf-token" content="${escapeAttribute(ctx.session.csrf)}">` : '';
  const text = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">${csrf}
<title>API Documentation (${version})</title>
<link rel="stylesheet" href="${STATIC}/swagger-ui.css">
<link rel="icon" type="image/png" href="${STATIC}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui" data-schema-url="${escapeAttribute(schemaUrl)}" data-api-version="${version}"></div>
<script src="${STATIC}/swagger-ui-bundle.js"></script>
<script src="${STATIC}/swagger-ui-standalone-preset.js"></script>
<script src="${STATIC}/netinv-docs.js"></script>
</body>
</html>
`;
  return { status: 200, headers: { 'Cache-Control': 'no-store' }, raw: { contentType: 'text/html; charset=utf-8', text } };
}

/**
 * Starts Swagger UI from the page's data attributes, so the page needs no inline script. Its
 * request interceptor makes "Try it out" work as the browsable API's forms do: a logged-in
 * session's unsafe requests carry `X-CSRFToken` (the `csrftoken` cookie, else the page's token),
 * and a bare key typed into Authorize is sent as `Token <key>`.
 */
const DOCS_SCRIPT = `(function () {
  var root = document.getElementById('swagger-ui');
  var SAFE = ['GET', 'HEAD', 'OPTIONS', 'TRACE'];
  function cookie(name) {
    var parts = document.cookie ? document.cookie.split(';') : [];
    for (var i = 0; i < parts.length; i++) {
      var part = parts[i].replace(/^\\s+/, '');
      if (part.indexOf(name + '=') === 0) return decodeURIComponent(part.slice(name.length + 1));
    }
    return null;
  }
  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return cookie('csrftoken') || (meta && meta.getAttribute('content')) || null;
  }
  function header(headers, name) {
    for (var key in headers) if (key.toLowerCase() === name.toLowerCase()) return key;
    return null;
  }
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-schema-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
    requestInterceptor: function (request) {
      var headers = request.headers = request.headers || {};
      var accept = header(headers, 'Accept') || 'Accept';
      if (!headers[accept] || headers[accept] === '*/*') headers[accept] = 'application/json; version=' + root.getAttribute('data-api-version');
      if (SAFE.indexOf(String(request.method || 'GET').toUpperCase()) < 0) {
        var token = csrfToken();
        if (token) headers['X-CSRFToken'] = token;
      }
      var auth = header(headers, 'Authorization');
      if (auth && !/^\\s*(Token|Basic|Bearer)\\s/i.test(headers[auth]) && String(headers[auth]).trim() !== '') headers[auth] = 'Token ' + String(headers[auth]).trim();
      return request;
    }
  });
})();
`;

/**
 * `/api/docs/?format=openapi` is a permanent redirect to the JSON schema (pynautobot and the
 * Ansible inventory ask for it), answered before authentication as a URL rule would be.
 */
const legacySchemaRedirect: RequestHandler = (req, res, next) => {
  if (req.path === '/' && (req.method === 'GET' || req.method === 'HEAD') && req.query.format === 'openapi') {
    res.redirect(301, '/api/swagger.json');
    return;
  }
  next();
};

const docsScript: RequestHandler = (_req, res) => {
  res.setHeader('Content-Type', 'application/javascript; charset=utf-8');
  res.setHeader('Cache-Control', 'public, max-age=3600');
  res.end(DOCS_SCRIPT);
};

export interface DocumentationRoutes {
  routes: ExtraRoute[];
  mounts: Mount[];
  /** The document of a version without database-defined filters (for generators and tests). */
  document(version: ApiVersion): OpenApiDocument;
}

/**
 * `/api/swagger/` (YAML unless JSON is asked for), `/api/swagger.json`, `/api/swagger.yaml` and
 * `/api/docs/`, for authenticated callers, each honouring `api_version`; Swagger UI's files are
 * served from the installed swagger-ui-dist under `/api/docs/static/`.
 */
export function documentationRoutes(sources: () => OpenApiSources): DocumentationRoutes {
  const cache = new DocumentCache(sources);
  const schema = (format?: Format): Handler => (ctx) => documentReply(cache, ctx, format ?? (ctx.contentType.endsWith('+json') ? 'json' : 'yaml'));
  const route = (path: string, handler: Handler, negotiate: ExtraRoute['negotiate']): ExtraRoute => ({
    path,
    auth: 'authenticated',
    methods: { GET: handler },
    negotiate,
    documented: false,
  });
  return {
    routes: [
      route('/swagger/', schema(), schemaNegotiator()),
      route('/swagger.json', schema('json'), schemaNegotiator('json')),
      route('/swagger.yaml', schema('yaml'), schemaNegotiator('yaml')),
      route('/docs/', async (ctx) => docsPage(ctx), pageNegotiator),
    ],
    mounts: [
      { path: '/docs/static/netinv-docs.js', handlers: [docsScript] },
      { path: '/docs/static', handlers: swaggerUi.serveWithOptions({ index: false, redirect: false, maxAge: '1h' }) },
      { path: '/docs', handlers: [legacySchemaRedirect] },
    ],
    document: (version) => cache.get(version),
  };
}
