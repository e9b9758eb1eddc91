/**
 * Object permissions (reference behaviour-auth.md §6–§7): model-level checks, constraints as
 * lookups (AND within an object, OR across a list and across permissions), users and groups,
 * `$user`, network lookups, the outcomes per operation, OPTIONS, and exempt views.
 */
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
type Obj = Record<string, any>;
const ok = async (res: { status: number; body: any }, status = 201): Promise<Obj> => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const DENIED = { detail: 'You do not have permission to perform this action.' };
const SITES = '/api/dcim/sites/';
const names = (res: { body: { results: Obj[] } }) => res.body.results.map((r) => r.name ?? r.prefix);

/** A user with one permission, and their token. */
async function userWith(username: string, permission: Obj | null): Promise<{ id: string; key: string }> {
  const id = await app.createUser(username);
  const key = await app.createToken(id);
  if (permission) await ok(await app.post('/api/users/permissions/', { name: `${username} perm`, users: [id], ...permission }));
  return { id, key };
}

let eu: Obj;
let us: Obj;
beforeAll(async () => {
  app = await startApp();
  eu = await ok(await app.post('/api/dcim/regions/', { name: 'EU' }));
  us = await ok(await app.post('/api/dcim/regions/', { name: 'US' }));
  await ok(await app.post(SITES, [
    { name: 'ams1', status: 'active', region: eu.id },
    { name: 'fra1', status: 'planned', region: eu.id },
    { name: 'nyc1', status: 'active', region: us.id },
  ]));
});
afterAll(async () => {
  await app?.close();
});

describe('view', () => {
  test('constraints hide objects from lists and details (404); the count follows', async () => {
    const { key } = await userWith('viewer', { object_types: ['dcim.site'], actions: ['view'], constraints: { region__slug: 'eu' } });
    const list = await app.get(SITES, key);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(names(list)).toEqual(['ams1', 'fra1']);
    const nyc = (await app.get(`${SITES}?name=nyc1`)).body.results[0];
    const hidden = await app.get(`${SITES}${nyc.id}/`, key);
    expect(hidden.status).toBe(404);
    expect((await app.get('/api/dcim/regions/', key)).status).toBe(403);
  });

  test('keys of one object AND; a list of objects ORs', async () => {
    const and = await userWith('and', { object_types: ['dcim.site'], actions: ['view'], constraints: { region__slug: 'eu', status__slug: 'active' } });
    expect(names(await app.get(SITES, and.key))).toEqual(['ams1']);
    const or = await userWith('or', { object_types: ['dcim.site'], actions: ['view'], constraints: [{ name: 'ams1' }, { region__slug: 'us' }] });
    expect(names(await app.get(SITES, or.key))).toEqual(['ams1', 'nyc1']);
  });

  test('several permissions OR; an unconstrained one admits everything; disabled ones count for nothing', async () => {
    const u = await userWith('multi', { object_types: ['dcim.site'], actions: ['view'], constraints: { name: 'fra1' } });
    await ok(await app.post('/api/users/permissions/', { name: 'nyc', users: [u.id], object_types: ['dcim.site'], actions: ['view'], constraints: { name: 'nyc1' } }));
    expect(names(await app.get(SITES, u.key))).toEqual(['fra1', 'nyc1']);
    const all = await ok(await app.post('/api/users/permissions/', { name: 'all', users: [u.id], object_types: ['dcim.site'], actions: ['view'], enabled: false }));
    expect(names(await app.get(SITES, u.key))).toEqual(['fra1', 'nyc1']);
    await ok(await app.patch(`/api/users/permissions/${all.id}/`, { enabled: true }), 200);
    expect(names(await app.get(SITES, u.key))).toEqual(['ams1', 'fra1', 'nyc1']);
  });

  test('permissions reach users through groups', async () => {
    const group = await ok(await app.post('/api/users/groups/', { name: 'noc' }));
    const u = await userWith('member', null);
    await ok(await app.patch(`/api/users/users/${u.id}/`, { groups: [group.id] }), 200);
    expect((await app.get(SITES, u.key)).status).toBe(403);
    await ok(await app.post('/api/users/permissions/', { name: 'noc sites', groups: [group.id], object_types: ['dcim.site'], actions: ['view'], constraints: { region__slug: 'us' } }));
    expect(names(await app.get(SITES, u.key))).toEqual(['nyc1']);
    const g = await app.get(`/api/users/groups/${group.id}/`);
    expect(g.body).toMatchObject({ id: group.id, name: 'noc', user_count: 1 });
    const byGroup = await app.get('/api/users/users/?group=noc');
    expect(byGroup.body.results.map((x: Obj) => x.username)).toEqual(['member']);
  });

  test('$user stands for the requesting user', async () => {
    const u = await userWith('selfish', { object_types: ['users.user'], actions: ['view'], constraints: { id: '$user' } });
    const res = await app.get('/api/users/users/', u.key);
    expect(res.body.results.map((x: Obj) => x.username)).toEqual(['selfish']);
  });

  test('constraints through tags (a generic link table)', async () => {
    await ok(await app.post('/api/extras/tags/', { name: 'Gold', slug: 'gold', content_types: ['dcim.site'] }));
    const ams = (await app.get(`${SITES}?name=ams1`)).body.results[0];
    await ok(await app.patch(`${SITES}${ams.id}/`, { tags: [{ slug: 'gold' }] }), 200);
    const u = await userWith('golden', { object_types: ['dcim.site'], actions: ['view'], constraints: { tags__slug: 'gold', status__slug: 'active' } });
    expect(names(await app.get(SITES, u.key))).toEqual(['ams1']);
  });

  test('network lookups work in constraints, by field or stored column name', async () => {
    await ok(await app.post('/api/ipam/prefixes/', [
      { prefix: '10.0.0.0/8', status: 'container' }, { prefix: '10.1.0.0/16', status: 'active' }, { prefix: '192.168.0.0/16', status: 'active' },
    ]));
    const a = await userWith('tens', { object_types: ['ipam.prefix'], actions: ['view'], constraints: { prefix__net_contained_or_equal: '10.0.0.0/8' } });
    expect(names(await app.get('/api/ipam/prefixes/', a.key))).toEqual(['10.0.0.0/8', '10.1.0.0/16']);
    const b = await userWith('nets', { object_types: ['ipam.prefix'], actions: ['view'], constraints: { network__net_contained: '10.0.0.0/8' } });
    expect(names(await app.get('/api/ipam/prefixes/', b.key))).toEqual(['10.1.0.0/16']);
  });
});

describe('writes', () => {
  test('create inside the add constraints: 201; outside: 403 and nothing written', async () => {
    const u = await userWith('adder', { object_types: ['dcim.site'], actions: ['add', 'view'], constraints: { region__slug: 'eu' } });
    await ok(await app.post(SITES, { name: 'par1', status: 'active', region: eu.id }, u.key));
    const out = await app.post(SITES, { name: 'bos1', status: 'active', region: us.id }, u.key);
    expect(out.status).toBe(403);
    expect(out.body).toEqual(DENIED);
    expect((await app.get(`${SITES}?name=bos1`)).body.count).toBe(0);
    const bulk = await app.post(SITES, [{ name: 'mad1', status: 'active', region: eu.id }, { name: 'bos2', status: 'active', region: us.id }], u.key);
    expect(bulk.status).toBe(403);
    expect((await app.get(`${SITES}?name=mad1`)).body.count).toBe(0);
  });

  test('change: outside the set 404; a change leaving the set 403 and rolled back', async () => {
    const u = await userWith('changer', { object_types: ['dcim.site'], actions: ['change', 'view'], constraints: { region__slug: 'eu' } });
    const ams = (await app.get(`${SITES}?name=ams1`)).body.results[0];
    const nyc = (await app.get(`${SITES}?name=nyc1`)).body.results[0];
    await ok(await app.patch(`${SITES}${ams.id}/`, { description: 'mine' }, u.key), 200);
    expect((await app.patch(`${SITES}${nyc.id}/`, { description: 'x' }, u.key)).status).toBe(404);
    const leave = await app.patch(`${SITES}${ams.id}/`, { region: us.id }, u.key);
    expect(leave.status).toBe(403);
    expect((await app.get(`${SITES}${ams.id}/`)).body.region.id).toBe(eu.id);
    const bulk = await app.patch(SITES, [{ id: ams.id, description: 'bulk' }, { id: nyc.id, description: 'bulk' }], u.key);
    expect(bulk.status).toBe(200);
    expect(bulk.body.map((s: Obj) => s.name)).toEqual(['ams1']);
    expect((await app.get(`${SITES}${nyc.id}/`)).body.description).toBe('');
  });

  test('delete: outside the set 404; bulk deletes skip what is not permitted', async () => {
    await ok(await app.post(SITES, [{ name: 'del-eu', status: 'active', region: eu.id }, { name: 'del-us', status: 'active', region: us.id }]));
    const u = await userWith('deleter', { object_types: ['dcim.site'], actions: ['delete', 'view'], constraints: { region__slug: 'eu', name__startswith: 'del-' } });
    const delEu = (await app.get(`${SITES}?name=del-eu`)).body.results[0];
    const delUs = (await app.get(`${SITES}?name=del-us`)).body.results[0];
    expect((await app.delete(`${SITES}${delUs.id}/`, undefined, u.key)).status).toBe(404);
    expect((await app.delete(SITES, [{ id: delEu.id }, { id: delUs.id }], u.key)).status).toBe(204);
    expect((await app.get(`${SITES}${delEu.id}/`)).status).toBe(404);
    expect((await app.get(`${SITES}${delUs.id}/`)).status).toBe(200);
  });

  test('OPTIONS shows POST only to callers who may add, PUT only to those who may change', async () => {
    const viewer = await userWith('optviewer', { object_types: ['dcim.site'], actions: ['view'] });
    const res = await app.options(SITES, viewer.key);
    expect(res.status).toBe(200);
    expect(res.body.actions).toBeUndefined();
    const adder = await userWith('optadder', { object_types: ['dcim.site'], actions: ['add'] });
    expect(Object.keys((await app.options(SITES, adder.key)).body.actions)).toEqual(['POST']);
    const changer = await userWith('optchanger', { object_types: ['dcim.site'], actions: ['add', 'change'] });
    expect(Object.keys((await app.options(SITES, changer.key)).body.actions)).toEqual(['POST', 'PUT']);
  });

  test('invalid constraints are refused when the permission is saved', async () => {
    const res = await app.post('/api/users/permissions/', { name: 'bad', object_types: ['dcim.site'], actions: ['view'], constraints: { colour: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body.constraints[0]).toMatch(/^Invalid filter for dcim\.site: Cannot resolve keyword 'colour' into field/);
    const types = await app.post('/api/users/permissions/', { name: 'bad', object_types: ['dcim.nothing'], actions: ['view'] });
    expect(types.body).toEqual({ object_types: ['Invalid content type: dcim.nothing'] });
    const actions = await app.post('/api/users/permissions/', { name: 'bad', object_types: ['dcim.site'], actions: [] });
    expect(actions.status).toBe(400);
  });
});

describe('user preferences', () => {
  test('GET /api/users/config/ is the caller’s own; PATCH merges keys', async () => {
    const u = await userWith('prefs', null);
    expect((await app.get('/api/users/config/', u.key)).body).toEqual({});
    await ok(await app.patch('/api/users/config/', { pagination: { per_page: 100 }, theme: 'dark' }, u.key), 200);
    const res = await ok(await app.patch('/api/users/config/', { pagination: { placement: 'top' } }, u.key), 200);
    expect(res).toEqual({ pagination: { per_page: 100, placement: 'top' }, theme: 'dark' });
    expect((await app.get('/api/users/config/')).body).toEqual({});
    expect((await app.get('/api/users/config/', null)).status).toBe(403);
  });
});

describe('exempt views', () => {
  let exempt: TestApp;
  beforeAll(async () => {
    exempt = await startApp({ NETINV_EXEMPT_VIEW_PERMISSIONS: 'dcim.site' });
    await ok(await exempt.post(SITES, { name: 'open', status: 'active' }));
  });
  afterAll(async () => {
    await exempt?.close();
  });

  test('anonymous GET of an exempt model works; everything else anonymous is 403', async () => {
    const list = await exempt.get(SITES, null);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    expect((await exempt.get(`${SITES}${list.body.results[0].id}/`, null)).status).toBe(200);
    expect((await exempt.post(SITES, { name: 'x', status: 'active' }, null)).status).toBe(403);
    expect((await exempt.get('/api/dcim/regions/', null)).status).toBe(403);
    expect((await exempt.get('/api/', null)).status).toBe(403);
  });

  test('an authenticated user without permissions reads exempt models', async () => {
    const key = await exempt.createToken(await exempt.createUser('nobody'));
    expect((await exempt.get(SITES, key)).status).toBe(200);
    expect((await exempt.get('/api/dcim/regions/', key)).status).toBe(403);
  });

  test('* exempts every model except accounts and permissions', async () => {
    const star = await startApp({ NETINV_EXEMPT_VIEW_PERMISSIONS: '*' });
    try {
      expect((await star.get('/api/dcim/regions/', null)).status).toBe(200);
      expect((await star.get('/api/ipam/prefixes/', null)).status).toBe(200);
      for (const path of ['/api/users/users/', '/api/users/groups/', '/api/users/permissions/']) {
        expect((await star.get(path, null)).status).toBe(403);
      }
    } finally {
      await star.close();
    }
  });
});
