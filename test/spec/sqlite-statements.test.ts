/**
 * SQLite plans with the value bound to a bare placeholder in LIMIT or OFFSET and then marks the
 * statement to be compiled again whenever that parameter is bound anew, so a cached list
 * statement written with `LIMIT ?` was compiled on every request. Every statement the lists run
 * hides those values from the planner (`LIMIT +?`), and pages still hold the rows they should.
 */
import BetterSqlite3 from 'better-sqlite3';
import { dialectUnderTest } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';

const onSqlite = dialectUnderTest() === 'sqlite';
const sqliteTest = (name: string, fn: () => Promise<void>) => (onSqlite ? test(name, fn) : test.skip(`${name} (skipped: SQLite's re-preparation only)`, fn));

let app: TestApp;
const prepared: string[] = [];
let restore: (() => void) | null = null;

beforeAll(async () => {
  app = await startApp();
  const site = await app.post('/api/dcim/sites/', { name: 'stmt-site', slug: 'stmt-site', status: 'active' });
  expect(site.status).toBe(201);
  const prefixes = Array.from({ length: 12 }, (_, i) => ({ prefix: `10.77.${i}.0/24`, status: 'active', site: site.body.id }));
  expect((await app.post('/api/ipam/prefixes/', prefixes)).status).toBe(201);
  const addresses = Array.from({ length: 12 }, (_, i) => ({ address: `10.77.3.${i + 1}/24`, status: 'active' }));
  expect((await app.post('/api/ipam/ip-addresses/', addresses)).status).toBe(201);
  // Watches what the application prepares from here on (the driver itself still prepares it).
  const prototype = BetterSqlite3.prototype as unknown as { prepare: (sql: string) => unknown };
  const original = prototype.prepare;
  prototype.prepare = function (this: unknown, sql: string) {
    prepared.push(sql);
    return original.call(this, sql);
  };
  restore = () => (prototype.prepare = original);
}, 60_000);
afterAll(async () => {
  restore?.();
  await app?.close();
});

const PAGES: Array<[string, number, number]> = [
  ['/api/ipam/prefixes/?limit=5&offset=3', 12, 5],
  ['/api/ipam/prefixes/?limit=5&offset=10', 12, 2],
  ['/api/ipam/prefixes/?within=10.77.0.0/16&limit=4', 12, 4],
  ['/api/ipam/ip-addresses/?parent=10.77.3.0/24&limit=3&offset=1', 12, 3],
  ['/api/ipam/ip-addresses/?limit=0', 12, 12],
  ['/api/ipam/prefixes/?brief=1&limit=2&offset=11', 12, 1],
];

sqliteTest('no list statement binds a LIMIT or OFFSET the planner reads; the pages are whole', async () => {
  for (const [path, count, size] of PAGES) {
    const res = await app.get(path);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(count);
    expect(res.body.results).toHaveLength(size);
  }
  const first = await app.get('/api/ipam/prefixes/?limit=5&offset=3');
  const again = await app.get('/api/ipam/prefixes/?limit=5&offset=4');
  expect(again.body.results.map((r: { id: string }) => r.id).slice(0, 4)).toEqual(first.body.results.map((r: { id: string }) => r.id).slice(1));
  expect(prepared.some((sql) => /\bLIMIT\b/.test(sql))).toBe(true);
  expect(prepared.filter((sql) => /\b(?:LIMIT|OFFSET)\s+\?/.test(sql))).toEqual([]);
});
