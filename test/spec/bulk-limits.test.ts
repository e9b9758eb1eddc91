/**
 * Bulk requests of many objects (reference behaviour-http.md §8, §9): a list body over
 * NETINV_MAX_BULK_OBJECTS is refused before anything is written; below it, any number of ids
 * works on every database (id lists longer than a statement may bind are bound as one list); and
 * the server keeps answering other clients while a large bulk write runs.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../app/config';
import { Store } from '../../framework';
import { Tenant } from '../../models/tenancy/tenant';
import { freshDatabaseUrl } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
type Obj = Record<string, any>;
const TENANTS = '/api/tenancy/tenants/';
/** Above SQLite's 32,766 and PostgreSQL's 65,535 bound values per statement. */
const MANY = 70_000;

const store = () => new Store(app.server.db.reader, app.server.registry);
const tenantCount = (where: Record<string, unknown> = {}) => store().count(Tenant, where);

beforeAll(async () => {
  // A file database on SQLite: reads then have a connection of their own, as in production.
  app = await startApp(
    { NETINV_MAX_BULK_OBJECTS: String(MANY), NETINV_MAX_BODY_BYTES: String(16 * 1024 * 1024) },
    { databaseUrl: await freshDatabaseUrl({ persistent: true }) },
  );
});
afterAll(async () => {
  await app?.close();
});

test('NETINV_MAX_BULK_OBJECTS defaults to 5000; 0 means no limit', () => {
  expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).maxBulkObjects).toBe(5000);
  expect(loadConfig({ DATABASE_URL: 'sqlite::memory:', NETINV_MAX_BULK_OBJECTS: '0' }).maxBulkObjects).toBe(0);
});

describe('a list body over the limit', () => {
  test('POST, PUT, PATCH and DELETE: 400 naming the limit, nothing written', async () => {
    const existing = (await app.post(TENANTS, [{ name: 'keep-1' }, { name: 'keep-2' }])).body as Obj[];
    expect(existing).toHaveLength(2);
    const before = await tenantCount();
    const detail = { detail: `A bulk request may hold at most ${MANY} objects; this one holds ${MANY + 1}.` };
    // Valid items first: a request that would write if it were read item by item.
    const creates = [{ name: 'new-1' }, ...Array.from({ length: MANY }, (_v, i) => ({ name: `t${i}` }))];
    const created = await app.post(TENANTS, creates);
    expect(created.status).toBe(400);
    expect(created.body).toEqual(detail);
    const updates = [...existing.map((t) => ({ id: t.id, name: t.name, description: 'changed' })), ...Array.from({ length: MANY - 1 }, () => ({ id: randomUUID() }))];
    for (const method of ['put', 'patch'] as const) {
      const res = await app[method](TENANTS, updates);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(detail);
    }
    const deleted = await app.delete(TENANTS, updates.map((u) => ({ id: u.id })));
    expect(deleted.status).toBe(400);
    expect(deleted.body).toEqual(detail);
    expect(await tenantCount()).toBe(before);
    expect(await tenantCount({ description: 'changed' })).toBe(0);
    expect(await tenantCount({ name: 'new-1' })).toBe(0);
  });
});

describe('bulk updates and deletes naming more ids than a statement may bind', () => {
  test(`PATCH and DELETE of ${MANY} ids, a few of them known: the known ones change, the rest are skipped`, async () => {
    const known = ((await app.post(TENANTS, Array.from({ length: 5 }, (_v, i) => ({ name: `known-${i}` })))).body as Obj[]).map((t) => t.id as string);
    const other = (await app.post(TENANTS, { name: 'bystander' })).body as Obj;
    const ids = [...Array.from({ length: MANY - known.length }, () => randomUUID()), ...known];

    const patched = await app.patch(TENANTS, ids.map((id) => ({ id, description: 'patched' })));
    expect(patched.status).toBe(200);
    expect((patched.body as Obj[]).map((t) => t.id).sort()).toEqual([...known].sort());
    expect(await tenantCount({ description: 'patched' })).toBe(known.length);

    const before = await tenantCount();
    const deleted = await app.delete(TENANTS, ids.map((id) => ({ id })));
    expect(deleted.status).toBe(204);
    expect(await tenantCount()).toBe(before - known.length);
    expect(await tenantCount({ id__in: known })).toBe(0);
    expect(await tenantCount({ id: other.id })).toBe(1);
  });
});

describe('a large bulk write that is allowed', () => {
  const N = 3000;

  test(`POST, PATCH and DELETE of ${N} objects; another client is answered while the POST runs`, async () => {
    const before = await tenantCount();
    const start = app.queries();
    let bulkDone = false;
    const bulk = app.post(TENANTS, Array.from({ length: N }, (_v, i) => ({ name: `bulk-${i}`, description: 'created' }))).then((res) => {
      bulkDone = true;
      return res;
    });
    // Wait (a bounded number of turns of the event loop) until the bulk write is under way.
    for (let i = 0; i < 100_000 && !bulkDone && app.queries() - start < 300; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(bulkDone).toBe(false);
    // Each answer, and how many of the bulk's objects were committed when it came.
    const answers: Array<{ status: number; committed: number }> = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.get('/api/status/');
      answers.push({ status: res.status, committed: await tenantCount({ description: 'created' }) });
    }
    const created = await bulk;
    expect(created.status).toBe(201);
    expect(created.body).toHaveLength(N);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // Answered while the bulk's transaction was still open, not once it had committed.
    expect(answers[0].committed).toBe(0);
    expect(await tenantCount({ description: 'created' })).toBe(N);

    const ids = (created.body as Obj[]).map((t) => t.id as string);
    const patched = await app.patch(TENANTS, ids.map((id) => ({ id, description: 'updated' })));
    expect(patched.status).toBe(200);
    expect(patched.body).toHaveLength(N);
    expect(await tenantCount({ description: 'updated' })).toBe(N);
    expect(await tenantCount({ description: 'created' })).toBe(0);

    const deleted = await app.delete(TENANTS, ids.map((id) => ({ id })));
    expect(deleted.status).toBe(204);
    expect(await tenantCount()).toBe(before);
  });
});
