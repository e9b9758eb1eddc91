/**
 * New rows get time-ordered UUIDs (version 7): keys created later sort after earlier ones, so a
 * bulk create appends to the key indexes instead of touching a page per object.
 */
import { newRowId } from '../../framework/store/row-ids';
import { startApp, type TestApp } from '../helpers/harness';

const VERSION_7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The creation time a version-7 UUID carries, in milliseconds. */
function timeOf(id: string): number {
  return parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

describe('newRowId', () => {
  test('gives distinct, strictly increasing version-7 UUIDs, many within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => newRowId());
    for (const id of ids) expect(id).toMatch(VERSION_7);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
  });

  test('carries the current time', () => {
    const before = Date.now();
    const id = newRowId();
    // Keys borrowed from the next milliseconds (more than 4,096 in one) may run slightly ahead.
    expect(timeOf(id)).toBeGreaterThanOrEqual(before);
    expect(timeOf(id)).toBeLessThan(Date.now() + 1000);
  });
});

describe('keys of objects created through the API', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  test('a bulk create gives keys in the order of its items, and its change records too', async () => {
    const started = Date.now();
    const items = Array.from({ length: 30 }, (_, i) => ({ name: `Row key ${i}`, slug: `row-key-${i}`, content_types: ['dcim.site'] }));
    const res = await app.post('/api/extras/tags/', items);
    expect(res.status).toBe(201);
    const ids = (res.body as Array<{ id: string; slug: string }>).map((t) => t.id);
    expect((res.body as Array<{ slug: string }>).map((t) => t.slug)).toEqual(items.map((t) => t.slug));
    for (const id of ids) {
      expect(id).toMatch(VERSION_7);
      expect(timeOf(id)).toBeGreaterThanOrEqual(started);
    }
    expect([...ids].sort()).toEqual(ids);

    const changes = await app.get(`/api/extras/object-changes/?changed_object_type=extras.tag&limit=100`);
    expect(changes.status).toBe(200);
    const records = (changes.body.results as Array<{ id: string; changed_object_id: string }>).filter((c) => ids.includes(c.changed_object_id));
    expect(records).toHaveLength(ids.length);
    for (const record of records) expect(record.id).toMatch(VERSION_7);

    // Each key reads back its own object.
    const again = await app.get(`/api/extras/tags/${ids[17]}/`);
    expect(again.status).toBe(200);
    expect(again.body.slug).toBe('row-key-17');
  });
});
