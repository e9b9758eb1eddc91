/**
 * Concurrent writes to one object. Updates write only what they change, under a lock on the row
 * taken by the read they start from, so that concurrent changes of different fields all survive
 * (on PostgreSQL and MySQL/MariaDB; SQLite has one writer at a time).
 */
import { dialectUnderTest } from '../helpers/database';
import { deadlockTrigger } from '../helpers/deadlock-trigger';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const SITES = '/api/dcim/sites/';
const ROUNDS = 10;

let app: TestApp;

beforeAll(async () => {
  app = await startApp();
  for (const name of ['conc_a', 'conc_b']) {
    const res = await app.post('/api/extras/custom-fields/', { name, type: 'text', content_types: ['dcim.site'] });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await app?.close();
});

async function newSite(name: string): Promise<Record<string, any>> {
  const res = await app.post(SITES, { name, status: 'active' });
  expect(res.status).toBe(201);
  return res.body;
}

describe('lost updates', () => {
  test(`four concurrent PATCHes of different fields of one site all survive (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const site = await newSite(`lost-updates-${round}`);
      const url = `${SITES}${site.id}/`;
      const results = await Promise.all([
        app.patch(url, { custom_fields: { conc_a: `a${round}` } }),
        app.patch(url, { custom_fields: { conc_b: `b${round}` } }),
        app.patch(url, { description: `d${round}` }),
        app.patch(url, { facility: `f${round}` }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const after = (await app.get(url)).body;
      expect({ round, cf: after.custom_fields, description: after.description, facility: after.facility }).toEqual({
        round,
        cf: { conc_a: `a${round}`, conc_b: `b${round}` },
        description: `d${round}`,
        facility: `f${round}`,
      });
    }
  });

  test('concurrent PUTs and PATCHes: the change log records each update from the state it changed', async () => {
    const site = await newSite('lost-updates-log');
    const url = `${SITES}${site.id}/`;
    const results = await Promise.all([
      app.patch(url, { description: 'one' }),
      app.patch(url, { facility: 'two' }),
      app.put(url, { name: 'lost-updates-log', status: 'active', custom_fields: { conc_a: 'three' } }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const changes = (await app.get(`/api/extras/object-changes/?changed_object_id=${site.id}&limit=0`)).body.results as Array<Record<string, any>>;
    const updates = changes.filter((c) => c.action.value === 'update');
    expect(updates).toHaveLength(3);
    // Each update's snapshot carries every change committed before it: the last has all three.
    const final = (await app.get(url)).body;
    expect(final.custom_fields.conc_a).toBe('three');
    expect(final.description).toBe('one');
    expect(final.facility).toBe('two');
    const snapshots = updates.map((c) => c.object_data);
    const complete = snapshots.filter((s) => s.description === 'one' && s.facility === 'two' && s.custom_fields.conc_a === 'three');
    expect(complete).toHaveLength(1);
  });
});

describe('ETag and If-Match', () => {
  const tagPattern = /^"[0-9a-f-]+-\d+"$/;

  test('detail GET, POST, PUT and PATCH answer a strong ETag that changes on every write and not on reads', async () => {
    const created = await app.post(SITES, { name: 'etag-1', status: 'active' });
    expect(created.status).toBe(201);
    const tag0 = created.headers.etag;
    expect(tag0).toMatch(tagPattern);
    const url = `${SITES}${created.body.id}/`;
    const read = await app.get(url);
    expect(read.headers.etag).toBe(tag0);
    expect((await app.get(url)).headers.etag).toBe(tag0);
    const patched = await app.patch(url, { description: 'x' });
    expect(patched.status).toBe(200);
    expect(patched.headers.etag).toMatch(tagPattern);
    expect(patched.headers.etag).not.toBe(tag0);
    expect((await app.get(url)).headers.etag).toBe(patched.headers.etag);
    // A write that changes no column is a write too.
    const same = await app.patch(url, { description: 'x' });
    expect(same.headers.etag).not.toBe(patched.headers.etag);
    const put = await app.put(url, { name: 'etag-1', status: 'active' });
    expect(put.status).toBe(200);
    expect(put.headers.etag).not.toBe(same.headers.etag);
    // A bulk update changes it as well; lists carry none (Express's own ETag stays off).
    const bulk = await app.patch(SITES, [{ id: created.body.id, facility: 'bulk' }]);
    expect(bulk.status).toBe(200);
    expect(bulk.headers.etag).toBeUndefined();
    expect((await app.get(url)).headers.etag).not.toBe(put.headers.etag);
    expect((await app.get(SITES)).headers.etag).toBeUndefined();
  });

  test('If-Match that does not match: 412 with the current ETag, nothing written', async () => {
    const created = await app.post(SITES, { name: 'etag-2', status: 'active', description: 'before' });
    const url = `${SITES}${created.body.id}/`;
    const stale = created.headers.etag;
    const current = (await app.patch(url, { facility: 'moved' })).headers.etag;
    for (const send of [
      () => app.patch(url, { description: 'after' }),
      () => app.put(url, { name: 'etag-2', status: 'active', description: 'after' }),
    ]) {
      const res = await send().set('If-Match', stale);
      expect(res.status).toBe(412);
      expect(res.headers.etag).toBe(current);
      expect(Object.keys(res.body)).toEqual(['detail']);
      expect(typeof res.body.detail).toBe('string');
    }
    const weak = await app.patch(url, { description: 'after' }).set('If-Match', `W/${current}`);
    expect(weak.status).toBe(412);
    const after = await app.get(url);
    expect(after.body.description).toBe('before');
    expect(after.headers.etag).toBe(current);
    // The current tag, alone or in a list, matches; so does *.
    const ok = await app.patch(url, { description: 'after' }).set('If-Match', `${stale}, ${current}`);
    expect(ok.status).toBe(200);
    const star = await app.patch(url, { description: 'star' }).set('If-Match', '*');
    expect(star.status).toBe(200);
    expect((await app.get(url)).body.description).toBe('star');
    // A missing object stays a 404, If-Match or not.
    const missing = await app.patch(`${SITES}00000000-0000-4000-8000-000000000000/`, { description: 'x' }).set('If-Match', '*');
    expect(missing.status).toBe(404);
  });

  test(`two concurrent PATCHes with the same If-Match: exactly one wins (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const created = await app.post(SITES, { name: `etag-race-${round}`, status: 'active' });
      const url = `${SITES}${created.body.id}/`;
      const tag = created.headers.etag;
      const results = await Promise.all([
        app.patch(url, { description: 'first' }).set('If-Match', tag),
        app.patch(url, { facility: 'second' }).set('If-Match', tag),
      ]);
      expect({ round, statuses: results.map((r) => r.status).sort() }).toEqual({ round, statuses: [200, 412] });
      const winner = results.find((r) => r.status === 200) as (typeof results)[number];
      const loser = results.find((r) => r.status === 412) as (typeof results)[number];
      expect(loser.headers.etag).toBe(winner.headers.etag);
      const after = (await app.get(url)).body;
      expect([after.description, after.facility]).toEqual(winner.body.description === 'first' ? ['first', ''] : ['', 'second']);
    }
  });

  test('If-None-Match on a detail GET: 304 without a body when it matches', async () => {
    const created = await app.post(SITES, { name: 'etag-3', status: 'active' });
    const url = `${SITES}${created.body.id}/`;
    const tag = created.headers.etag;
    const cached = await app.get(url).set('If-None-Match', tag);
    expect(cached.status).toBe(304);
    expect(cached.headers.etag).toBe(tag);
    expect(cached.text ?? '').toBe('');
    expect((await app.get(url).set('If-None-Match', `W/${tag}`)).status).toBe(304);
    expect((await app.get(url).set('If-None-Match', '*')).status).toBe(304);
    await app.patch(url, { description: 'changed' });
    const fresh = await app.get(url).set('If-None-Match', tag);
    expect(fresh.status).toBe(200);
    expect(fresh.body.description).toBe('changed');
    expect(fresh.headers.etag).not.toBe(tag);
  });

  test('DELETE with a stale If-Match: 412 and the object is still there; with the current one it goes', async () => {
    const created = await app.post(SITES, { name: 'etag-4', status: 'active' });
    const url = `${SITES}${created.body.id}/`;
    const current = (await app.patch(url, { description: 'v2' })).headers.etag;
    const refused = await app.delete(url).set('If-Match', created.headers.etag);
    expect(refused.status).toBe(412);
    expect(refused.headers.etag).toBe(current);
    expect((await app.get(url)).status).toBe(200);
    expect((await app.delete(url).set('If-Match', current)).status).toBe(204);
    expect((await app.get(url)).status).toBe(404);
  });
});

/**
 * A request transaction the database rolls back as a deadlock's victim runs again. The other
 * side is a transaction of the test's own: it changes many sites and holds site B; the request
 * (a bulk PATCH of A and B, which locks its rows in primary-key order) takes A and waits for B;
 * the test's transaction then asks for A. PostgreSQL aborts the transaction that has waited
 * longest (the request), InnoDB the one that changed fewer rows (the request).
 */
const serverDatabase = dialectUnderTest() !== 'sqlite';

async function deadlockCount(): Promise<number> {
  const db = app.server.db;
  const rows = db.dialect.name === 'postgres'
    ? await db.reader.rows('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()')
    : await db.reader.rows("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'");
  return Number(rows[0]?.[db.dialect.name === 'postgres' ? 0 : 1] ?? 0);
}

/** Statements waiting for a row lock (MariaDB's INNODB_TRX lists a locking read only once it holds a lock, so its process list is asked). */
async function lockWaits(): Promise<number> {
  const db = app.server.db;
  const rows = db.dialect.name === 'postgres'
    ? await db.reader.rows('SELECT count(*) FROM pg_locks WHERE NOT granted')
    : await db.reader.rows('SELECT count(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE ?', ['SELECT %FROM `dcim_site`%FOR UPDATE']);
  return Number(rows[0]?.[0] ?? 0);
}

(serverDatabase ? describe : describe.skip)('deadlocks (PostgreSQL, MySQL/MariaDB)', () => {
  test('a bulk PATCH chosen as a deadlock victim runs again and answers 200 with its changes', async () => {
    const others = await app.post(SITES, Array.from({ length: 30 }, (_, i) => ({ name: `deadlock-other-${i}`, status: 'active' })));
    expect(others.status).toBe(201);
    const otherIds = (others.body as Array<{ id: string }>).map((s) => s.id);
    const db = app.server.db;
    const q = db.dialect.quote;
    const setDescription = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], id: string, text: string) =>
      tx.run(`UPDATE ${q('dcim_site')} SET ${q('description')} = ${db.dialect.placeholder(1)} WHERE ${q('id')} = ${db.dialect.placeholder(2)}`, [text, id]);
    // MariaDB's process list shows the request's locking read from its start, a moment before it
    // holds A: a round whose own transaction took A first saw no deadlock, and another is run.
    let deadlocked = false;
    for (let round = 0; round < 3 && !deadlocked; round++) {
      const [a, b] = [await newSite(`deadlock-a-${round}`), await newSite(`deadlock-b-${round}`)];
      const before = await deadlockCount();
      let request: Promise<{ status: number; body: unknown }> | null = null;
      await db.transaction(async (tx) => {
        for (const id of otherIds) await setDescription(tx, id, `held ${round}`);
        await setDescription(tx, b.id, 'held');
        request = app.patch(SITES, [{ id: a.id, description: 'patched' }, { id: b.id, description: 'patched' }]).then((r) => r);
        await waitFor(async () => ((await lockWaits()) > 0 ? true : null));
        await setDescription(tx, a.id, 'held');
      });
      const answered = await (request as unknown as Promise<{ status: number; body: unknown }>);
      expect(answered.status).toBe(200);
      expect((answered.body as Array<{ description: string }>).map((s) => s.description)).toEqual(['patched', 'patched']);
      for (const site of [a, b]) expect((await app.get(`${SITES}${site.id}/`)).body.description).toBe('patched');
      expect((await app.get(`${SITES}${otherIds[0]}/`)).body.description).toBe(`held ${round}`);
      deadlocked = await waitFor(async () => ((await deadlockCount()) > before ? true : null), 5_000).catch(() => false);
    }
    expect(deadlocked).toBe(true);
  }, 90_000);
});

/**
 * A write the database rolls back as a deadlock's victim every time it runs: after the attempts
 * allowed, the client gets a 409 and nothing is written.
 */
const VICTIM = 'always the victim';

(serverDatabase ? describe : describe.skip)('a write that is always the deadlock victim (PostgreSQL, MySQL/MariaDB)', () => {
  test('is tried five times, then answers 409 with nothing written', async () => {
    const site = await newSite('deadlock-victim');
    const trigger = await deadlockTrigger(app.server.db, 'dcim_site', `NEW.description = '${VICTIM}'`);
    try {
      const changesBefore = (await app.get(`/api/extras/object-changes/?changed_object_id=${site.id}`)).body.count as number;
      const res = await app.patch(`${SITES}${site.id}/`, { description: VICTIM, comments: 'not written' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: 'The write conflicted with concurrent writes and was not made; send it again.' });
      expect(await trigger.attempts()).toBe(5);
      const after = (await app.get(`${SITES}${site.id}/`)).body;
      expect(after).toMatchObject({ description: site.description, comments: site.comments, last_updated: site.last_updated });
      expect((await app.get(`/api/extras/object-changes/?changed_object_id=${site.id}`)).body.count).toBe(changesBefore);
      // Another write of the same object goes through at once.
      const other = await app.patch(`${SITES}${site.id}/`, { description: 'written' });
      expect(other.status).toBe(200);
      expect(other.body.description).toBe('written');
    } finally {
      await trigger.drop();
    }
  });
});
