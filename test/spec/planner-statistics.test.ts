/**
 * After a bulk write the database's planner knows the table's new size: a table that received
 * 1,000 rows or more is analyzed shortly after, without waiting for autovacuum's next round.
 */
import { Client as PgClient } from 'pg';
import { dialectUnderTest, freshDatabaseUrl } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { planFor } from '../../framework/serializer/representation';
import { postgresDialect } from '../../framework/store/dialect/postgres';
import { DEFAULT_VERSION } from '../../framework/versioning/version';

// PostgreSQL is where stale statistics cost most (its planner chose whole-table sorts); MariaDB
// recalculates InnoDB statistics itself past 10% of changed rows, so an ANALYZE there is not
// observable apart from its own; SQLite keeps no statistics unless asked.
const onPostgres = dialectUnderTest() === 'postgres' ? test : test.skip;

let app: TestApp;
let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl({ suffix: 'stats' });
  app = await startApp({}, { databaseUrl });
});
afterAll(async () => {
  await app?.close();
});

async function analyzedAt(table: string): Promise<{ analyzed: Date | null; vacuumed: Date | null; estimate: number }> {
  const client = new PgClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    const stat = await client.query('SELECT last_analyze, last_autoanalyze, last_vacuum FROM pg_stat_user_tables WHERE relname = $1', [table]);
    const rows = await client.query('SELECT reltuples FROM pg_class WHERE relname = $1', [table]);
    const row = stat.rows[0] as { last_analyze: Date | null; last_autoanalyze: Date | null; last_vacuum: Date | null };
    return { analyzed: row.last_analyze ?? row.last_autoanalyze, vacuumed: row.last_vacuum, estimate: Number(rows.rows[0].reltuples) };
  } finally {
    await client.end();
  }
}

onPostgres('a bulk create of 1,200 addresses leaves the table vacuumed and analyzed, its row estimate right', async () => {
  expect((await analyzedAt('ipam_ipaddress')).analyzed).toBeNull();
  const body = Array.from({ length: 1200 }, (_, i) => ({ address: `10.77.${Math.floor(i / 256)}.${i % 256}/32`, status: 'active' }));
  const res = await app.post('/api/ipam/ip-addresses/', body);
  expect(res.status).toBe(201);
  const after = await waitFor(async () => {
    const s = await analyzedAt('ipam_ipaddress');
    return s.analyzed ? s : null;
  }, 15_000, 100);
  expect(after.estimate).toBe(1200);
  // Vacuumed too: the visibility map lets counts be answered from an index alone.
  expect(after.vacuumed).not.toBeNull();
});

onPostgres('a few writes leave the planner to autovacuum', async () => {
  const before = await analyzedAt('dcim_region');
  for (let i = 0; i < 5; i++) expect((await app.post('/api/dcim/regions/', { name: `Few ${i}` })).status).toBe(201);
  // Longer than the deferral of an ANALYZE (one second).
  await new Promise((r) => setTimeout(r, 1500));
  expect((await analyzedAt('dcim_region')).analyzed).toEqual(before.analyzed);
});

onPostgres('the link rows of a bulk create (tags) count too: the link table is analyzed', async () => {
  const tag = await app.post('/api/extras/tags/', { name: 'Bulk', slug: 'bulk', content_types: ['ipam.ipaddress'] });
  expect(tag.status).toBe(201);
  const before = await analyzedAt('extras_taggeditem');
  const body = Array.from({ length: 1200 }, (_, i) => ({ address: `10.78.${Math.floor(i / 256)}.${i % 256}/32`, status: 'active', tags: [tag.body.id] }));
  expect((await app.post('/api/ipam/ip-addresses/', body)).status).toBe(201);
  const after = await waitFor(async () => {
    const s = await analyzedAt('extras_taggeditem');
    return s.analyzed && String(s.analyzed) !== String(before.analyzed) ? s : null;
  }, 15_000, 100);
  expect(after.estimate).toBe(1200);
});

// MySQL and MariaDB estimate an IN list longer than eq_range_index_dive_limit (200) from index
// statistics; every pooled connection is set to look the values up instead.
const onMysql = dialectUnderTest() === 'mysql' ? test : test.skip;

onMysql('a reverse relation read for 250 objects uses its index, though nearly every row has no value there', async () => {
  const body = Array.from({ length: 1200 }, (_, i) => ({ address: `10.79.${Math.floor(i / 256)}.${i % 256}/32`, status: 'active' }));
  const res = await app.post('/api/ipam/ip-addresses/', body);
  expect(res.status).toBe(201);
  const db = app.server.db;
  await db.reader.run('ANALYZE TABLE ipam_ipaddress');
  const ids = (res.body as Array<{ id: string }>).slice(0, 250).map((a) => a.id);
  const explain = `EXPLAIN SELECT id FROM ipam_ipaddress WHERE nat_inside_id IN (${ids.map(() => '?').join(', ')})`;
  // The reader's pool and a transaction's connection alike (EXPLAIN columns: id, select_type, table, type, possible_keys, key…).
  const plans = [await db.reader.rows(explain, ids), await db.transaction((tx) => tx.rows(explain, ids))];
  for (const plan of plans) {
    expect(plan[0][3]).toBe('range');
    expect(String(plan[0][5])).toMatch(/^IDX_/);
  }
});

// Lists order text bytewise (COLLATE "C"); an index with the database's default collation cannot
// serve that order, and every page sorted the whole table.
onPostgres('a page of devices is read in the order of an index, without a sort', async () => {
  const device = app.server.registry.get('dcim.device');
  if (!device) throw new Error('dcim.device is not registered');
  const { orderBy } = planFor(device, false, DEFAULT_VERSION, postgresDialect);
  expect(orderBy).toContain('COLLATE "C"');
  const client = new PgClient({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Sorting made prohibitively expensive: a plan that still sorts has no index to read instead.
    await client.query('SET enable_sort = off');
    const plan = await client.query(`EXPLAIN SELECT "t0"."id" FROM "dcim_device" "t0" ORDER BY ${orderBy} LIMIT 50`);
    const lines = plan.rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']);
    expect(lines.join('\n')).not.toMatch(/\bSort\b/);
    expect(lines.join('\n')).toMatch(/Index (Only )?Scan using "IDX_625d8a57f669489e9245920074"/);
  } finally {
    await client.end();
  }
});
