/**
 * Concurrent writes to one object. Updates write only what they change, under a lock on the row
 * taken by the read they start from, so that concurrent changes of different fields all survive
 * (on PostgreSQL and MySQL/MariaDB; SQLite has one writer at a time).
 */
import { startApp, type TestApp } from '../helpers/harness';

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
