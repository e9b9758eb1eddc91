/**
 * A bulk create writes the link rows of every object (tags) together: the statements it runs do
 * not grow with the number of objects, and each object ends up with exactly its own links.
 */
import { startApp, type TestApp } from '../helpers/harness';

const PREFIXES = '/api/ipam/prefixes/';
let app: TestApp;
let tags: string[] = [];

beforeAll(async () => {
  app = await startApp({ NETINV_COUNT_QUERIES: 'true' });
  for (const slug of ['bl-red', 'bl-blue', 'bl-green']) {
    const res = await app.post('/api/extras/tags/', { name: slug, slug, content_types: ['ipam.prefix'] });
    expect(res.status).toBe(201);
    tags.push(res.body.id);
  }
});
afterAll(async () => {
  await app?.close();
});

/** Prefix i of a batch: no tag, one, two (one of them sent twice) or all three, in turn. */
function batch(second: number, size: number): Array<Record<string, unknown>> {
  const choices = [[], [tags[0]], [tags[1], tags[2], tags[1]], tags];
  return Array.from({ length: size }, (_, i) => ({ prefix: `10.${second}.${i}.0/24`, status: 'active', tags: choices[i % choices.length] }));
}

test('statements of a bulk create with tags do not grow with the number of objects', async () => {
  // Caches warm, as between requests of a running server.
  expect((await app.post(PREFIXES, batch(1, 2))).status).toBe(201);
  const few = await app.post(PREFIXES, batch(2, 4));
  const many = await app.post(PREFIXES, batch(3, 40));
  expect(few.status).toBe(201);
  expect(many.status).toBe(201);
  expect(Number(many.headers['x-query-count'])).toBe(Number(few.headers['x-query-count']));
});

test('each object of a bulk create has exactly the tags it was sent', async () => {
  const sent = batch(4, 9);
  const res = await app.post(PREFIXES, sent);
  expect(res.status).toBe(201);
  for (const [i, created] of (res.body as Array<{ id: string }>).entries()) {
    const read = await app.get(`${PREFIXES}${created.id}/`);
    expect(read.status).toBe(200);
    const ids = (read.body.tags as Array<{ id: string }>).map((t) => t.id).sort();
    expect(ids).toEqual([...new Set(sent[i].tags as string[])].sort());
  }
  const filtered = await app.get(`${PREFIXES}?tag=bl-green&q=10.4.`);
  expect(filtered.body.count).toBe(sent.filter((p) => (p.tags as string[]).includes(tags[2])).length);
});
