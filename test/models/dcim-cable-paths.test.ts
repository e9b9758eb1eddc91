/**
 * Cable paths, as the worked examples of the reference give them: the endpoint keys of every end
 * after each cable is created, after a status change and after each cable is deleted in turn;
 * and the node index that finds the stored paths through a cable or port, kept in step with them.
 */
import { Store } from '../../framework';
import { CablePath } from '../../models/dcim/cable-path';
import { CablePathNode } from '../../models/dcim/cable-path-node';
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

// Statements per request (X-Query-Count): what a cable's creation costs.
const app = appForThisFile({ NETINV_COUNT_QUERIES: 'true' });

let seq = 0;

async function device(name: string): Promise<Obj> {
  seq += 1;
  const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: `Path vendor ${seq}` }));
  const type = await created(await app.post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `Path model ${seq}` }));
  const role = await created(await app.post('/api/dcim/device-roles/', { name: `Path role ${seq}` }));
  const site = await created(await app.post('/api/dcim/sites/', { name: `Path site ${seq}`, status: 'active' }));
  return created(await app.post('/api/dcim/devices/', { name: `${name}-${seq}`, device_type: type.id, device_role: role.id, site: site.id, status: 'active' }));
}

const iface = async (d: Obj, name: string): Promise<Obj> => created(await app.post('/api/dcim/interfaces/', { device: d.id, name, type: '1000base-t' }));
const rearPort = async (d: Obj, name: string, positions = 1): Promise<Obj> => created(await app.post('/api/dcim/rear-ports/', { device: d.id, name, type: '8p8c', positions }));
const frontPort = async (d: Obj, name: string, rear: Obj, position = 1): Promise<Obj> =>
  created(await app.post('/api/dcim/front-ports/', { device: d.id, name, type: '8p8c', rear_port: rear.id, rear_port_position: position }));

const TYPES: Record<string, string> = { interfaces: 'dcim.interface', 'front-ports': 'dcim.frontport', 'rear-ports': 'dcim.rearport' };
const labelOf = (o: Obj): string => TYPES[new URL(o.url as string).pathname.split('/')[3]] ?? 'circuits.circuittermination';

async function cable(a: Obj, b: Obj, extra: Obj = {}): Promise<Obj> {
  return created(await app.post('/api/dcim/cables/', {
    termination_a_type: labelOf(a), termination_a_id: a.id, termination_b_type: labelOf(b), termination_b_id: b.id, status: 'connected', type: 'cat6', ...extra,
  }));
}

async function read(o: Obj): Promise<Obj> {
  return (await app.get(new URL(o.url as string).pathname)).body as Obj;
}

/** The endpoint keys of an interface: destination id (or null) and reachability. */
async function endpoint(o: Obj): Promise<[unknown, unknown, unknown]> {
  const r = await read(o);
  return [(r.connected_endpoint as Obj | null)?.id ?? null, r.connected_endpoint_type, r.connected_endpoint_reachable];
}

describe('cable paths', () => {
  test('two devices through two patch panels, cable by cable, then each cable deleted in turn', async () => {
    const [router, pp1, pp2, sw] = [await device('router'), await device('pp1'), await device('pp2'), await device('switch')];
    const i1 = await iface(router, 'eth0');
    const i2 = await iface(sw, 'ge-0/0/1');
    const r1 = await rearPort(pp1, '1');
    const f1 = await frontPort(pp1, '1', r1);
    const r2 = await rearPort(pp2, '1');
    const f2 = await frontPort(pp2, '1', r2);
    expect(await endpoint(i1)).toEqual([null, null, null]);

    const c1 = await cable(i1, f1, { label: 'C1' });
    expect(await endpoint(i1)).toEqual([null, null, false]);
    const front = await read(f1);
    expect(front).toMatchObject({ cable: { id: c1.id, label: 'C1' }, cable_peer: { id: i1.id }, cable_peer_type: 'dcim.interface' });
    expect(front).not.toHaveProperty('connected_endpoint');

    const c2 = await cable(r1, r2, { label: 'C2' });
    expect(await endpoint(i1)).toEqual([null, null, false]);
    const c3 = await cable(f2, i2, { label: 'C3' });
    expect(await endpoint(i1)).toEqual([i2.id, 'dcim.interface', true]);
    expect(await endpoint(i2)).toEqual([i1.id, 'dcim.interface', true]);
    const full = await read(i1);
    expect(full).toMatchObject({ cable: { id: c1.id }, cable_peer: { id: f1.id }, cable_peer_type: 'dcim.frontport', connected_endpoint: { id: i2.id, name: 'ge-0/0/1' } });

    const trace = await app.get(`/api/dcim/interfaces/${i1.id as string}/trace/`);
    expect(trace.status).toBe(200);
    expect(trace.body.map((seg: Array<Obj | null>) => seg.map((o) => o?.id ?? null))).toEqual([
      [i1.id, c1.id, f1.id], [r1.id, c2.id, r2.id], [f2.id, c3.id, i2.id],
    ]);
    expect(trace.body[0][0]).toMatchObject({ name: 'eth0', cable: c1.id, device: { id: router.id, name: router.name } });
    expect(trace.body[0][1]).toEqual({
      id: c1.id, display: 'C1', url: c1.url, type: 'cat6', status: { value: 'connected', label: 'Connected' }, label: 'C1', color: '', length: null, length_unit: '',
      created: c1.created, last_updated: expect.any(String),
    });
    const paths = await app.get(`/api/dcim/rear-ports/${r1.id as string}/paths/`);
    expect(paths.status).toBe(200);
    expect(paths.body).toHaveLength(2);
    const fromI1 = (paths.body as Obj[]).find((p) => (p.origin as Obj).id === i1.id) as Obj;
    expect(fromI1).toMatchObject({ origin_type: 'dcim.interface', destination_type: 'dcim.interface', destination: { id: i2.id }, is_active: true, is_split: false });
    expect((fromI1.path as Obj[]).map((n) => n.id)).toEqual([c1.id, f1.id, r1.id, c2.id, r2.id, f2.id, c3.id]);
    expect((fromI1.path as Obj[])[0]).toEqual({ id: c1.id, display: 'C1', url: c1.url, label: 'C1' });

    const missing = await app.get(`/api/dcim/connected-device/?peer_device=${sw.name as string}`);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ detail: 'Request must include "peer_device" and "peer_interface" filters.' });
    const unknown = await app.get(`/api/dcim/connected-device/?peer_device=${sw.name as string}&peer_interface=nope`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not found.' });
    const neighbour = await app.get(`/api/dcim/connected-device/?peer_device=${sw.name as string}&peer_interface=ge-0/0/1`);
    expect(neighbour.status).toBe(200);
    expect(neighbour.body).toMatchObject({ id: router.id, name: router.name });
    expect(neighbour.body).not.toHaveProperty('config_context');

    const listed = await app.get(`/api/dcim/interfaces/?id=${i1.id as string}&id=${i2.id as string}`);
    expect(listed.body.results.map((o: Obj) => (o.connected_endpoint as Obj).id).sort()).toEqual([i1.id, i2.id].sort());

    const connected = async (value: boolean): Promise<unknown[]> =>
      (await app.get(`/api/dcim/interfaces/?id=${i1.id as string}&id=${i2.id as string}&connected=${String(value)}`)).body.results.map((o: Obj) => o.id).sort();
    expect(await connected(true)).toEqual([i1.id, i2.id].sort());
    expect(await connected(false)).toEqual([]);
    expect((await app.patch(`/api/dcim/cables/${c2.id as string}/`, { status: 'planned' })).status).toBe(200);
    expect(await connected(true)).toEqual([]);
    expect(await connected(false)).toEqual([i1.id, i2.id].sort());
    expect(await endpoint(i1)).toEqual([i2.id, 'dcim.interface', false]);
    expect(await endpoint(i2)).toEqual([i1.id, 'dcim.interface', false]);
    expect((await app.patch(`/api/dcim/cables/${c2.id as string}/`, { status: 'connected' })).status).toBe(200);
    expect(await endpoint(i1)).toEqual([i2.id, 'dcim.interface', true]);

    expect((await app.delete(`/api/dcim/cables/${c2.id as string}/`)).status).toBe(204);
    expect(await endpoint(i1)).toEqual([null, null, false]);
    const unplugged = await app.get(`/api/dcim/connected-device/?peer_device=${sw.name as string}&peer_interface=ge-0/0/1`);
    expect(unplugged.status).toBe(200);
    expect(unplugged.text).toBe('');
    const shortened = await app.get(`/api/dcim/interfaces/${i1.id as string}/trace/`);
    expect(shortened.body.map((seg: Array<Obj | null>) => seg.map((o) => o?.id ?? null))).toEqual([[i1.id, c1.id, f1.id], [r1.id, null, null]]);
    expect(await endpoint(i2)).toEqual([null, null, false]);
    expect((await app.delete(`/api/dcim/cables/${c1.id as string}/`)).status).toBe(204);
    expect(await endpoint(i1)).toEqual([null, null, null]);
    expect((await app.get(`/api/dcim/interfaces/${i1.id as string}/trace/`)).body).toEqual([]);
    expect(await read(i1)).toMatchObject({ cable: null, cable_peer: null, cable_peer_type: null });
    expect(await endpoint(i2)).toEqual([null, null, false]);
    expect((await app.delete(`/api/dcim/cables/${c3.id as string}/`)).status).toBe(204);
    expect(await endpoint(i2)).toEqual([null, null, null]);
  });

  test('a split rear port: no destination from the trunk side, the front-port sides reach it', async () => {
    const [d1, pp, d2] = [await device('a'), await device('pp'), await device('b')];
    const if1 = await iface(d1, 'eth0');
    const if2 = await iface(d2, 'eth0');
    const if3 = await iface(d2, 'eth1');
    const rp = await rearPort(pp, 'R', 4);
    const fp1 = await frontPort(pp, 'F1', rp, 1);
    const fp2 = await frontPort(pp, 'F2', rp, 2);
    await cable(if1, rp);
    await cable(fp1, if2);
    await cable(fp2, if3);
    expect(await endpoint(if1)).toEqual([null, null, false]);
    const split = await app.get(`/api/dcim/interfaces/${if1.id as string}/trace/`);
    expect(split.body.map((seg: Array<Obj | null>) => seg.map((o) => o?.id ?? null))).toEqual([[if1.id, expect.any(String), rp.id]]);
    expect(await endpoint(if2)).toEqual([if1.id, 'dcim.interface', true]);
    expect(await endpoint(if3)).toEqual([if1.id, 'dcim.interface', true]);
  });

  test('a planned cable keeps the destination but is not reachable', async () => {
    const [d1, d2] = [await device('a'), await device('b')];
    const a = await iface(d1, 'eth0');
    const b = await iface(d2, 'eth0');
    await cable(a, b, { status: 'planned' });
    expect(await endpoint(a)).toEqual([b.id, 'dcim.interface', false]);
    expect(await endpoint(b)).toEqual([a.id, 'dcim.interface', false]);
  });

  test('a circuit between two sites', async () => {
    const [d1, d2] = [await device('a'), await device('b')];
    const if1 = await iface(d1, 'eth0');
    const if2 = await iface(d2, 'eth0');
    const provider = await created(await app.post('/api/circuits/providers/', { name: `Path carrier ${seq}` }));
    const ctype = await created(await app.post('/api/circuits/circuit-types/', { name: `Path transit ${seq}` }));
    const site = await created(await app.post('/api/dcim/sites/', { name: `Path CT site ${seq}`, status: 'active' }));
    const circuit = await created(await app.post('/api/circuits/circuits/', { cid: `PC-${seq}`, provider: provider.id, type: ctype.id, status: 'active' }));
    const ta = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', site: site.id }));
    await cable(if1, ta);
    expect(await endpoint(if1)).toEqual([ta.id, 'circuits.circuittermination', true]);
    expect(await endpoint(ta)).toEqual([if1.id, 'dcim.interface', true]);
    // The circuit shows the termination's far end in its short form too.
    const short = (await app.get(`/api/circuits/circuits/${circuit.id as string}/`)).body.termination_a;
    expect(short.connected_endpoint).toMatchObject({ id: if1.id, name: 'eth0' });
    const listed = (await app.get(`/api/circuits/circuits/?id=${circuit.id as string}`)).body.results[0].termination_a;
    expect(listed.connected_endpoint).toMatchObject({ id: if1.id });
    const tz = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'Z', site: site.id }));
    expect(await endpoint(if1)).toEqual([null, null, false]);
    const c2 = await cable(tz, if2);
    expect(await endpoint(if1)).toEqual([if2.id, 'dcim.interface', true]);
    const t = await app.get(`/api/dcim/interfaces/${if1.id as string}/trace/`);
    expect(t.body.map((seg: Array<Obj | null>) => seg.map((o) => o?.id ?? null))).toEqual([[if1.id, expect.any(String), ta.id], [tz.id, c2.id, if2.id]]);
    const ct = await app.get(`/api/circuits/circuit-terminations/${ta.id as string}/trace/`);
    expect(ct.body.map((seg: Array<Obj | null>) => seg.map((o) => o?.id ?? null))).toEqual([[ta.id, expect.any(String), if1.id]]);
    expect(await endpoint(if2)).toEqual([if1.id, 'dcim.interface', true]);
  });

  test('deleting a device deletes the cables of its components and retraces their far ends', async () => {
    const [d1, pp, d2] = [await device('a'), await device('pp'), await device('b')];
    const a = await iface(d1, 'eth0');
    const b = await iface(d2, 'eth0');
    const rear = await rearPort(pp, 'R');
    const front = await frontPort(pp, 'F', rear);
    const c1 = await cable(a, front);
    const c2 = await cable(rear, b);
    expect(await endpoint(a)).toEqual([b.id, 'dcim.interface', true]);
    expect((await app.delete(`/api/dcim/devices/${pp.id as string}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/cables/${c1.id as string}/`)).status).toBe(404);
    expect((await app.get(`/api/dcim/cables/${c2.id as string}/`)).status).toBe(404);
    expect(await read(a)).toMatchObject({ cable: null, cable_peer: null, connected_endpoint: null, connected_endpoint_reachable: null });
    expect(await read(b)).toMatchObject({ cable: null, cable_peer: null, connected_endpoint: null, connected_endpoint_reachable: null });
    const c3 = await cable(a, b);
    expect((await app.delete(`/api/dcim/interfaces/${b.id as string}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/cables/${c3.id as string}/`)).status).toBe(404);
    expect(await endpoint(a)).toEqual([null, null, null]);
  });

  test('the node index follows paths through their life: a middle cable deleted and put back, a status change, deletes of a patch panel and an interface', async () => {
    const [d1, pp1, pp2, d2] = [await device('a'), await device('pp1'), await device('pp2'), await device('b')];
    const a = await iface(d1, 'eth0');
    const b = await iface(d2, 'eth0');
    const r1 = await rearPort(pp1, 'R');
    const f1 = await frontPort(pp1, 'F', r1);
    const r2 = await rearPort(pp2, 'R');
    const f2 = await frontPort(pp2, 'F', r2);
    const c1 = await cable(a, f1);
    const c2 = await cable(r1, r2);
    const c3 = await cable(f2, b);
    expect(await endpoint(a)).toEqual([b.id, 'dcim.interface', true]);
    expect(await traceOf(a)).toEqual([[a.id, c1.id, f1.id], [r1.id, c2.id, r2.id], [f2.id, c3.id, b.id]]);
    expect(await originsThrough(r1)).toEqual([a.id, b.id].sort());
    await expectNodeIndexInStep();

    // The middle cable goes: each half keeps the path up to its patch panel's rear port.
    expect((await app.delete(`/api/dcim/cables/${c2.id as string}/`)).status).toBe(204);
    expect(await endpoint(a)).toEqual([null, null, false]);
    expect(await traceOf(a)).toEqual([[a.id, c1.id, f1.id], [r1.id, null, null]]);
    expect(await traceOf(b)).toEqual([[b.id, c3.id, f2.id], [r2.id, null, null]]);
    expect(await originsThrough(r1)).toEqual([a.id]);
    expect(await originsThrough(r2)).toEqual([b.id]);
    await expectNodeIndexInStep();

    // Put back the other way round: both halves are found through their rear ports and joined.
    const c4 = await cable(r2, r1);
    expect(await endpoint(a)).toEqual([b.id, 'dcim.interface', true]);
    expect(await traceOf(a)).toEqual([[a.id, c1.id, f1.id], [r1.id, c4.id, r2.id], [f2.id, c3.id, b.id]]);
    expect(await traceOf(b)).toEqual([[b.id, c3.id, f2.id], [r2.id, c4.id, r1.id], [f1.id, c1.id, a.id]]);
    expect(await originsThrough(f2)).toEqual([a.id, b.id].sort());
    await expectNodeIndexInStep();

    expect((await app.patch(`/api/dcim/cables/${c3.id as string}/`, { status: 'planned' })).status).toBe(200);
    expect(await endpoint(a)).toEqual([b.id, 'dcim.interface', false]);
    expect(await endpoint(b)).toEqual([a.id, 'dcim.interface', false]);
    await expectNodeIndexInStep();
    expect((await app.patch(`/api/dcim/cables/${c3.id as string}/`, { status: 'connected' })).status).toBe(200);
    expect(await endpoint(a)).toEqual([b.id, 'dcim.interface', true]);

    // The second patch panel goes with both its cables.
    expect((await app.delete(`/api/dcim/devices/${pp2.id as string}/`)).status).toBe(204);
    expect(await endpoint(a)).toEqual([null, null, false]);
    expect(await traceOf(a)).toEqual([[a.id, c1.id, f1.id], [r1.id, null, null]]);
    expect(await endpoint(b)).toEqual([null, null, null]);
    expect(await originsThrough(r1)).toEqual([a.id]);
    await expectNodeIndexInStep();

    // A new cable on the rear port extends the path found through it.
    const c5 = await cable(r1, b);
    expect(await traceOf(a)).toEqual([[a.id, c1.id, f1.id], [r1.id, c5.id, b.id]]);
    expect(await endpoint(b)).toEqual([a.id, 'dcim.interface', true]);
    await expectNodeIndexInStep();

    // An interface goes with its cable: the far side's path ends at the freed front port.
    expect((await app.delete(`/api/dcim/interfaces/${a.id as string}/`)).status).toBe(204);
    expect(await endpoint(b)).toEqual([null, null, false]);
    expect(await traceOf(b)).toEqual([[b.id, c5.id, r1.id], [f1.id, null, null]]);
    expect(await originsThrough(f1)).toEqual([b.id]);
    await expectNodeIndexInStep();
  });

  test('joining two half paths costs the same statements with 5 or 50 unrelated cables stored', async () => {
    const [ends, panels, spare] = [await device('ends'), await device('panels'), await device('spare')];
    let n = 0;
    /** A – front/rear port | rear/front port – B, then the cable between the two rear ports: its statements. */
    const joinHalves = async (): Promise<number> => {
      n += 1;
      const [a, b] = [await iface(ends, `a${n}`), await iface(ends, `b${n}`)];
      const r1 = await rearPort(panels, `R${n}a`);
      const r2 = await rearPort(panels, `R${n}b`);
      await cable(a, await frontPort(panels, `F${n}a`, r1));
      await cable(await frontPort(panels, `F${n}b`, r2), b);
      // Past the configuration cache's staleness bound, the request reads the generations afresh
      // first; else its transaction may find them just gone stale and load webhooks and job hooks
      // itself, a few statements more by chance of timing.
      await new Promise((resolve) => setTimeout(resolve, app.server.db.configCache.maxStaleMs + 100));
      const res = await app.post('/api/dcim/cables/', {
        termination_a_type: 'dcim.rearport', termination_a_id: r1.id, termination_b_type: 'dcim.rearport', termination_b_id: r2.id, status: 'connected',
      });
      expect(res.status).toBe(201);
      expect(await endpoint(a)).toEqual([b.id, 'dcim.interface', true]);
      return Number(res.headers['x-query-count']);
    };
    let unrelated = 0;
    const unrelatedUpTo = async (count: number): Promise<void> => {
      for (; unrelated < count; unrelated++) await cable(await iface(spare, `x${unrelated}`), await iface(spare, `y${unrelated}`));
    };
    await joinHalves(); // caches warm, as on a server between requests
    await unrelatedUpTo(5);
    const withFive = await joinHalves();
    await unrelatedUpTo(50);
    const withFifty = await joinHalves();
    expect(withFive).toBeGreaterThan(0);
    expect(withFifty).toBe(withFive);
    await expectNodeIndexInStep();
  });
});

describe('reading connected interfaces', () => {
  test('a page reads its paths, its cables and their far ends once for the five connection fields', async () => {
    const [left, right, idle] = [await device('page-left'), await device('page-right'), await device('page-idle')];
    for (let i = 0; i < 3; i++) {
      await cable(await iface(left, `p${i}`), await iface(right, `p${i}`));
      await iface(idle, `p${i}`);
    }
    const list = async (d: Obj) => {
      const res = await app.get(`/api/dcim/interfaces/?device_id=${String(d.id)}`);
      expect(res.status).toBe(200);
      return res;
    };
    // Caches warm (configuration, list counts), as on a server between requests.
    await list(idle);
    await list(left);
    const [cabled, uncabled] = [await list(left), await list(idle)];
    for (const itf of cabled.body.results as Obj[]) {
      expect((itf.cable_peer as Obj).id).toBe((itf.connected_endpoint as Obj).id);
      expect(itf.connected_endpoint_reachable).toBe(true);
    }
    // The far ends' nested forms are one statement more, shared by cable_peer and connected_endpoint;
    // the paths (three fields) and the cables (two) are read whether or not the page has any.
    expect(Number(cabled.headers['x-query-count']) - Number(uncabled.headers['x-query-count'])).toBe(1);
  });
});

/** The ids along an interface's trace, segment by segment. */
async function traceOf(o: Obj): Promise<unknown[][]> {
  const res = await app.get(`/api/dcim/interfaces/${o.id as string}/trace/`);
  expect(res.status).toBe(200);
  return res.body.map((seg: Array<Obj | null>) => seg.map((n) => n?.id ?? null));
}

/** The origins of the stored paths through a front or rear port (`paths/`, answered from the node index). */
async function originsThrough(port: Obj): Promise<unknown[]> {
  const res = await app.get(`${new URL(port.url as string).pathname}paths/`);
  expect(res.status).toBe(200);
  return (res.body as Obj[]).map((p) => (p.origin as Obj).id).sort();
}

/** Every stored path has one node row per distinct node of its `path` text, and no other node rows exist. */
async function expectNodeIndexInStep(): Promise<void> {
  const store = new Store(app.server.db.reader, app.server.registry);
  const paths = await store.find(CablePath);
  const rows = await store.pluck(CablePathNode, {}, ['cable_path', 'node']);
  const indexed = rows.map((r) => `${String(r.cable_path)} ${String(r.node)}`).sort();
  const expected = paths.flatMap((p) => [...new Set((p.path as string).split(',').filter(Boolean))].map((node) => `${String(p.id)} ${node}`)).sort();
  expect(indexed.length).toBeGreaterThan(0);
  expect(indexed).toEqual(expected);
}
