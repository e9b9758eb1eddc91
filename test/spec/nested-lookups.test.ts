/**
 * Related objects written as attribute objects (`"site": {"tenant__slug": "ta"}`, reference
 * behaviour-objects.md §4.2): they match only objects the writer may view, a hidden one reading
 * as no match, and only through the model's own fields (and, along its foreign keys, theirs),
 * never back through reverse relations.
 */
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
type Obj = Record<string, any>;
const ok = async (res: { status: number; body: any }, status = 201): Promise<Obj> => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const PREFIXES = '/api/ipam/prefixes/';

let siteA: Obj;
let siteB: Obj;
let restricted: string;
let blind: string;

async function prefixCount(): Promise<number> {
  return (await ok(await app.get(`${PREFIXES}?limit=1`), 200)).count;
}

beforeAll(async () => {
  app = await startApp();
  const ta = await ok(await app.post('/api/tenancy/tenants/', { name: 'ta' }));
  const tb = await ok(await app.post('/api/tenancy/tenants/', { name: 'tb' }));
  siteA = await ok(await app.post('/api/dcim/sites/', { name: 'site-a', status: 'active', tenant: ta.id }));
  siteB = await ok(await app.post('/api/dcim/sites/', { name: 'site-b', status: 'active', tenant: tb.id }));
  // May add (and view) prefixes anywhere, but view only the sites of tenant ta.
  const user = await app.createUser('restricted');
  restricted = await app.createToken(user);
  await ok(await app.post('/api/users/permissions/', { name: 'prefixes', users: [user], object_types: ['ipam.prefix'], actions: ['view', 'add'] }));
  await ok(await app.post('/api/users/permissions/', { name: 'sites of ta', users: [user], object_types: ['dcim.site'], actions: ['view'], constraints: { tenant__slug: 'ta' } }));
  // May add prefixes, and view no site at all.
  const other = await app.createUser('blind');
  blind = await app.createToken(other);
  await ok(await app.post('/api/users/permissions/', { name: 'prefixes only', users: [other], object_types: ['ipam.prefix'], actions: ['view', 'add'] }));
});
afterAll(async () => {
  await app?.close();
});

describe('attribute objects match only objects the writer may view', () => {
  test('a hidden site is not found by its attributes: 400, nothing created', async () => {
    const before = await prefixCount();
    const byTenant = await app.post(PREFIXES, { prefix: '10.1.0.0/16', status: 'active', site: { tenant__slug: 'tb' } }, restricted);
    expect(byTenant.status).toBe(400);
    expect(byTenant.body).toEqual({ site: ["Related object not found using the provided attributes: {'tenant__slug': 'tb'}"] });
    const byName = await app.post(PREFIXES, { prefix: '10.1.0.0/16', status: 'active', site: { name: 'site-b' } }, restricted);
    expect(byName.status).toBe(400);
    expect(byName.body).toEqual({ site: ["Related object not found using the provided attributes: {'name': 'site-b'}"] });
    // Nothing tells a hidden match from no match: one that matches both sites finds only the visible one.
    const either = await ok(await app.post(PREFIXES, { prefix: '10.2.0.0/16', status: 'active', site: { status__slug: 'active' } }, restricted));
    expect(either.site.id).toBe(siteA.id);
    expect(await prefixCount()).toBe(before + 1);
  });

  test('a visible site is found by attributes, flat or nested', async () => {
    const flat = await ok(await app.post(PREFIXES, { prefix: '10.3.0.0/16', status: 'active', site: { tenant__slug: 'ta' } }, restricted));
    expect(flat.site).toMatchObject({ id: siteA.id, name: 'site-a' });
    const nested = await ok(await app.post(PREFIXES, { prefix: '10.4.0.0/16', status: 'active', site: { tenant: { slug: 'ta' }, name: 'site-a' } }, restricted));
    expect(nested.site.id).toBe(siteA.id);
  });

  test('a writer who may view no site finds none', async () => {
    const res = await app.post(PREFIXES, { prefix: '10.5.0.0/16', status: 'active', site: { name: 'site-a' } }, blind);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ site: ["Related object not found using the provided attributes: {'name': 'site-a'}"] });
  });

  test('a superuser is unaffected', async () => {
    const created = await ok(await app.post(PREFIXES, { prefix: '10.6.0.0/16', status: 'active', site: { tenant__slug: 'tb' } }));
    expect(created.site.id).toBe(siteB.id);
  });
});

describe('attribute objects name the model’s own fields', () => {
  test('a reverse relation is an unknown key: 400 naming it, for superusers too, nothing created', async () => {
    const before = await prefixCount();
    for (const key of [restricted, undefined]) {
      const res = await app.post(PREFIXES, { prefix: '10.7.0.0/16', status: 'active', site: { prefixes__prefix: '10.6.0.0/16' } }, key);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['site']);
      expect(res.body.site).toHaveLength(1);
      expect(res.body.site[0]).toMatch(/^Cannot resolve keyword 'prefixes' into field\. Choices are: /);
      // The choices are the site's own fields, not the relations pointing at it.
      const choices = (res.body.site[0] as string).split('Choices are: ')[1].split(', ');
      expect(choices).toContain('tenant');
      expect(choices).not.toContain('prefixes');
    }
    const unknown = await app.post(PREFIXES, { prefix: '10.7.0.0/16', status: 'active', site: { nonsense: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.site[0]).toMatch(/^Cannot resolve keyword 'nonsense' into field\./);
    expect(await prefixCount()).toBe(before);
  });
});
