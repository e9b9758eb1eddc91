/**
 * The HTTP layer (reference behaviour-http.md): versioning, content negotiation, request bodies,
 * headers, URLs, processing order and error bodies.
 */
import { startApp, type TestApp } from '../helpers/harness';
import { rawRequest } from '../helpers/raw-http';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ NETINV_MAX_BODY_BYTES: '4096', NETINV_MAX_JSON_DEPTH: '20' });
});
afterAll(async () => {
  await app?.close();
});

const TAGS = '/api/extras/tags/';
const SUPPORTED = 'Supported versions are 1.2, 1.3, 1.4, 1.5, 1.6';
const authed = (t: ReturnType<ReturnType<TestApp['raw']>['get']>) => t.set('Authorization', `Token ${app.token}`);

describe('API versioning', () => {
  test('default is 1.2, sent in API-Version', async () => {
    const res = await app.get(TAGS);
    expect(res.status).toBe(200);
    expect(res.headers['api-version']).toBe('1.2');
  });

  test('version in Accept is used and the accepted media type echoed', async () => {
    const res = await authed(app.raw().get(TAGS)).set('Accept', 'application/json; version=1.4');
    expect(res.status).toBe(200);
    expect(res.headers['api-version']).toBe('1.4');
    expect(res.headers['content-type']).toBe('application/json; version=1.4');
  });

  test('?api_version= is used and is not a filter', async () => {
    const res = await app.get(`${TAGS}?api_version=1.3`);
    expect(res.status).toBe(200);
    expect(res.headers['api-version']).toBe('1.3');
  });

  test('the same version in both places is fine', async () => {
    const res = await authed(app.raw().get(`${TAGS}?api_version=1.5`)).set('Accept', 'application/json; version=1.5');
    expect(res.status).toBe(200);
    expect(res.headers['api-version']).toBe('1.5');
  });

  test.each([
    ['Accept', '1.7', 406, `Invalid version in "Accept" header. ${SUPPORTED}`],
    ['Accept', '1.03', 406, `Invalid version in "Accept" header. ${SUPPORTED}`],
    ['Accept', '', 406, `Invalid version in "Accept" header. ${SUPPORTED}`],
    ['query', '2.0', 404, `Invalid version in query parameter. ${SUPPORTED}`],
    ['query', 'v1.3', 404, `Invalid version in query parameter. ${SUPPORTED}`],
  ])('invalid version in %s (%s) → %i, no API-Version', async (where, version, status, detail) => {
    const res = where === 'Accept'
      ? await authed(app.raw().get(TAGS)).set('Accept', `application/json; version=${version}`)
      : await app.get(`${TAGS}?api_version=${version}`);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ detail });
    expect(res.headers['api-version']).toBeUndefined();
  });

  test('mismatch between header and query → 400 (even before authentication)', async () => {
    const res = await app.raw().get(`${TAGS}?api_version=1.3`).set('Accept', 'application/json; version=1.4');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: 'Version mismatch between "Accept" header and query parameter.' });
  });

  test('version errors come before authentication', async () => {
    const res = await app.get(`${TAGS}?api_version=9.9`, null);
    expect(res.status).toBe(404);
  });

  test('tags gain content_types from 1.3 on', async () => {
    const old = await app.get(`${TAGS}?api_version=1.2`);
    expect(old.status).toBe(200);
    const created = await app.post(`${TAGS}?api_version=1.3`, { name: 'v13', slug: 'v13', content_types: ['dcim.site'] });
    expect(created.status).toBe(201);
    expect(created.body.content_types).toEqual(['dcim.site']);
    const in12 = await app.get(`${TAGS}${created.body.id}/?api_version=1.2`);
    expect(in12.body.content_types).toBeUndefined();
    const in13 = await app.get(`${TAGS}${created.body.id}/?api_version=1.3`);
    expect(in13.body.content_types).toEqual(['dcim.site']);
  });

  test('tags: content_types is required on create from 1.3; a 1.2 tag applies to every taggable model', async () => {
    const missing = await app.post(`${TAGS}?api_version=1.3`, { name: 'no-types', slug: 'no-types' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ content_types: ['This field is required.'] });
    const old = await app.post(`${TAGS}?api_version=1.2`, { name: 'v12', slug: 'v12', content_types: ['dcim.site'] });
    expect(old.status).toBe(201);
    expect(old.body.content_types).toBeUndefined();
    const seen = await app.get(`${TAGS}${old.body.id}/?api_version=1.3`);
    expect(seen.body.content_types).toEqual(app.server.registry.labelsWith('tags'));
    // A 1.2 update leaves the content types it cannot see alone.
    const patched = await app.patch(`${TAGS}${created13.id}/?api_version=1.2`, { description: 'seen by 1.2', content_types: [] });
    expect(patched.status).toBe(200);
    expect((await app.get(`${TAGS}${created13.id}/?api_version=1.3`)).body.content_types).toEqual(['tenancy.tenant']);
  });

  test('OPTIONS describes the fields of the requested version', async () => {
    const old = await app.options(`${TAGS}?api_version=1.2`);
    expect(old.body.actions.POST.content_types).toBeUndefined();
    const current = await app.options(`${TAGS}?api_version=1.3`);
    expect(current.body.actions.POST.content_types).toMatchObject({ required: true, read_only: false });
  });
});

let created13: { id: string };
beforeAll(async () => {
  created13 = (await app.post(`${TAGS}?api_version=1.3`, { name: 'tenants-only', slug: 'tenants-only', content_types: ['tenancy.tenant'] })).body;
});

describe('content negotiation', () => {
  test('no Accept or */*: JSON', async () => {
    const res = await authed(app.raw().get(TAGS));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  test('pynautobot trailing semicolon is echoed', async () => {
    const res = await authed(app.raw().get(TAGS)).set('Accept', 'application/json;');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;');
  });

  test('a wildcard with a version gets our type with the parameters', async () => {
    const res = await authed(app.raw().get(TAGS)).set('Accept', '*/*; version=1.4');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json;version=1.4');
    expect(res.headers['api-version']).toBe('1.4');
  });

  test('unknown Accept → 406', async () => {
    const res = await authed(app.raw().get(TAGS)).set('Accept', 'application/xml');
    expect(res.status).toBe(406);
    expect(res.body).toEqual({ detail: 'Could not satisfy the request Accept header.' });
  });

  test('?format=xml → 404; ?format=json beats a browser Accept', async () => {
    let res = await app.get(`${TAGS}?format=xml`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'Not found.' });
    res = await authed(app.raw().get(`${TAGS}?format=json`)).set('Accept', 'text/html,application/xhtml+xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  test('a browser gets HTML', async () => {
    const res = await authed(app.raw().get(TAGS)).set('Accept', 'text/html,application/xhtml+xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('&quot;count&quot;');
  });
});

describe('request bodies', () => {
  const post = (contentType: string | null, body: string) => {
    const t = authed(app.raw().post(TAGS)).set('Accept', 'application/json');
    if (contentType !== null) t.set('Content-Type', contentType);
    return t.send(body);
  };

  test('form data → 415 naming the type', async () => {
    const res = await post('application/x-www-form-urlencoded', 'name=x');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: 'Unsupported media type "application/x-www-form-urlencoded" in request.' });
  });

  test('text/plain → 415', async () => {
    const res = await post('text/plain', '{}');
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
  });

  test('charset parameter is fine', async () => {
    const res = await post('application/json; charset=utf-8', JSON.stringify({ name: 'charset', slug: 'charset' }));
    expect(res.status).toBe(201);
  });

  test('malformed JSON → 400 JSON parse error', async () => {
    const res = await post('application/json', '{"name": ');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['detail']);
    expect(res.body.detail).toMatch(/^JSON parse error - /);
  });

  test.each([
    ['"text"', 'str'],
    ['12', 'int'],
    ['true', 'bool'],
    ['null', 'NoneType'],
  ])('JSON %s where an object is expected → non_field_errors', async (body, type) => {
    const res = await post('application/json', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
  });

  test('empty body is an empty object: missing required fields', async () => {
    const res = await post('application/json', '');
    expect(res.status).toBe(400);
    expect(res.body.name).toEqual(['This field is required.']);
  });

  test('a body over NETINV_MAX_BODY_BYTES → 413, nothing written', async () => {
    const res = await post('application/json', JSON.stringify({ name: 'big', slug: 'big', description: 'x'.repeat(8000) }));
    expect(res.status).toBe(413);
    expect(typeof res.body.detail).toBe('string');
    expect((await app.get(`${TAGS}?slug=big`)).body.count).toBe(0);
  });
});

describe('JSON nesting', () => {
  const nested = (levels: number): unknown => (levels === 0 ? 'bottom' : { d: nested(levels - 1) });

  test('NETINV_MAX_JSON_DEPTH bounds written JSON values and the user config', async () => {
    const within = await app.post('/api/extras/config-contexts/', { name: 'at the limit', data: nested(20) });
    expect(within.status).toBe(201);
    const beyond = await app.post('/api/extras/config-contexts/', { name: 'beyond the limit', data: nested(21) });
    expect(beyond.status).toBe(400);
    expect(beyond.body).toEqual({ data: ['Nested too deeply: at most 20 levels of objects and lists.'] });
    // The config document itself is the first level.
    expect((await app.patch('/api/users/config/', { a: nested(19) })).status).toBe(200);
    const config = await app.patch('/api/users/config/', { a: nested(20) });
    expect(config.status).toBe(400);
    expect(config.body).toEqual({ a: ['Nested too deeply: at most 20 levels of objects and lists.'] });
  });
});

describe('JSON text', () => {
  test('line and paragraph separators are escaped as DRF writes them, other characters kept as they are', async () => {
    const description = 'a\u2028b\u2029c → ü';
    const created = await app.post(TAGS, { name: 'separators', slug: 'separators', description });
    expect(created.status).toBe(201);
    for (const res of [created, await app.get(`${TAGS}${created.body.id}/`), await app.get(`${TAGS}?slug=separators`)]) {
      expect(res.text).toContain('"description":"a\\u2028b\\u2029c → ü"');
      expect(res.text).not.toMatch(/[\u2028\u2029]/);
    }
    expect((await app.get(`${TAGS}${created.body.id}/`)).body.description).toBe(description);
  });

  test('a long response (sent as encoded bytes) is escaped the same way and its Content-Length counts bytes', async () => {
    const long = 'x'.repeat(180);
    // Ten at a time: this suite's server takes bodies of 4 KB at most.
    for (let start = 0; start < 60; start += 10) {
      const batch = Array.from({ length: 10 }, (_, k) => start + k).map((i) => ({ name: `long ${i}`, slug: `long-${i}`, description: i === 59 ? `${long}\u2029€` : long }));
      expect((await app.post(TAGS, batch)).status).toBe(201);
    }
    const res = await app.get(`${TAGS}?slug__isw=long-&limit=100`);
    expect(res.status).toBe(200);
    expect(res.text.length).toBeGreaterThan(16_384);
    expect(res.text).toContain(`"description":"${long}\\u2029€"`);
    expect(res.text).not.toMatch(/[\u2028\u2029]/);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect((res.body.results as Array<{ description: string }>).find((t) => t.description.endsWith('€'))?.description).toBe(`${long}\u2029€`);
  });
});

describe('headers and URLs', () => {
  test('security headers, Vary and Allow on a list', async () => {
    const res = await app.get(TAGS);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
  });

  test('detail Allow', async () => {
    const tag = await app.post(TAGS, { name: 'allow', slug: 'allow' });
    const res = await app.get(`${TAGS}${tag.body.id}/`);
    expect(res.headers.allow).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
  });

  test('missing trailing slash → 302 keeping the query, before authentication', async () => {
    const res = await app.raw().get('/api/extras/tags?slug=a&limit=1');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/api/extras/tags/?slug=a&limit=1');
  });

  test('non-UUID id, unknown id, unknown path → 404 Not found.', async () => {
    for (const path of [`${TAGS}foo/`, `${TAGS}00000000-0000-4000-8000-000000000000/`, '/api/extras/nothing/', '/api/nothing/']) {
      const res = await app.get(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    }
  });

  test('HEAD is GET without a body', async () => {
    // Read on the wire: HTTP clients drop whatever follows the headers of a HEAD response.
    const res = await rawRequest(app, 'HEAD', TAGS, { Authorization: `Token ${app.token}`, Accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const get = await app.get(TAGS);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(get.text)));
  });

  test('405 names the method, only after authentication', async () => {
    const anon = await app.raw().post('/api/status/').set('Accept', 'application/json');
    expect(anon.status).toBe(403);
    const res = await app.post('/api/status/', {});
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: 'Method "POST" not allowed.' });
  });

  test('/api/ lists the applications with absolute URLs', async () => {
    const res = await app.get('/api/');
    expect(res.status).toBe(200);
    for (const appLabel of ['dcim', 'extras', 'tenancy', 'users', 'virtualization']) {
      expect(res.body[appLabel]).toBe(`${app.baseUrl}/api/${appLabel}/`);
    }
    const dcim = await app.get('/api/dcim/');
    const paths = [
      'cables', 'console-port-templates', 'console-ports', 'console-server-port-templates', 'console-server-ports', 'device-bay-templates', 'device-bays',
      'device-redundancy-groups', 'device-roles', 'device-types', 'devices', 'front-port-templates', 'front-ports',
      'interface-redundancy-group-associations', 'interface-redundancy-groups', 'interface-templates', 'interfaces', 'inventory-items',
      'location-types', 'locations', 'manufacturers', 'platforms', 'power-feeds', 'power-outlet-templates', 'power-outlets', 'power-panels',
      'power-port-templates', 'power-ports', 'rack-groups', 'rack-reservations', 'rack-roles', 'racks', 'rear-port-templates', 'rear-ports', 'regions',
      'sites', 'virtual-chassis',
    ];
    expect(dcim.body).toEqual(Object.fromEntries(paths.map((p) => [p, `${app.baseUrl}/api/dcim/${p}/`])));
    const virtualization = await app.get('/api/virtualization/');
    expect(Object.keys(virtualization.body)).toEqual(['cluster-groups', 'cluster-types', 'clusters', 'interfaces', 'virtual-machines']);
  });

  test('URLs follow the Host header', async () => {
    const res = await authed(app.raw().get(TAGS)).set('Accept', 'application/json').set('Host', 'netinv.example.net');
    const created = await app.post(TAGS, { name: 'host', slug: 'host' });
    const again = await authed(app.raw().get(`${TAGS}${created.body.id}/`)).set('Accept', 'application/json').set('Host', 'netinv.example.net');
    expect(res.status).toBe(200);
    expect(again.body.url).toBe(`http://netinv.example.net${TAGS}${created.body.id}/`);
  });
});
