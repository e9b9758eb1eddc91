/**
 * A first page of a long list whose ordering an index serves is read in one statement on SQLite
 * (the planner walks the index and stops when the page is full); deeper pages, orderings no index
 * serves and pages reaching past the rows without the parent of a parent-first ordering read the
 * ids first. Every path returns the same rows in the same order, on every database.
 */
import { dialectUnderTest } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';

type Obj = Record<string, unknown>;
const P = '/api/ipam/prefixes/';
/** Above the dialects' idsFirstAbove (100), so that a page is not simply read with its count. */
const WITHOUT_VRF = 130;
const WITH_VRF = 6;
const onSqlite = dialectUnderTest() === 'sqlite';
const sqliteTest = (name: string, fn: () => Promise<void>) => (onSqlite ? test(name, fn) : test.skip(`${name} (skipped: only SQLite's planner is asked which statements to run)`, fn));

let app: TestApp;

beforeAll(async () => {
  // Counts kept between requests would make the statement counts depend on the request before.
  app = await startApp({ NETINV_COUNT_QUERIES: 'true', NETINV_KEEP_LIST_COUNTS: 'false' });
  const vrf = await app.post('/api/ipam/vrfs/', { name: 'order-vrf' });
  expect(vrf.status).toBe(201);
  expect((await app.post('/api/tenancy/tenants/', { name: 'order-tenant', slug: 'order-tenant' })).status).toBe(201);
  // Created out of address order, so that the list's order is the index's, not the insertion's.
  const plain = Array.from({ length: WITHOUT_VRF }, (_, i) => ({ prefix: `10.${(i * 37) % WITHOUT_VRF}.0.0/16`, status: 'active', tenant: { slug: 'order-tenant' } }));
  const inVrf = Array.from({ length: WITH_VRF }, (_, i) => ({ prefix: `10.${i}.0.0/24`, status: 'active', vrf: vrf.body.id }));
  expect((await app.post(P, [...plain, ...inVrf])).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

async function page(query: string, count = WITHOUT_VRF + WITH_VRF): Promise<{ ids: string[]; prefixes: string[]; statements: number }> {
  const res = await app.get(`${P}?${query}`);
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(count);
  const results = res.body.results as Obj[];
  return { ids: results.map((r) => String(r.id)), prefixes: results.map((r) => String(r.prefix)), statements: Number(res.headers['x-query-count']) };
}

test('a first page, a deeper page and the whole list agree on the order', async () => {
  const all = await page(`limit=${WITHOUT_VRF + WITH_VRF}`);
  // Prefixes without a VRF first, in address order; then those with one.
  const expected = [...Array.from({ length: WITHOUT_VRF }, (_, i) => `10.${i}.0.0/16`), ...Array.from({ length: WITH_VRF }, (_, i) => `10.${i}.0.0/24`)];
  expect(all.prefixes).toEqual(expected);
  const first = await page('limit=40');
  expect(first.ids).toEqual(all.ids.slice(0, 40));
  const deeper = await page('limit=10&offset=50');
  expect(deeper.ids).toEqual(all.ids.slice(50, 60));
  const acrossParent = await page(`limit=20&offset=${WITHOUT_VRF - 10}`);
  expect(acrossParent.ids).toEqual(all.ids.slice(WITHOUT_VRF - 10, WITHOUT_VRF + 10));
});

test('a filter whose index the planner prefers to the ordering\'s gives the rows in the list\'s order', async () => {
  // An equality on an indexed foreign key: SQLite's planner reads that index and sorts what it finds.
  const tenant = await page('limit=30&tenant=order-tenant', WITHOUT_VRF);
  expect(tenant.prefixes).toEqual(Array.from({ length: 30 }, (_, i) => `10.${i}.0.0/16`));
});

sqliteTest('on SQLite a first page in index order is one statement fewer than a page that reads its ids first', async () => {
  const first = await page('limit=20');
  const deeper = await page('limit=20&offset=40');
  const unindexed = await page('limit=20&tenant=order-tenant', WITHOUT_VRF);
  const unindexedDeeper = await page('limit=20&offset=40&tenant=order-tenant', WITHOUT_VRF);
  const pastParent = await page(`limit=20&offset=${WITHOUT_VRF - 10}`);
  expect(deeper.statements).toBe(first.statements + 1);
  // Sorted by the planner either way: the ids first at every offset.
  expect(unindexedDeeper.statements).toBe(unindexed.statements);
  // The rows without a VRF and those with one: a statement each for their ids.
  expect(pastParent.statements).toBe(first.statements + 2);
});
