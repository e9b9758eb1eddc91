/**
 * SQLite file databases: the write-ahead log is folded into the database file by a connection on a
 * worker thread, not by the commits of the thread that serves requests (those checkpoint only past
 * FOREGROUND_CHECKPOINT_PAGES, far beyond what this test writes).
 */
import * as fs from 'node:fs';
import { dialectUnderTest, freshDatabaseUrl } from '../helpers/database';
import { startApp } from '../helpers/harness';

const onSqlite = dialectUnderTest() === 'sqlite';
const sqliteTest = (name: string, fn: () => Promise<void>) => (onSqlite ? test(name, fn) : test.skip(`${name} (skipped: a SQLite file)`, fn));

async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

sqliteTest('committed writes reach the database file in the background, and reads see them', async () => {
  const url = await freshDatabaseUrl({ persistent: true });
  const file = url.replace(/^sqlite:/, '');
  const app = await startApp({}, { databaseUrl: url });
  try {
    // What start-up wrote is checkpointed first: the file then stops changing.
    let last = -1;
    expect(await eventually(() => {
      const m = fs.statSync(file).mtimeMs;
      const settled = m === last;
      last = m;
      return settled && fs.statSync(`${file}-wal`).size > 0;
    }, 5000)).toBe(true);
    const before = fs.statSync(file).mtimeMs;
    const sites = Array.from({ length: 50 }, (_, i) => ({ name: `checkpoint ${i}`, status: 'active' }));
    expect((await app.post('/api/dcim/sites/', sites)).status).toBe(201);
    expect(await eventually(() => fs.statSync(file).mtimeMs > before, 3000)).toBe(true);
    expect((await app.get('/api/dcim/sites/?name__isw=checkpoint&limit=1')).body.count).toBe(50);
  } finally {
    await app.close();
  }
});
