/**
 * PostgreSQL plans once where values cannot change the plan: reads whose every parameter is an
 * equality run on sessions with plan_cache_mode = force_generic_plan, reads with ranges keep
 * per-call plans, and write transactions set generic plans for themselves. Other databases have
 * no such setting.
 */
import { dialectUnderTest } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';

const onPostgres = dialectUnderTest() === 'postgres';
const pgTest = (name: string, fn: () => Promise<void>) => (onPostgres ? test(name, fn) : test.skip(`${name} (skipped: plan_cache_mode is a PostgreSQL setting)`, fn));

let app: TestApp;
beforeAll(async () => {
  if (onPostgres) app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const MODE = "SELECT current_setting('plan_cache_mode') FROM (SELECT 1 AS \"x\") \"t\"";

pgTest('an equality read plans generically; a range read plans per call; so does a read with no equality', async () => {
  const db = app.server.db;
  expect(await db.reader.rows(`${MODE} WHERE "t"."x" = $1`, [1])).toEqual([['force_generic_plan']]);
  expect(await db.reader.rows(`${MODE} WHERE "t"."x" = ANY($1)`, [[1, 2]])).toEqual([['force_generic_plan']]);
  expect(await db.reader.rows(`${MODE} WHERE "t"."x" >= $1`, [1])).toEqual([['auto']]);
  expect(await db.reader.rows(`${MODE} WHERE "t"."x" = $1 LIMIT $2`, [1, 5])).toEqual([['auto']]);
});

pgTest('a write transaction plans generically, and leaves the pooled session as it was', async () => {
  const db = app.server.db;
  expect(await db.transaction((tx) => tx.rows(`${MODE} WHERE "t"."x" >= $1`, [1]))).toEqual([['force_generic_plan']]);
  // SET LOCAL ends with the transaction: the next per-call read on the main pool plans per call.
  for (let i = 0; i < 3; i++) expect(await db.reader.rows(`${MODE} WHERE "t"."x" >= $1`, [1])).toEqual([['auto']]);
});
