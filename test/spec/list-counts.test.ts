/**
 * A list's count is kept between requests only while the database shows the data unchanged
 * (framework/store/count-cache.ts): every write, whether through this server, through another
 * connection or another process, is counted by the next list. On SQLite a kept count saves the
 * COUNT statement, which the X-Query-Count header shows.
 */
import BetterSqlite3 from 'better-sqlite3';
import { Client as PgClient } from 'pg';
import { createConnection } from 'mysql2/promise';
import { dialectUnderTest, freshDatabaseUrl } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';
import { KEEP_MS } from '../../framework/store/row-generations';
import { coreRegistry, dataSourceFor, migrate } from '../../app/database';
import { openDatabase } from '../../framework/store/datasource';

/** Runs one statement on a connection of its own, as another process would; its rows for a read. */
async function outside(databaseUrl: string, sql: string, params: unknown[]): Promise<unknown[][]> {
  const dialect = dialectUnderTest();
  if (dialect === 'sqlite') {
    const conn = new BetterSqlite3(databaseUrl.replace(/^sqlite:/, ''));
    try {
      const stmt = conn.prepare(sql);
      if (!stmt.reader) {
        stmt.run(...params);
        return [];
      }
      return stmt.raw(true).all(...params) as unknown[][];
    } finally {
      conn.close();
    }
  } else if (dialect === 'postgres') {
    const client = new PgClient({ connectionString: databaseUrl });
    await client.connect();
    try {
      let i = 0;
      return (await client.query({ text: sql.replace(/\?/g, () => `$${++i}`), values: params, rowMode: 'array' })).rows as unknown[][];
    } finally {
      await client.end();
    }
  } else {
    const conn = await createConnection({ uri: databaseUrl.replace(/^mariadb:/, 'mysql:') });
    try {
      const [rows] = await conn.query({ sql: sql.replace(/"/g, '`'), values: params, rowsAsArray: true });
      return Array.isArray(rows) ? (rows as unknown[][]) : [];
    } finally {
      await conn.end();
    }
  }
}

async function writeOutside(databaseUrl: string, sql: string, params: unknown[]): Promise<void> {
  await outside(databaseUrl, sql, params);
}

/** MySQL/MariaDB: the generation of a table's rows (framework/store/row-generations.ts). */
async function rowGeneration(databaseUrl: string, table: string): Promise<number> {
  const rows = await outside(databaseUrl, 'SELECT "generation" FROM "netinv_cachegeneration" WHERE "name" = ?', [`rows:${table}`]);
  return rows.length ? Number(rows[0][0]) : 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A response body without the server's address (two servers on one database answer alike but for it). */
function hostless(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body).replace(/http:\/\/127\.0\.0\.1:\d+/g, ''));
}

function statements(res: { headers: Record<string, string> }): number {
  return Number(res.headers['x-query-count']);
}

/**
 * The fewest statements of a few reads of `path`: a read more than half a second after the last
 * may add the configuration caches' check of their generations (one statement), which a loaded
 * machine makes likely.
 */
async function fewestStatements(server: TestApp, path: string): Promise<number> {
  let fewest = Infinity;
  for (let tries = 0; tries < 4; tries++) fewest = Math.min(fewest, statements(await server.get(path)));
  return fewest;
}

describe('list counts kept between requests', () => {
  let app: TestApp;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await freshDatabaseUrl({ persistent: true, suffix: 'counts' });
    app = await startApp({ NETINV_COUNT_QUERIES: 'true' }, { databaseSuffix: 'counts', databaseUrl });
    for (const name of ['count-a', 'count-b', 'count-c']) {
      expect((await app.post('/api/tenancy/tenants/', { name, slug: name })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  test('a repeated list answers the same count; on SQLite and MySQL/MariaDB without a statement for it', async () => {
    // Configuration caches warm (another filter, so this list's count is not kept yet).
    await app.get('/api/tenancy/tenants/?name=warm');
    const first = await app.get('/api/tenancy/tenants/?limit=2');
    const second = await app.get('/api/tenancy/tenants/?limit=2');
    expect(first.status).toBe(200);
    expect([first.body.count, second.body.count]).toEqual([3, 3]);
    expect(second.body.results.map((t: { name: string }) => t.name)).toEqual(['count-a', 'count-b']);
    // Another page of the same filter is the same count.
    const next = await app.get('/api/tenancy/tenants/?limit=2&offset=2');
    expect(next.body.count).toBe(3);
    expect(next.body.results.map((t: { name: string }) => t.name)).toEqual(['count-c']);
    // PostgreSQL reads its count with the page's ids in any case (the next test).
    if (dialectUnderTest() !== 'postgres') {
      expect(statements(second)).toBe(statements(first) - 1);
      expect(statements(next)).toBe(statements(second));
    }
  });

  (dialectUnderTest() === 'postgres' ? test : test.skip)('PostgreSQL: a page reads its count, its ids and its rows in one statement', async () => {
    // The same data served without kept counts reads them apart: a COUNT, the ids, then the rows.
    const apart = await startApp({ NETINV_COUNT_QUERIES: 'true', NETINV_KEEP_LIST_COUNTS: 'false' }, { databaseUrl });
    try {
      // Manufacturers: one ordering (tenants list those without a group first, read in parts by their counts).
      for (const name of ['pair-a', 'pair-b', 'pair-c']) expect((await app.post('/api/dcim/manufacturers/', { name, slug: name })).status).toBe(201);
      const path = '/api/dcim/manufacturers/?limit=2&offset=1';
      for (const server of [app, apart]) await server.get('/api/dcim/manufacturers/?name=warm');
      const [one, two] = [await app.get(path), await apart.get(path)];
      expect(one.status).toBe(200);
      expect(hostless(one.body)).toEqual(hostless(two.body));
      expect(one.body.count).toBe(3);
      expect(one.body.results.map((m: { name: string }) => m.name)).toEqual(['pair-b', 'pair-c']);
      // Unchanged data: every read answers the kept count from the same single statement.
      const combined = await fewestStatements(app, path);
      expect(combined).toBe((await fewestStatements(apart, path)) - 2);
      expect((await app.get(path)).body.count).toBe(3);
      // A page past the end still reads its count in that statement, and has no rows.
      const pastPath = '/api/dcim/manufacturers/?limit=2&offset=10';
      const past = await app.get(pastPath);
      expect([past.status, past.body.count, past.body.results]).toEqual([200, 3, []]);
      expect(await fewestStatements(app, pastPath)).toBe(combined);
      // A filter by pattern needs a plan for its value: its rows are read by a statement of their own.
      const patternPath = '/api/dcim/manufacturers/?name__ic=pair-&limit=2';
      const [pattern, patternApart] = [await app.get(patternPath), await apart.get(patternPath)];
      expect(hostless(pattern.body)).toEqual(hostless(patternApart.body));
      expect(pattern.body.results.map((m: { name: string }) => m.name)).toEqual(['pair-a', 'pair-b']);
      expect(await fewestStatements(app, patternPath)).toBe((await fewestStatements(apart, patternPath)) - 1);
    } finally {
      await apart.close();
    }
  });

  (dialectUnderTest() === 'postgres' ? test : test.skip)('PostgreSQL: a page across the tenants without a group and those with one reads both parts in order', async () => {
    const group = await app.post('/api/tenancy/tenant-groups/', { name: 'count-group', slug: 'count-group' });
    expect(group.status).toBe(201);
    const grouped = await app.post('/api/tenancy/tenants/', { name: 'count-0', slug: 'count-0', group: group.body.id });
    expect(grouped.status).toBe(201);
    const apart = await startApp({ NETINV_KEEP_LIST_COUNTS: 'false' }, { databaseUrl });
    try {
      // Those without a group first (count-a, count-b, count-c), then count-0 of the group.
      for (const path of ['/api/tenancy/tenants/?limit=3&offset=1', '/api/tenancy/tenants/?limit=4', '/api/tenancy/tenants/?limit=1&offset=3']) {
        const [one, two] = [await app.get(path), await apart.get(path)];
        expect(one.status).toBe(200);
        expect(hostless(one.body)).toEqual(hostless(two.body));
        expect(one.body.count).toBe(4);
      }
      expect((await app.get('/api/tenancy/tenants/?limit=3&offset=1')).body.results.map((t: { name: string }) => t.name)).toEqual(['count-b', 'count-c', 'count-0']);
    } finally {
      await apart.close();
      expect((await app.delete(`/api/tenancy/tenants/${grouped.body.id}/`)).status).toBe(204);
      expect((await app.delete(`/api/tenancy/tenant-groups/${group.body.id}/`)).status).toBe(204);
    }
  });

  test('a write through the API is counted by the next list', async () => {
    expect((await app.get('/api/tenancy/tenants/')).body.count).toBe(3);
    const created = await app.post('/api/tenancy/tenants/', { name: 'count-d', slug: 'count-d' });
    expect(created.status).toBe(201);
    expect((await app.get('/api/tenancy/tenants/')).body.count).toBe(4);
    expect((await app.delete(`/api/tenancy/tenants/${created.body.id}/`)).status).toBe(204);
    const after = await app.get('/api/tenancy/tenants/');
    expect(after.body.count).toBe(3);
    expect(after.body.results).toHaveLength(3);
  });

  test('a write by another connection is counted by the next list', async () => {
    expect((await app.get('/api/tenancy/tenants/?name=count-c')).body.count).toBe(1);
    expect((await app.get('/api/tenancy/tenants/')).body.count).toBe(3);
    await writeOutside(databaseUrl, 'DELETE FROM "tenancy_tenant" WHERE "name" = ?', ['count-c']);
    // MySQL/MariaDB learn of writes netinv did not make only when a kept count expires.
    if (dialectUnderTest() === 'mysql') await sleep(KEEP_MS + 50);
    const all = await app.get('/api/tenancy/tenants/');
    expect(all.body.count).toBe(2);
    expect(all.body.results.map((t: { name: string }) => t.name)).toEqual(['count-a', 'count-b']);
    expect((await app.get('/api/tenancy/tenants/?name=count-c')).body.count).toBe(0);
  });

  test('a write through another instance on the same database is counted by the next list', async () => {
    const other = await startApp({}, { databaseUrl });
    try {
      const before = (await app.get('/api/tenancy/tenants/?limit=1')).body.count;
      expect((await app.get('/api/tenancy/tenants/?limit=1')).body.count).toBe(before);
      const created = await other.post('/api/tenancy/tenants/', { name: 'count-other', slug: 'count-other' });
      expect(created.status).toBe(201);
      expect((await app.get('/api/tenancy/tenants/?limit=1')).body.count).toBe(before + 1);
      expect((await other.delete(`/api/tenancy/tenants/${created.body.id}/`)).status).toBe(204);
      expect((await app.get('/api/tenancy/tenants/?limit=1')).body.count).toBe(before);
    } finally {
      await other.close();
    }
  });

  (dialectUnderTest() === 'mysql' ? test : test.skip)('MySQL/MariaDB: a count is kept until a write by netinv bumps its tables, or for a second', async () => {
    const path = '/api/tenancy/tenants/?limit=1&slug__n=kept';
    const counted = (await app.get(path)).body.count;
    const started = performance.now();
    // A row added behind netinv's back moves no generation: the kept count answers.
    await writeOutside(databaseUrl, 'INSERT INTO "tenancy_tenant" ("id", "name", "slug", "description", "comments", "_custom_field_data", "created", "last_updated") VALUES (?, ?, ?, \'\', \'\', \'{}\', ?, ?)', [
      '00000000-0000-4000-8000-00000000c0de',
      'count-hidden',
      'count-hidden',
      '2026-01-01',
      '2026-01-01 00:00:00',
    ]);
    const kept = (await app.get(path)).body.count;
    if (performance.now() - started < KEEP_MS) expect(kept).toBe(counted);
    // A write through the API bumps the table's generation once, in its transaction: the next list counts.
    const generation = await rowGeneration(databaseUrl, 'tenancy_tenant');
    const created = await app.post('/api/tenancy/tenants/', { name: 'count-e', slug: 'count-e' });
    expect(created.status).toBe(201);
    expect(await rowGeneration(databaseUrl, 'tenancy_tenant')).toBe(generation + 1);
    expect((await app.get(path)).body.count).toBe(counted + 2);
    for (const id of [created.body.id, '00000000-0000-4000-8000-00000000c0de']) expect((await app.delete(`/api/tenancy/tenants/${id}/`)).status).toBe(204);
    expect((await app.get(path)).body.count).toBe(counted);
  });

  (dialectUnderTest() === 'mysql' ? test : test.skip)('MySQL/MariaDB: deleting a row bumps the tables the database changes with it', async () => {
    const target = await app.post('/api/ipam/route-targets/', { name: '65000:77' });
    expect(target.status).toBe(201);
    const vrf = await app.post('/api/ipam/vrfs/', { name: 'count-vrf', import_targets: [target.body.id] });
    expect(vrf.status).toBe(201);
    const path = `/api/ipam/route-targets/?importing_vrf_id=${vrf.body.id}`;
    expect((await app.get(path)).body.count).toBe(1);
    const generation = await rowGeneration(databaseUrl, 'ipam_vrf_import_targets');
    // A statement on the VRF alone: its link rows go by the foreign key's ON DELETE CASCADE, and
    // their generation moves with the VRF's.
    await app.server.db.transaction((tx) => tx.run('DELETE FROM `ipam_vrf` WHERE `id` = ?', [vrf.body.id]));
    expect(await rowGeneration(databaseUrl, 'ipam_vrf_import_targets')).toBe(generation + 1);
    expect((await app.get(path)).body.count).toBe(0);
    expect((await app.get('/api/ipam/route-targets/?name=65000:77')).body.count).toBe(1);
    expect((await app.delete(`/api/ipam/route-targets/${target.body.id}/`)).status).toBe(204);
  });

  (dialectUnderTest() === 'mysql' ? test : test.skip)('MySQL/MariaDB: the first write of a process may be a transaction, as a bulk load makes it', async () => {
    const url = await freshDatabaseUrl({ suffix: 'first_write' });
    const ds = await dataSourceFor(url, coreRegistry());
    await ds.initialize();
    try {
      await migrate(ds);
      const db = openDatabase(ds);
      // A cache generation first (a status), as the first object of a load writes; then the table
      // generations, whose rows are seeded on another connection before the transaction begins.
      await db.transaction(async (tx) => {
        await tx.run('UPDATE `extras_status` SET `color` = ? WHERE `slug` = ?', ['00ff00', 'active']);
        await tx.run('INSERT INTO `dcim_region` (`id`, `name`, `slug`, `description`, `_custom_field_data`, `created`, `last_updated`, `_depth`, `_tree_path`, `_tree_sort`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', [
          '00000000-0000-4000-8000-00000000f157', 'First', 'first', '', '{}', '2026-01-01', '2026-01-01 00:00:00', 0, 'first', 'first',
        ]);
      });
      expect(await rowGeneration(url, 'dcim_region')).toBe(1);
      expect(await rowGeneration(url, 'extras_status')).toBe(1);
      expect(await rowGeneration(url, 'ipam_prefix')).toBe(0);
    } finally {
      await ds.destroy();
    }
  }, 30_000);

  test('filters keep counts of their own', async () => {
    const a = await app.get('/api/tenancy/tenants/?name=count-a');
    const ab = await app.get('/api/tenancy/tenants/?name=count-a&name=count-b');
    const none = await app.get('/api/tenancy/tenants/?name=nothing');
    expect([a.body.count, ab.body.count, none.body.count]).toEqual([1, 2, 0]);
    expect((await app.get('/api/tenancy/tenants/?name=count-a')).body.count).toBe(1);
  });
});

describe('list counts on the in-memory database of the test suite', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ NETINV_COUNT_QUERIES: 'true' });
  });
  afterAll(async () => {
    await app?.close();
  });

  test('writes of the one connection are counted by the next list', async () => {
    expect((await app.get('/api/dcim/manufacturers/')).body.count).toBe(0);
    const res = await app.post('/api/dcim/manufacturers/', [
      { name: 'Count One', slug: 'count-one' },
      { name: 'Count Two', slug: 'count-two' },
    ]);
    expect(res.status).toBe(201);
    expect((await app.get('/api/dcim/manufacturers/')).body.count).toBe(2);
    expect((await app.patch('/api/dcim/manufacturers/', [{ id: res.body[0].id, name: 'Count Uno' }])).status).toBe(200);
    expect((await app.get('/api/dcim/manufacturers/?name=Count%20Uno')).body.count).toBe(1);
    expect((await app.delete('/api/dcim/manufacturers/', [{ id: res.body[1].id }])).status).toBe(204);
    expect((await app.get('/api/dcim/manufacturers/')).body.count).toBe(1);
  });
});
