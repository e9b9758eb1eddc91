/**
 * The route table is the one description of what `/api` serves: the OpenAPI document of every
 * version lists exactly its documented routes and methods, every route and method of it answers
 * through the router, and nothing can change it once the server has started.
 */
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { templatePath } from '../../framework/openapi';
import type { RouteEntry } from '../../framework/router/route-table';
import { SUPPORTED_VERSIONS } from '../../framework/versioning/version';
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { appForThisFile } from '../helpers/harness';

// Each of these walks every route of the table; their time grows with the model set.
const ROUTE_WALK_MS = 300_000;

type PathItem = Record<string, unknown> & { parameters?: Array<{ name: string; schema: { type: string } }> };
type Doc = { paths: Record<string, PathItem> };

const app = appForThisFile({ NETINV_PLUGINS: EXAMPLE_PLUGIN });

/** `GET /ipam/prefixes/{id}/` for each documented method of the table (OPTIONS is never documented). */
function tableOperations(routes: readonly RouteEntry[]): string[] {
  return routes
    .filter((e) => e.documented)
    .flatMap((e) => Object.keys(e.methods).filter((m) => m !== 'OPTIONS').map((m) => `${m} ${templatePath(e.path)}`))
    .sort();
}

function documentOperations(doc: Doc): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item).filter((k) => k !== 'parameters').map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

/**
 * A request that changes nothing: an id no object has, and a body no handler accepts (415), so
 * a served route answers with an error of its own.
 */
function harmless(method: string, path: string, integerId: boolean): Promise<Response> {
  const url = `/api${path.replace(/:id|\{id\}/, integerId ? '2147483647' : randomUUID())}`;
  const request = app.raw()[method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'options'](url);
  request.set('Authorization', `Token ${app.token}`).set('Accept', 'application/json');
  if (method === 'GET' || method === 'OPTIONS') return request;
  return request.set('Content-Type', 'text/plain').send('not json');
}

/**
 * Served: the pipeline of a route answered (it sends API-Version, except on the few views Nautobot
 * leaves unversioned, which answer these requests with a 2xx), not the 404 of unknown paths (which
 * has none) and not a 405 for a method the route lacks.
 */
function served(res: Response): boolean {
  return res.status !== 405 && (res.headers['api-version'] !== undefined || res.status < 300);
}

describe.each(SUPPORTED_VERSIONS.map((v) => [String(v)]))('API %s', (version) => {
  test('the document lists exactly the documented routes and methods of the table', async () => {
    const res = await app.get(`/api/swagger.json?api_version=${version}`);
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as Doc;
    const inDocument = documentOperations(doc);
    const inTable = tableOperations(app.server.routes);
    expect(inTable.filter((op) => !inDocument.includes(op))).toEqual([]);
    expect(inDocument.filter((op) => !inTable.includes(op))).toEqual([]);
    for (const entry of app.server.routes.filter((e) => !e.documented)) expect(doc.paths[templatePath(entry.path)]).toBeUndefined();
  });
});

test('every operation of the document is served, and none of these requests changes anything', async () => {
  const doc = JSON.parse((await app.get('/api/swagger.json')).text) as Doc;
  const unserved: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const integerId = item.parameters?.find((p) => p.name === 'id')?.schema.type === 'integer';
    for (const method of Object.keys(item).filter((k) => k !== 'parameters')) {
      const res = await harmless(method.toUpperCase(), path, integerId);
      if (!served(res)) unserved.push(`${method.toUpperCase()} ${path} → ${res.status}`);
      if (method !== 'get') expect([method, path, res.status < 400]).toEqual([method, path, false]);
    }
  }
  expect(unserved).toEqual([]);
}, ROUTE_WALK_MS);

test('every route and method of the table is served, the undocumented ones too', async () => {
  const unserved: string[] = [];
  for (const entry of app.server.routes) {
    const integerId = entry.model?.integerPk === true;
    for (const method of Object.keys(entry.methods)) {
      const res = await harmless(method, entry.path, integerId);
      if (!served(res)) unserved.push(`${method} ${entry.path} → ${res.status}`);
    }
  }
  expect(unserved).toEqual([]);
  expect(app.server.routes.filter((e) => !e.documented).map((e) => e.path)).toEqual(
    expect.arrayContaining(['/', '/dcim/', '/plugins/', '/plugins/installed-plugins/', '/swagger.json', '/docs/']),
  );
}, ROUTE_WALK_MS);

test('the table is frozen, down to each method of each route', () => {
  const routes = app.server.routes;
  expect(Object.isFrozen(routes)).toBe(true);
  for (const entry of routes) {
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry.methods)).toBe(true);
    for (const method of Object.values(entry.methods)) {
      expect(Object.isFrozen(method)).toBe(true);
      if (method?.permission) expect(Object.isFrozen(method.permission)).toBe(true);
    }
  }
  expect(() => (routes as RouteEntry[]).push(routes[0])).toThrow(TypeError);
  expect(() => {
    (routes[0] as { documented: boolean }).documented = true;
  }).toThrow(TypeError);
});
