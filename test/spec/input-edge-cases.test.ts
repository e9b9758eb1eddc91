/**
 * Input at the edges of what a client may send: dates and offsets, bytes that are not UTF-8, NUL
 * characters, undecodable cookies and paths, numbers beyond a column. Each answer is Nautobot's
 * 4xx (or its empty result), never a 500, on every database.
 */
import { appForThisFile } from '../helpers/harness';
import { created } from '../helpers/responses';

const app = appForThisFile();

describe('dates', () => {
  test('a time-zone offset must lie within ±24 hours', async () => {
    for (const expires of ['2026-01-01T00:00:00+25:00', '2026-01-01T00:00:00-24:00', '2026-01-01T00:00:00+05:60']) {
      const res = await app.post('/api/users/tokens/', { expires });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body)).toEqual(['expires']);
    }
    const ok = await created(await app.post('/api/users/tokens/', { expires: '2026-01-01T00:00:00+23:59' }));
    expect(ok.expires).toBe('2025-12-31T00:01:00Z');
  });

  test('year 1 is a date, as Django accepts it', async () => {
    const rir = await created(await app.post('/api/ipam/rirs/', { name: 'Ancient RIR' }));
    const agg = await created(await app.post('/api/ipam/aggregates/', { prefix: '198.18.0.0/15', rir: rir.id, date_added: '0001-01-01' }));
    expect(agg.date_added).toBe('0001-01-01');
    const again = await app.get(`/api/ipam/aggregates/${agg.id}/`);
    expect(again.body.date_added).toBe('0001-01-01');
    expect((await app.get('/api/ipam/aggregates/?date_added=0001-01-01')).body.count).toBe(1);
    const zero = await app.post('/api/ipam/aggregates/', { prefix: '198.51.100.0/24', rir: rir.id, date_added: '0000-12-31' });
    expect(zero.status).toBe(400);
  });
});
