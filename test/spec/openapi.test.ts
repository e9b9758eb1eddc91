/**
 * Interactive documentation and the schema (reference behaviour-endpoints.md §3): the OpenAPI
 * document of every API version is valid, lists every route the server registers, and follows
 * the fields that enter and leave with versions; Swagger UI is served with local assets.
 */
import { filterSetFor } from '../../framework/filterset/filterset';
import { templatePath } from '../../framework/openapi';
import { SUPPORTED_VERSIONS } from '../../framework/versioning/version';
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { dialectUnderTest } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';
import { externalValidation, externalValidatorAvailable, validateOpenApi } from '../helpers/openapi-validator';

type Doc = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { operationId?: string; parameters?: Array<{ name: string }> }>>;
  components: { schemas: Record<string, { properties?: Record<string, Record<string, unknown>>; required?: string[] }> };
};

let app: TestApp;
const documents = new Map<string, Doc>();

beforeAll(async () => {
  app = await startApp({ NETINV_PLUGINS: EXAMPLE_PLUGIN });
  for (const v of SUPPORTED_VERSIONS) {
    const res = await app.get(`/api/swagger.json?api_version=${v}`);
    expect(res.status).toBe(200);
    documents.set(String(v), JSON.parse(res.text) as Doc);
  }
});
afterAll(async () => {
  await app?.close();
});

describe.each(SUPPORTED_VERSIONS.map((v) => [String(v)]))('API %s', (version) => {
  test('the document is valid OpenAPI 3.0', () => {
    const doc = documents.get(version) as Doc;
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toContain(`(${version})`);
    expect(validateOpenApi(doc)).toEqual([]);
  });

  // The Python validator takes many seconds per document: it checks the oldest and newest versions
  // (the in-house validator above checks every one), once, on the default database (the document
  // does not depend on the database).
  const extremes = version === String(SUPPORTED_VERSIONS[0]) || version === String(SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]);
  if (!externalValidatorAvailable()) test.skip('openapi-spec-validator accepts it (skipped: python3 openapi_spec_validator is not installed)', () => undefined);
  else if (!extremes || dialectUnderTest() !== 'sqlite') test.skip('openapi-spec-validator accepts it (skipped: checked for the oldest and newest versions, on SQLite)', () => undefined);
  else test('openapi-spec-validator accepts it', () => {
    expect(externalValidation(documents.get(version))).toBeNull();
  });

  test('every registered route and method appears, with its filters on lists', () => {
    const doc = documents.get(version) as Doc;
    const missing: string[] = [];
    for (const entry of app.server.routes) {
      if (!entry.documented) continue;
      const item = doc.paths[templatePath(entry.path)];
      for (const method of Object.keys(entry.methods)) {
        if (method === 'OPTIONS' || method === 'HEAD') continue;
        if (!item?.[method.toLowerCase()]) missing.push(`${method} ${entry.path}`);
      }
      if (entry.kind === 'list' && entry.model && item?.get) {
        const parameters = item.get.parameters;
        expect({ path: entry.path, parameters: Array.isArray(parameters) }).toEqual({ path: entry.path, parameters: true });
        const names = (parameters as Array<{ name: string }>).map((p) => p.name);
        const filters = [...filterSetFor(entry.model).filters.keys()];
        expect(filters.filter((f) => !names.includes(f))).toEqual([]);
        expect(names).toEqual(expect.arrayContaining(['limit', 'offset']));
      }
    }
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/ipam/prefixes/{id}/available-prefixes/', '/plugins/bgp/sessions/{id}/']));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/plugins/installed-plugins') || p.startsWith('/swagger') || p.startsWith('/docs'))).toBe(false);
  });
});

test('operation ids follow <app>_<path>_<action>', () => {
  const doc = documents.get('1.2') as Doc;
  const prefixes = doc.paths['/ipam/prefixes/'];
  expect(Object.fromEntries(Object.entries(prefixes).map(([m, op]) => [m, op.operationId]))).toEqual({
    get: 'ipam_prefixes_list',
    post: 'ipam_prefixes_create',
    put: 'ipam_prefixes_bulk_update',
    patch: 'ipam_prefixes_bulk_partial_update',
    delete: 'ipam_prefixes_bulk_destroy',
  });
  expect(doc.paths['/ipam/prefixes/{id}/'].patch.operationId).toBe('ipam_prefixes_partial_update');
  expect(doc.paths['/ipam/prefixes/{id}/available-prefixes/'].post.operationId).toBe('ipam_prefixes_available_prefixes_create');
  expect(doc.paths['/plugins/bgp/autonomous-systems/'].get.operationId).toBe('plugins_bgp_autonomous_systems_list');
});

test('read, writable and patched schemas differ as the API does', () => {
  const s = (documents.get('1.3') as Doc).components.schemas;
  expect(s.Prefix.properties?.family).toMatchObject({ type: 'object', readOnly: true });
  expect(s.WritablePrefixRequest.properties).not.toHaveProperty('family');
  expect(s.WritablePrefixRequest.required).toEqual(expect.arrayContaining(['prefix', 'status']));
  expect(s.PatchedWritablePrefixRequest).not.toHaveProperty('required');
  expect(s.BulkWritablePrefixRequest.required).toEqual(expect.arrayContaining(['id', 'prefix']));
  expect(s.PatchedBulkWritablePrefixRequest.required).toEqual(['id']);
  expect(s.Prefix.properties?.vrf).toMatchObject({ allOf: [{ $ref: '#/components/schemas/NestedVRF' }], nullable: true });
  expect(Object.keys(s.NestedVRF.properties as object)).toEqual(['id', 'display', 'url', 'name', 'rd', 'prefix_count']);
  expect(s.PaginatedPrefixList.required).toEqual(['count', 'next', 'previous', 'results']);
  expect(s.User.properties).not.toHaveProperty('password');
  expect(s.WritableUserRequest.properties?.password).toMatchObject({ writeOnly: true });
});

test('fields with since/until enter and leave with the version', () => {
  const v12 = (documents.get('1.2') as Doc).components.schemas;
  const v13 = (documents.get('1.3') as Doc).components.schemas;
  expect(v12.Tag.properties).not.toHaveProperty('content_types');
  expect(v12.WritableTagRequest.properties).not.toHaveProperty('content_types');
  expect(v13.Tag.properties?.content_types).toMatchObject({ type: 'array' });
  expect(v13.WritableTagRequest.required).toContain('content_types');
  expect(v12.IPAddress.properties?.nat_outside).toMatchObject({ nullable: true, allOf: [{ $ref: '#/components/schemas/NestedIPAddress' }] });
  expect(v13.IPAddress.properties?.nat_outside).toMatchObject({ type: 'array', items: { $ref: '#/components/schemas/NestedIPAddress' } });
});

describe('schema endpoints', () => {
  test('/api/swagger.json is JSON indented by four spaces; /api/swagger.yaml the same document in YAML', async () => {
    const json = await app.get('/api/swagger.json?api_version=1.4');
    expect(json.headers['content-type']).toMatch(/^application\/vnd\.oai\.openapi\+json/);
    expect(json.headers['api-version']).toBe('1.4');
    expect(json.text.split('\n')[1]).toMatch(/^ {4}"openapi": "3\.0\.3",$/);
    const yaml = await app.get('/api/swagger.yaml?api_version=1.4');
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/^application\/vnd\.oai\.openapi/);
    expect(yaml.headers['content-disposition']).toBe('inline; filename="API Documentation (1.4).yaml"');
    // js-yaml comes with Jest; the document is loaded back by a real YAML parser.
    const { load } = require('js-yaml') as { load(text: string): unknown };
    expect(load(yaml.text)).toEqual(JSON.parse(json.text));
  });

  test('/api/swagger/ is YAML unless JSON is asked for', async () => {
    const yaml = await app.raw().get('/api/swagger/').set('Authorization', `Token ${app.token}`);
    expect(yaml.status).toBe(200);
    expect(yaml.headers['content-type']).toMatch(/^application\/vnd\.oai\.openapi(;|$)/);
    expect(yaml.text.startsWith('openapi: "3.0.3"')).toBe(true);
    const byFormat = await app.raw().get('/api/swagger/?format=json').set('Authorization', `Token ${app.token}`);
    expect(JSON.parse(byFormat.text).openapi).toBe('3.0.3');
    const byAccept = await app.raw().get('/api/swagger/').set('Authorization', `Token ${app.token}`).set('Accept', 'application/vnd.oai.openapi+json; version=1.6');
    expect(JSON.parse(byAccept.text).info.version).toContain('(1.6)');
    expect(byAccept.headers['api-version']).toBe('1.6');
  });

  test('authentication is required; a bad version is refused as everywhere', async () => {
    expect((await app.get('/api/swagger.json', null)).status).toBe(403);
    expect((await app.get('/api/swagger.yaml', null)).status).toBe(403);
    expect((await app.get('/api/swagger.json?api_version=1.9')).status).toBe(404);
  });

  test('/api/docs/?format=openapi is a permanent redirect to /api/swagger.json, for anyone', async () => {
    const res = await app.raw().get('/api/docs/?format=openapi&api_version=1.3');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/api/swagger.json');
  });
});

describe('/api/docs/', () => {
  test('Swagger UI for the requested version, every asset served here', async () => {
    const res = await app.raw().get('/api/docs/?api_version=1.5').set('Authorization', `Token ${app.token}`).set('Accept', 'text/html');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['api-version']).toBe('1.5');
    expect(res.text).toContain('data-schema-url="/api/swagger/?api_version=1.5"');
    const assets = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      expect(asset.startsWith('/api/docs/static/')).toBe(true);
      const file = await app.raw().get(asset);
      expect(file.status).toBe(200);
    }
  });

  test('anonymous callers get the 403 page', async () => {
    const res = await app.raw().get('/api/docs/').set('Accept', 'text/html');
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('extra actions and read parameters', () => {
  type Op = { parameters?: Array<{ name: string; schema?: Record<string, unknown> }>; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; requestBody?: { content: Record<string, { schema: unknown }> } };
  const op = (version: string, path: string, method: string) => (documents.get(version) as Doc).paths[path][method] as unknown as Op;
  const names = (o: Op) => (o.parameters ?? []).map((p) => p.name);
  const schemaOf = (o: Op, status: string) => o.responses[status].content?.['application/json'].schema;

  test.each(SUPPORTED_VERSIONS.map((v) => [String(v)]))('API %s: available-prefixes and available-ips answer typed objects; limit and offset are listed', (version) => {
    const s = (documents.get(version) as Doc).components.schemas;
    const prefixes = '/ipam/prefixes/{id}/available-prefixes/';
    const ips = '/ipam/prefixes/{id}/available-ips/';
    expect(schemaOf(op(version, prefixes, 'get'), '200')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/AvailablePrefix' } });
    expect(schemaOf(op(version, ips, 'get'), '200')).toEqual({ type: 'array', items: { $ref: '#/components/schemas/AvailableIP' } });
    expect(Object.keys(s.AvailablePrefix.properties as object)).toEqual(['family', 'prefix', 'vrf']);
    expect(Object.keys(s.AvailableIP.properties as object)).toEqual(['family', 'address', 'vrf']);
    expect(s.AvailableIP.required).toEqual(['family', 'address', 'vrf']);
    expect(s.AvailableIP.properties?.vrf).toMatchObject({ allOf: [{ $ref: '#/components/schemas/NestedVRF' }], nullable: true });
    expect(s.AvailablePrefix.properties?.family).toMatchObject({ type: 'integer', enum: [4, 6] });
    for (const path of [prefixes, ips]) expect(names(op(version, path, 'get'))).toEqual(expect.arrayContaining(['limit', 'offset']));

    const created = (model: string) => ({ oneOf: [{ $ref: `#/components/schemas/${model}` }, { type: 'array', items: { $ref: `#/components/schemas/${model}` } }] });
    expect(schemaOf(op(version, prefixes, 'post'), '201')).toEqual(created('Prefix'));
    expect(schemaOf(op(version, ips, 'post'), '201')).toEqual(created('IPAddress'));
    expect(op(version, prefixes, 'post').responses['204']).toBeDefined();
    // Bodies: the writable shape less what the action sets, plus prefix_length for prefixes.
    expect(s.PrefixLengthRequest.required).toEqual(expect.arrayContaining(['prefix_length', 'status']));
    expect(s.PrefixLengthRequest.properties).not.toHaveProperty('prefix');
    expect(s.PrefixLengthRequest.properties).not.toHaveProperty('vrf');
    expect(s.AvailableIPRequest.properties).not.toHaveProperty('address');
    expect(s.AvailableIPRequest.properties).toHaveProperty('dns_name');
    expect(op(version, ips, 'post').requestBody?.content['application/json'].schema).toEqual({
      oneOf: [{ $ref: '#/components/schemas/AvailableIPRequest' }, { type: 'array', items: { $ref: '#/components/schemas/AvailableIPRequest' } }],
    });
  });

  test('the documented answers match what the server answers', async () => {
    const parent = await app.post('/api/ipam/prefixes/', { prefix: '10.77.0.0/29', status: 'active' });
    expect(parent.status).toBe(201);
    const base = `/api/ipam/prefixes/${parent.body.id}`;
    const free = await app.get(`${base}/available-prefixes/`);
    expect(free.body).toEqual([{ family: 4, prefix: '10.77.0.0/29', vrf: null }]);
    const addresses = await app.get(`${base}/available-ips/?limit=2`);
    expect(addresses.body).toEqual([{ family: 4, address: '10.77.0.1/29', vrf: null }, { family: 4, address: '10.77.0.2/29', vrf: null }]);
    const one = await app.post(`${base}/available-ips/`, { status: 'active' });
    expect(one.status).toBe(201);
    expect(one.body.address).toBe('10.77.0.1/29');
    const two = await app.post(`${base}/available-prefixes/`, [{ prefix_length: 30, status: 'active' }, { prefix_length: 30, status: 'active' }]);
    expect(two.status).toBe(201);
    expect(two.body.map((p: { prefix: string }) => p.prefix)).toEqual(['10.77.0.0/30', '10.77.0.4/30']);
  });

  test('brief on reads; include and exclude where the model has keys they show or hide; no depth (API 2.x)', () => {
    for (const version of SUPPORTED_VERSIONS.map(String)) {
      expect(names(op(version, '/dcim/devices/', 'get'))).toEqual(expect.arrayContaining(['brief', 'include', 'exclude', 'limit', 'offset']));
      expect(names(op(version, '/dcim/devices/{id}/', 'get'))).toEqual(expect.arrayContaining(['brief', 'include', 'exclude']));
      expect(names(op(version, '/dcim/sites/', 'get'))).toEqual(expect.arrayContaining(['brief', 'include']));
      expect(names(op(version, '/dcim/sites/', 'get'))).not.toContain('exclude');
      expect(names(op(version, '/dcim/sites/', 'post'))).not.toContain('brief');
      // Users have neither relationships nor computed fields.
      expect(names(op(version, '/users/users/', 'get'))).not.toContain('include');
      const all = Object.values((documents.get(version) as Doc).paths).flatMap((item) => Object.values(item)).flatMap((o) => (Array.isArray(o) ? o : (o.parameters ?? [])));
      expect(all.map((p: { name: string }) => p.name)).not.toContain('depth');
    }
    const include = ((documents.get('1.6') as Doc).paths['/dcim/devices/'].get.parameters as Array<{ name: string; description?: string }>).find((p) => p.name === 'include');
    expect(include?.description).toContain('`relationships`');
    expect(include?.description).toContain('`computed_fields`');
  });

  test('the server answers as documented: include shows, exclude hides, depth is not a parameter', async () => {
    const sites = await app.get('/api/dcim/sites/?include=relationships&limit=1');
    expect(sites.status).toBe(200);
    const depth = await app.get('/api/dcim/sites/?depth=1');
    expect(depth.status).toBe(400);
    expect(depth.body).toEqual({ depth: ['Unknown filter field'] });
  });

  test('the token scheme says to enter `Token <key>`; the session scheme names the CSRF header', () => {
    const schemes = ((documents.get('1.6') as unknown as { components: { securitySchemes: Record<string, { description: string; name: string }> } }).components.securitySchemes);
    expect(schemes.tokenAuth.name).toBe('Authorization');
    expect(schemes.tokenAuth.description).toContain('`Token <key>`');
    expect(schemes.cookieAuth.description).toContain('X-CSRFToken');
  });

  test('cf_ filters follow the custom fields defined at the time of the request; relationships add cr_ filters', async () => {
    const before = JSON.parse((await app.get('/api/swagger.json?api_version=1.6')).text) as Doc;
    const siteParams = (doc: Doc) => (doc.paths['/dcim/sites/'].get.parameters ?? []).map((p) => p.name);
    expect(siteParams(before).filter((n) => n.startsWith('cf_') || n.startsWith('cr_'))).toEqual([]);

    const cf = await app.post('/api/extras/custom-fields/', { name: 'doc_rack_owner', type: 'text', content_types: ['dcim.site'] });
    expect(cf.status).toBe(201);
    const off = await app.post('/api/extras/custom-fields/', { name: 'doc_hidden', type: 'integer', filter_logic: 'disabled', content_types: ['dcim.site'] });
    expect(off.status).toBe(201);
    const rel = await app.post('/api/extras/relationships/', { name: 'Doc site vrf', slug: 'doc_site_vrf', type: 'one-to-many', source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    expect(rel.status).toBe(201);

    const after = JSON.parse((await app.get('/api/swagger.json?api_version=1.6')).text) as Doc;
    expect(validateOpenApi(after)).toEqual([]);
    const params = siteParams(after);
    expect(params).toEqual(expect.arrayContaining(['cf_doc_rack_owner', 'cf_doc_rack_owner__ic', 'cf_doc_rack_owner__nre', 'cr_doc_site_vrf__destination']));
    expect(params.filter((n) => n.startsWith('cf_doc_hidden'))).toEqual([]);
    const single = (after.paths['/dcim/sites/'].get.parameters as Array<{ name: string; schema: unknown }>).find((p) => p.name === 'cf_doc_rack_owner');
    expect(single?.schema).toEqual({ type: 'string' });
    expect((after.paths['/ipam/vrfs/'].get.parameters ?? []).map((p) => p.name)).toContain('cr_doc_site_vrf__source');
    // Only the models the custom field names; the YAML form and the other versions follow too.
    expect((after.paths['/dcim/racks/'].get.parameters ?? []).map((p) => p.name).filter((n) => n.startsWith('cf_'))).toEqual([]);
    expect((await app.get('/api/swagger.yaml?api_version=1.3')).text).toContain('name: cf_doc_rack_owner\n');
    // Each documented filter is one the server knows (an unknown parameter would be a 400 naming it).
    for (const query of ['cf_doc_rack_owner=x', 'cf_doc_rack_owner__ic=x', `cr_doc_site_vrf__destination=${rel.body.id}`]) {
      const res = await app.get(`/api/dcim/sites/?${query}`);
      expect({ query, body: JSON.stringify(res.body) }).not.toEqual({ query, body: expect.stringContaining('Unknown filter field') });
    }
    expect((await app.get('/api/dcim/sites/?cf_doc_hidden=1')).body).toEqual({ cf_doc_hidden: ['Unknown filter field'] });

    expect((await app.delete(`/api/extras/custom-fields/${cf.body.id}/`)).status).toBe(204);
    const removed = JSON.parse((await app.get('/api/swagger.json?api_version=1.6')).text) as Doc;
    expect(siteParams(removed).filter((n) => n.startsWith('cf_'))).toEqual([]);
  });
});
