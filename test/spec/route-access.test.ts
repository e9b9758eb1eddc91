/**
 * Every registered route and method, tried anonymously, with a superuser's read-only token and
 * with the token of a user who holds no permission: none may answer with data or change state.
 */
import { coreRegistry } from '../../app/database';
import { CORE_APPS } from '../../app/apps';
import { actionsOf } from '../../framework/router/api';
import { startApp, type TestApp } from '../helpers/harness';
import { FACTORIES } from '../factories/all';
import { contextFor } from '../factories';

// Each of these walks every route of the table; their time grows with the model set.
const ROUTE_WALK_MS = 300_000;

const registry = coreRegistry();
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

let app: TestApp;
let readOnly: string;
let powerless: string;
/** Every route with a real object id where the route is a detail route; `get`: the status a permitted GET answers (200 unless said). */
const routes: Array<{ path: string; model: string; detail: boolean; get?: number }> = [];

/** What GET answers on action routes that do not answer 200 to a reader. */
const GET_STATUS: Record<string, number> = {
  // napalm/ is 503 as on a Nautobot without NAPALM.
  'dcim.device napalm': 503,
  // The seeded job record has no code behind it: Nautobot answers 404 for its variables.
  'extras.job variables': 404,
};

beforeAll(async () => {
  app = await startApp();
  readOnly = await app.createToken(app.adminId, { writeEnabled: false });
  powerless = await app.createToken(await app.createUser('powerless'));
  for (const model of registry.routed) {
    // Read-only endpoints (change records, content types) get their object from the factory's seed.
    const id = await contextFor(app, FACTORIES).make(model.label);
    routes.push({ path: model.listPath, model: model.label, detail: false });
    routes.push({ path: `${model.listPath}${id}/`, model: model.label, detail: true });
    for (const app_ of CORE_APPS) {
      for (const action of actionsOf(app_.actions, registry, model)) {
        // POST-only actions (a saved query's run, a job's run, approve, cancel…) answer GET with 405.
        const get = GET_STATUS[`${model.label} ${action.path}`] ?? (action.methods.GET ? 200 : 405);
        routes.push({ path: action.detail ? `${model.listPath}${id}/${action.path}/` : `${model.listPath}${action.path}/`, model: model.label, detail: action.detail, get });
      }
    }
  }
  routes.push({ path: '/api/', model: '', detail: false }, { path: '/api/status/', model: '', detail: false }, { path: '/api/users/config/', model: '', detail: false });
  for (const a of registry.apps) if (a.models.some((m) => m.path)) routes.push({ path: `/api/${a.urlBase}/`, model: '', detail: false });
}, ROUTE_WALK_MS);
afterAll(async () => {
  await app?.close();
});

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const model of registry.routed) {
    const res = await app.get(`${model.listPath}?limit=0`);
    parts.push(`${model.label}:${res.body.count}:${JSON.stringify(res.body.results.map((o: { id: unknown }) => o.id))}`);
  }
  return parts.join('\n');
}

const send = (method: string, path: string, token: string | null) => {
  const body = method === 'GET' || method === 'DELETE' ? undefined : method === 'POST' ? {} : [];
  switch (method) {
    case 'GET': return app.get(path, token);
    case 'POST': return app.post(path, body, token);
    case 'PUT': return app.put(path, body, token);
    case 'PATCH': return app.patch(path, body, token);
    default: return app.delete(path, undefined, token);
  }
};

test('anonymous: every route and method is 403 and nothing changes', async () => {
  const before = await snapshot();
  const leaks: string[] = [];
  for (const r of routes) {
    for (const m of [...METHODS, 'OPTIONS']) {
      const res = m === 'OPTIONS' ? await app.options(r.path, null) : await send(m, r.path, null);
      if (res.status !== 403) leaks.push(`${m} ${r.path} → ${res.status}`);
      else expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
  }
  expect(leaks).toEqual([]);
  expect(await snapshot()).toBe(before);
}, ROUTE_WALK_MS);

test('a read-only token: reads answer, every write is 403 (or 405 where the route has no such method), nothing changes', async () => {
  const before = await snapshot();
  const leaks: string[] = [];
  for (const r of routes) {
    for (const m of METHODS) {
      const res = await send(m, r.path, readOnly);
      if (m === 'GET') {
        if (res.status !== (r.get ?? 200)) leaks.push(`GET ${r.path} → ${res.status}`);
      } else if (![403, 405].includes(res.status)) {
        leaks.push(`${m} ${r.path} → ${res.status}`);
      }
    }
    const opts = await app.options(r.path, readOnly);
    if (opts.status === 200 && opts.body.actions) leaks.push(`OPTIONS ${r.path} offers ${Object.keys(opts.body.actions)}`);
  }
  expect(leaks).toEqual([]);
  expect(await snapshot()).toBe(before);
}, ROUTE_WALK_MS);

test('a user without permissions: 403 on every model route (own preferences excepted), nothing changes', async () => {
  const before = await snapshot();
  const leaks: string[] = [];
  for (const r of routes) {
    for (const m of METHODS) {
      const res = await send(m, r.path, powerless);
      const open = !r.model; // roots, status and preferences need only a login
      if (open) {
        if (m === 'GET' && res.status !== 200) leaks.push(`GET ${r.path} → ${res.status}`);
        continue;
      }
      if (res.status !== 403) leaks.push(`${m} ${r.path} → ${res.status}`);
    }
  }
  expect(leaks).toEqual([]);
  // Tokens too need users.view_token, even one's own.
  expect((await app.get('/api/users/tokens/', powerless)).status).toBe(403);
  expect(await snapshot()).toBe(before);
}, ROUTE_WALK_MS);
