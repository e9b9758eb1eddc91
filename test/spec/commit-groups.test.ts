/**
 * Concurrent writes: each succeeds or fails alone and says so only once it is durable. On SQLite
 * the writes of one turn of the event loop share a COMMIT (each in a savepoint of its own); a
 * write refused after its rows were inserted (403 for objects outside the caller's constraints)
 * takes back its own rows and change records only.
 */
import { created as ok } from '../helpers/responses';
import { startApp, type TestApp } from '../helpers/harness';
import { rawRequestsTogether } from '../helpers/raw-http';
import { dialectUnderTest } from '../helpers/database';

const TAGS = '/api/extras/tags/';
let app: TestApp;
let limited: string;

beforeAll(async () => {
  app = await startApp();
  const id = await app.createUser('cg-limited');
  limited = await app.createToken(id);
  await ok(await app.post('/api/users/permissions/', { name: 'cg ok tags', users: [id], object_types: ['extras.tag'], actions: ['add', 'view'], constraints: { slug__startswith: 'ok-' } }));
});
afterAll(async () => {
  await app?.close();
});

const tag = (slug: string) => ({ name: slug, slug, content_types: ['dcim.site'] });

test('concurrent writes each stand or fall alone; fewer COMMITs than writes on SQLite', async () => {
  const commitsBefore = app.server.db.stats.commits;
  const auth = (key: string) => ({ Authorization: `Token ${key}`, Accept: 'application/json' });
  const post = (body: unknown, key = app.token) => ({ method: 'POST', path: TAGS, headers: auth(key), body });
  const answers = await rawRequestsTogether(app, [
    ...Array.from({ length: 12 }, (_, i) => post(tag(`cg-${i}`))),
    // Valid objects, then one outside the caller's constraints: inserted, then refused.
    post([tag('ok-first'), tag('ok-second'), tag('not-ok')], limited),
    post([tag('ok-third')], limited),
    post({ ...tag('cg-twin'), name: 'cg-3' }),
  ]);
  const [singleResults, [refusedRes, allowedRes, twinRes]] = [answers.slice(0, 12), answers.slice(12)].map((group) => group.map((a) => ({ status: a.status, body: JSON.parse(a.body) })));
  for (const res of singleResults) expect(res.status).toBe(201);
  expect(refusedRes.status).toBe(403);
  expect(refusedRes.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  expect(allowedRes.status).toBe(201);
  // Same name as cg-3: whichever of the two came second was refused by the uniqueness check.
  expect(twinRes.status).toBe(400);
  expect(twinRes.body).toEqual({ name: ['tag with this name already exists.'] });

  const list = await app.get(`${TAGS}?limit=100`);
  const slugs = (list.body.results as Array<{ slug: string }>).map((t) => t.slug).sort();
  expect(slugs).toEqual([...Array.from({ length: 12 }, (_, i) => `cg-${i}`), 'ok-third'].sort());

  const changes = await app.get('/api/extras/object-changes/?changed_object_type=extras.tag&limit=100');
  const logged = (changes.body.results as Array<{ changed_object_id: string }>).map((c) => c.changed_object_id).sort();
  const ids = (list.body.results as Array<{ id: string }>).map((t) => t.id).sort();
  expect(logged).toEqual(ids);

  const succeeded = 13;
  const commits = app.server.db.stats.commits - commitsBefore;
  if (app.server.db.dialect.name === 'sqlite') {
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(succeeded);
  } else {
    // One COMMIT per write that succeeded (the refused ones roll back).
    expect(commits).toBe(succeeded);
  }
});

test('a write right after a grouped one reads it back, and so does another client', async () => {
  const [a, b] = await Promise.all([app.post(TAGS, tag('cg-read-a')), app.post(TAGS, tag('cg-read-b'))]);
  expect(a.status).toBe(201);
  expect(b.status).toBe(201);
  const patched = await app.patch(`${TAGS}${a.body.id}/`, { description: 'after the group' });
  expect(patched.status).toBe(200);
  expect(patched.body.description).toBe('after the group');
  const reread = await app.get(`${TAGS}${a.body.id}/`, limited);
  // The limited user sees only its ok- tags: 404 is the constraint, not a missing commit.
  expect(reread.status).toBe(404);
  const admin = await app.get(`${TAGS}?slug=cg-read-a&slug=cg-read-b`);
  expect(admin.body.count).toBe(2);
  expect(admin.body.results.find((t: { slug: string }) => t.slug === 'cg-read-a').description).toBe('after the group');
});

const onSqlite = dialectUnderTest() === 'sqlite';
const sqliteTest = (name: string, fn: () => Promise<void>) => (onSqlite ? test(name, fn) : test.skip(`${name} (skipped: SQLite's commit groups)`, fn));

sqliteTest('a write outside a transaction, made while a group waits for its COMMIT, waits for it and lands', async () => {
  const db = app.server.db;
  const made = await ok(await app.post(TAGS, tag('cg-outside')));
  let committed = false;
  const grouped = db.transaction((tx) => tx.run('UPDATE "extras_tag" SET "description" = ? WHERE "id" = ?', ['in the group', made.id])).then(() => {
    committed = true;
  });
  // Microtasks only: the group's COMMIT waits for the end of this turn of the event loop.
  for (let i = 0; i < 50; i++) await null;
  expect(committed).toBe(false);
  // On the read connection; without waiting it would stall in SQLite's busy handler and fail.
  await db.reader.run('UPDATE "extras_tag" SET "color" = ? WHERE "id" = ?', ['00ff00', made.id]);
  expect(committed).toBe(true);
  await grouped;
  const reread = await app.get(`${TAGS}${made.id}/`);
  expect(reread.body.description).toBe('in the group');
  expect(reread.body.color).toBe('00ff00');
});

sqliteTest("the writer keeps its savepoints' journals in memory (temp_store = MEMORY)", async () => {
  const [[mode]] = await app.server.db.transaction((tx) => tx.rows('PRAGMA temp_store'));
  expect(mode).toBe(2);
});
