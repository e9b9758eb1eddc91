/**
 * Pagination (spec "Pagination"; reference behaviour-lists.md §2): limit, offset, the maximum page
 * size and the construction of next/previous.
 */
import { startApp, type TestApp } from '../helpers/harness';

const TAGS = '/api/extras/tags/';

async function seedTags(app: TestApp, n: number): Promise<void> {
  const body = Array.from({ length: n }, (_, i) => ({ name: `t${String(i).padStart(3, '0')}`, slug: `t${String(i).padStart(3, '0')}` }));
  const res = await app.post(TAGS, body);
  expect(res.status).toBe(201);
}

describe('with a maximum page size', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ NETINV_PAGINATE_COUNT: '4', NETINV_MAX_PAGE_SIZE: '6' });
    await seedTags(app, 10);
  });
  afterAll(async () => {
    await app?.close();
  });
  const url = (q: string) => `${app.baseUrl}${TAGS}${q}`;

  test('default page size and links', async () => {
    const res = await app.get(TAGS);
    expect(res.body.count).toBe(10);
    expect(res.body.results.map((t: { name: string }) => t.name)).toEqual(['t000', 't001', 't002', 't003']);
    expect(res.body.next).toBe(url('?limit=4&offset=4'));
    expect(res.body.previous).toBeNull();
  });

  test.each([
    ['limit=2', 2],
    ['limit=100', 6],
    ['limit=0', 6],
    ['limit=-5', 4],
    ['limit=abc', 4],
    ['limit=5.0', 4],
    ['limit=', 4],
    ['limit=+3', 3],
    ['limit=%203%20', 3],
  ])('%s → page of %i, never an error', async (q, size) => {
    const res = await app.get(`${TAGS}?${q}`);
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(size);
    expect(res.body.next).toBe(url(`?limit=${size}&offset=${size}`));
  });

  test('previous drops offset when it would be ≤ 0; keys sorted', async () => {
    let res = await app.get(`${TAGS}?name__isw=t&limit=2&offset=2`);
    expect(res.body.next).toBe(url('?limit=2&name__isw=t&offset=4'));
    expect(res.body.previous).toBe(url('?limit=2&name__isw=t'));
    res = await app.get(`${TAGS}?limit=2&offset=3`);
    expect(res.body.previous).toBe(url('?limit=2&offset=1'));
  });

  test('the last page has no next', async () => {
    const res = await app.get(`${TAGS}?limit=3&offset=8`);
    expect(res.body.results.map((t: { name: string }) => t.name)).toEqual(['t008', 't009']);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBe(url('?limit=3&offset=5'));
  });

  test('offset past the end: empty results, count kept, previous points back', async () => {
    const res = await app.get(`${TAGS}?limit=2&offset=20`);
    expect(res.body).toEqual({ count: 10, next: null, previous: url('?limit=2&offset=18'), results: [] });
  });

  test('bad offsets read as 0', async () => {
    for (const q of ['offset=-3', 'offset=x']) {
      const res = await app.get(`${TAGS}?limit=2&${q}`);
      expect(res.body.results[0].name).toBe('t000');
      expect(res.body.previous).toBeNull();
    }
  });

  test('values are re-encoded form-style', async () => {
    const res = await app.get(`${TAGS}?limit=1&description__ic=a%20b%2Fc%3A`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(0);
    expect(res.body.next).toBeNull();
    const all = await app.get(`${TAGS}?limit=1&q=t%2F`);
    expect(all.body.count).toBe(0);
    const many = await app.get(`${TAGS}?limit=1&name__nic=x%20y%2F`);
    expect(many.body.next).toBe(url('?limit=1&name__nic=x+y%2F&offset=1'));
  });

  test('the page costs a constant number of queries', async () => {
    const before = app.queries();
    await app.get(`${TAGS}?limit=6`);
    const six = app.queries() - before;
    const mid = app.queries();
    await app.get(`${TAGS}?limit=1`);
    expect(app.queries() - mid).toBe(six);
  });
});

describe('without a maximum page size', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ NETINV_PAGINATE_COUNT: '3', NETINV_MAX_PAGE_SIZE: '0' });
    await seedTags(app, 7);
  });
  afterAll(async () => {
    await app?.close();
  });

  test('limit=0 returns everything with no links', async () => {
    const res = await app.get(`${TAGS}?limit=0`);
    expect(res.body.count).toBe(7);
    expect(res.body.results).toHaveLength(7);
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBeNull();
  });

  test('large limits are honoured', async () => {
    const res = await app.get(`${TAGS}?limit=5000`);
    expect(res.body.results).toHaveLength(7);
  });
});

describe('a list whose ordering puts objects without a parent first (prefixes without a VRF)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  test('every window is the same slice of the whole list, across the two parts', async () => {
    const vrf = await app.post('/api/ipam/vrfs/', { name: 'paging' });
    expect(vrf.status).toBe(201);
    const body = [
      ...['10.99.2.0/24', '10.99.0.0/24', '10.99.1.0/24', '10.99.1.0/25'].map((prefix) => ({ prefix, status: 'active' })),
      ...['10.99.3.0/24', '10.99.0.0/24', '10.99.0.0/16'].map((prefix) => ({ prefix, status: 'active', vrf: vrf.body.id })),
    ];
    expect((await app.post('/api/ipam/prefixes/', body)).status).toBe(201);
    const label = (p: { prefix: string; vrf: { name: string } | null }) => `${p.vrf?.name ?? '-'} ${p.prefix}`;
    const page = async (query: string) => {
      const res = await app.get(`/api/ipam/prefixes/?q=10.99.&${query}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(7);
      return res.body.results.map(label);
    };
    const all = await page('limit=0');
    expect(all).toEqual([
      '- 10.99.0.0/24', '- 10.99.1.0/24', '- 10.99.1.0/25', '- 10.99.2.0/24',
      'paging 10.99.0.0/16', 'paging 10.99.0.0/24', 'paging 10.99.3.0/24',
    ]);
    for (const limit of [1, 2, 3, 4, 5, 7, 8]) {
      for (let offset = 0; offset <= 8; offset++) {
        expect([limit, offset, await page(`limit=${limit}&offset=${offset}`)]).toEqual([limit, offset, all.slice(offset, offset + limit)]);
      }
    }
  });
});
