/**
 * Lists longer than one read chunk (limit=0 without a maximum page size, or a large limit) are
 * read and written chunk by chunk: the same objects, in the same order, with their tags and custom
 * fields, as short pages give; and pages of large tables, whose ids are ordered first.
 */
import { STREAM_CHUNK_ROWS } from '../../framework/views/read';
import { startApp, type TestApp } from '../helpers/harness';
import { rawRequest } from '../helpers/raw-http';

const PREFIXES = '/api/ipam/prefixes/';
const TOTAL = STREAM_CHUNK_ROWS * 2 + 150;

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ NETINV_MAX_PAGE_SIZE: '0', NETINV_COUNT_QUERIES: 'true' });
  const tag = await app.post('/api/extras/tags/', { name: 'Streamed', slug: 'streamed', content_types: ['ipam.prefix'] });
  expect(tag.status).toBe(201);
  const field = await app.post('/api/extras/custom-fields/', { name: 'owner', type: 'text', content_types: ['ipam.prefix'] });
  expect(field.status).toBe(201);
  for (let start = 0; start < TOTAL; start += 250) {
    const batch = Array.from({ length: Math.min(250, TOTAL - start) }, (_, k) => {
      const i = start + k;
      return { prefix: `10.${Math.floor(i / 256)}.${i % 256}.0/24`, status: 'active', tags: i % 3 === 0 ? [tag.body.id] : [], custom_fields: { owner: `team ${i}` } };
    });
    const res = await app.post(PREFIXES, batch);
    expect(res.status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  await app?.close();
});

async function pagesOf(size: number): Promise<unknown[]> {
  const all: unknown[] = [];
  for (let offset = 0; offset < TOTAL; offset += size) {
    const res = await app.get(`${PREFIXES}?limit=${size}&offset=${offset}`);
    expect(res.status).toBe(200);
    all.push(...res.body.results);
  }
  return all;
}

test('limit=0 gives every object, as the short pages give them', async () => {
  const res = await app.get(`${PREFIXES}?limit=0`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body.count).toBe(TOTAL);
  expect(res.body.next).toBeNull();
  expect(res.body.previous).toBeNull();
  expect(res.body.results).toHaveLength(TOTAL);
  expect(res.body.results).toEqual(await pagesOf(100));
  const tagged = res.body.results.filter((p: { tags: unknown[] }) => p.tags.length === 1);
  expect(tagged).toHaveLength(Math.ceil(TOTAL / 3));
  expect(res.body.results[TOTAL - 1].custom_fields).toEqual({ owner: `team ${TOTAL - 1}` });
});

test('a large limit with an offset keeps the page links and the order', async () => {
  const offset = 40;
  const res = await app.get(`${PREFIXES}?limit=${STREAM_CHUNK_ROWS + 500}&offset=${offset}`);
  expect(res.status).toBe(200);
  expect(res.body.results).toHaveLength(STREAM_CHUNK_ROWS + 500);
  expect(res.body.previous).not.toBeNull();
  expect(res.body.next).not.toBeNull();
  const all = await pagesOf(100);
  expect(res.body.results).toEqual(all.slice(offset, offset + STREAM_CHUNK_ROWS + 500));
});

test('filters apply to long lists', async () => {
  const res = await app.get(`${PREFIXES}?limit=0&tag=streamed`);
  expect(res.body.count).toBe(Math.ceil(TOTAL / 3));
  expect(res.body.results).toHaveLength(Math.ceil(TOTAL / 3));
});

test('the browsable API renders a long list too', async () => {
  const res = await app.raw().get(`${PREFIXES}?limit=0&format=api`).set('Authorization', `Token ${app.token}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
});

test('HEAD of a long list sends no body', async () => {
  // Read on the wire: HTTP clients drop whatever follows the headers of a HEAD response.
  const res = await rawRequest(app, 'HEAD', `${PREFIXES}?limit=0`, { Authorization: `Token ${app.token}`, Accept: 'application/json' });
  expect(res.status).toBe(200);
  expect(res.body).toBe('');
});

test('pages of a large table (ordered by id first) and of a small filtered set (ordered whole) agree', async () => {
  const all = (await pagesOf(100)) as Array<{ tags: unknown[] }>;
  const tagged: unknown[] = [];
  for (let offset = 0; offset < TOTAL; offset += 100) {
    const res = await app.get(`${PREFIXES}?limit=100&offset=${offset}&tag=streamed`);
    tagged.push(...res.body.results);
  }
  expect(tagged).toEqual(all.filter((p) => p.tags.length === 1));
});

test('prefixes without a VRF come first, then by VRF name, across page and chunk boundaries', async () => {
  const vrfs: Record<string, string> = {};
  for (const name of ['Zulu', 'Alpha']) {
    const res = await app.post('/api/ipam/vrfs/', { name });
    expect(res.status).toBe(201);
    vrfs[name] = res.body.id;
  }
  const inVrf = ['Zulu', 'Alpha'].flatMap((name) =>
    Array.from({ length: 30 }, (_, i) => ({ prefix: `10.${200 - i}.0.0/24`, status: 'active', vrf: vrfs[name] })),
  );
  expect((await app.post(PREFIXES, inVrf)).status).toBe(201);

  const octets = (p: string) => p.split(/[./]/).map(Number);
  const compareNetworks = (a: string, b: string) => {
    const [x, y] = [octets(a), octets(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return 0;
  };
  type Listed = { id: string; prefix: string; vrf: { name: string } | null };
  const expected = (await app.get(`${PREFIXES}?limit=0`)).body.results as Listed[];
  expected.sort((a, b) => {
    if (!a.vrf !== !b.vrf) return a.vrf ? 1 : -1;
    if (a.vrf && b.vrf && a.vrf.name !== b.vrf.name) return a.vrf.name < b.vrf.name ? -1 : 1;
    return compareNetworks(a.prefix, b.prefix) || (a.id < b.id ? -1 : 1);
  });
  const total = TOTAL + inVrf.length;
  const streamed = (await app.get(`${PREFIXES}?limit=0`)).body.results as Listed[];
  expect(streamed.map((p) => p.id)).toEqual(expected.map((p) => p.id));
  const paged: Listed[] = [];
  for (let offset = 0; offset < total; offset += 70) paged.push(...(await app.get(`${PREFIXES}?limit=70&offset=${offset}`)).body.results);
  expect(paged.map((p) => p.id)).toEqual(expected.map((p) => p.id));
  const straddling = await app.get(`${PREFIXES}?limit=50&offset=${TOTAL - 20}`);
  expect(straddling.body.results.map((p: Listed) => p.id)).toEqual(expected.slice(TOTAL - 20, TOTAL + 30).map((p) => p.id));
  const one = await app.get(`${PREFIXES}?limit=1&offset=${TOTAL + 5}`);
  const fifty = await app.get(`${PREFIXES}?limit=50&offset=${TOTAL + 5}`);
  expect(one.headers['x-query-count']).toBe(fifty.headers['x-query-count']);
});

describe('a long list reads on from the last row of each chunk', () => {
  // VLANs order by site name, group name (either may be absent: those first), then VID, which
  // repeats across groups: the read of each chunk must carry ties and NULLs over chunk boundaries.
  type Vlan = { id: string; vid: number; site: { name: string } | null; group: { name: string } | null };
  const VLANS = '/api/ipam/vlans/';
  const EACH = Math.ceil((STREAM_CHUNK_ROWS * 2 + 100) / 4);

  beforeAll(async () => {
    const site = async (name: string) => (await app.post('/api/dcim/sites/', { name, status: 'active' })).body.id as string;
    const group = async (name: string, siteId?: string) => (await app.post('/api/ipam/vlan-groups/', { name, ...(siteId ? { site: siteId } : {}) })).body.id as string;
    const north = await site('North');
    const south = await site('South');
    const places: Array<Record<string, string>> = [{}, { site: north }, { site: north, group: await group('Core', north) }, { group: await group('Edge') }];
    for (const [p, place] of places.entries()) {
      // Outside a group VIDs repeat (no uniqueness there): every VID twice.
      const vlans = Array.from({ length: EACH }, (_, i) => ({ vid: place.group ? 1 + i : 1 + (i >> 1), name: `v${p}-${i}`, status: 'active', ...place }));
      for (let start = 0; start < vlans.length; start += 250) expect((await app.post(VLANS, vlans.slice(start, start + 250))).status).toBe(201);
    }
    const southless = await app.post(VLANS, { vid: 7, name: 'south', status: 'active', site: south });
    expect(southless.status).toBe(201);
  }, 120_000);

  test('VLANs: ordered by site, group and VID with the absent ones first, the same as pages give', async () => {
    const streamed = (await app.get(`${VLANS}?limit=0`)).body.results as Vlan[];
    expect(streamed).toHaveLength(EACH * 4 + 1);
    const name = (o: { name: string } | null) => (o === null ? '' : `~${o.name}`);
    // A stable sort by the ordering's fields: ties keep the database's id order (MariaDB's UUID
    // type orders ids otherwise than their text does), which the pages below check.
    const expected = [...streamed].sort((a, b) => name(a.site).localeCompare(name(b.site)) || name(a.group).localeCompare(name(b.group)) || a.vid - b.vid);
    expect(streamed.map((v) => v.id)).toEqual(expected.map((v) => v.id));
    const paged: Vlan[] = [];
    for (let offset = 0; offset < streamed.length; offset += 100) paged.push(...(await app.get(`${VLANS}?limit=100&offset=${offset}`)).body.results);
    expect(paged.map((v) => v.id)).toEqual(streamed.map((v) => v.id));
    const window = await app.get(`${VLANS}?limit=${STREAM_CHUNK_ROWS + 10}&offset=${EACH - 5}`);
    expect(window.body.results.map((v: Vlan) => v.id)).toEqual(streamed.slice(EACH - 5, EACH - 5 + STREAM_CHUNK_ROWS + 10).map((v) => v.id));
  });

  test('the change log, newest first with ties in time, the same as pages give', async () => {
    const streamed = (await app.get('/api/extras/object-changes/?limit=0')).body;
    expect(streamed.results.length).toBe(streamed.count);
    expect(streamed.count).toBeGreaterThan(STREAM_CHUNK_ROWS * 2);
    const ids = streamed.results.map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const paged: string[] = [];
    for (let offset = 0; offset < streamed.count; offset += 500) paged.push(...(await app.get(`/api/extras/object-changes/?limit=500&offset=${offset}`)).body.results.map((c: { id: string }) => c.id));
    expect(paged).toEqual(ids);
    // Compared as instants: a time on a whole second is written without a fraction (`…:36Z`),
    // which sorts after `…:36.926000Z` as text.
    const times = streamed.results.map((c: { time: string }) => Date.parse(c.time));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});
