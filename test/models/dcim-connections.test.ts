/**
 * The connection lists (behaviour-dcim.md §4): console and power connections are the ports with a
 * path destination in their full form; interface connections list each pair once, filters
 * matching either side.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

let seq = 0;

async function device(site?: Obj): Promise<Obj> {
  seq += 1;
  const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: `Conn vendor ${seq}` }));
  const type = await created(await app.post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `Conn model ${seq}` }));
  const role = await created(await app.post('/api/dcim/device-roles/', { name: `Conn role ${seq}` }));
  const s = site ?? (await created(await app.post('/api/dcim/sites/', { name: `Conn site ${seq}`, status: 'active' })));
  return created(await app.post('/api/dcim/devices/', { name: `conn-${seq}`, device_type: type.id, device_role: role.id, site: s.id, status: 'active' }));
}

async function cable(aType: string, a: Obj, bType: string, b: Obj, status = 'connected'): Promise<Obj> {
  return created(await app.post('/api/dcim/cables/', { termination_a_type: aType, termination_a_id: a.id, termination_b_type: bType, termination_b_id: b.id, status }));
}

describe('connection lists', () => {
  test('interface connections: each pair once, lower id first, either side filtered; console and power connections: the connected ports', async () => {
    const d1 = await device();
    const d2 = await device();
    const i1 = await created(await app.post('/api/dcim/interfaces/', { device: d1.id, name: 'eth1', type: '1000base-t' }));
    const i2 = await created(await app.post('/api/dcim/interfaces/', { device: d2.id, name: 'eth2', type: '1000base-t' }));
    await created(await app.post('/api/dcim/interfaces/', { device: d1.id, name: 'eth9', type: '1000base-t' }));
    await cable('dcim.interface', i1, 'dcim.interface', i2, 'planned');
    const list = await app.get('/api/dcim/interface-connections/');
    expect(list.status).toBe(200);
    expect(list.headers['api-version']).toBeUndefined();
    expect(list.body.count).toBe(1);
    const [low, high] = [i1, i2].sort((x, y) => (String(x.id) < String(y.id) ? -1 : 1));
    expect(list.body.results[0]).toEqual({
      interface_a: expect.objectContaining({ id: low.id, name: low.name, device: expect.objectContaining({ id: low.device.id }) }),
      interface_b: expect.objectContaining({ id: high.id, name: high.name }),
      connected_endpoint_reachable: false,
    });
    for (const query of [`device=${d1.name}`, `device=${d2.name}`, `device_id=${d2.id}`, `site=${d1.site.slug}`]) {
      expect({ query, count: (await app.get(`/api/dcim/interface-connections/?${query}`)).body.count }).toEqual({ query, count: 1 });
    }
    const other = await device();
    expect((await app.get(`/api/dcim/interface-connections/?device_id=${other.id}`)).body.count).toBe(0);

    const console = await created(await app.post('/api/dcim/console-ports/', { device: d1.id, name: 'con0' }));
    await created(await app.post('/api/dcim/console-ports/', { device: d1.id, name: 'con1' }));
    const server = await created(await app.post('/api/dcim/console-server-ports/', { device: d2.id, name: 'ttyS1' }));
    await cable('dcim.consoleport', console, 'dcim.consoleserverport', server);
    const consoles = await app.get(`/api/dcim/console-connections/?device_id=${d1.id}`);
    expect(consoles.status).toBe(200);
    expect(consoles.body.results.map((r: Obj) => r.id)).toEqual([console.id]);
    expect(consoles.body.results[0]).toMatchObject({ name: 'con0', connected_endpoint: { id: server.id }, connected_endpoint_type: 'dcim.consoleserverport', connected_endpoint_reachable: true });

    const port = await created(await app.post('/api/dcim/power-ports/', { device: d1.id, name: 'PSU1' }));
    const outlet = await created(await app.post('/api/dcim/power-outlets/', { device: d2.id, name: 'Out1' }));
    expect((await app.get(`/api/dcim/power-connections/?device_id=${d1.id}`)).body.count).toBe(0);
    await cable('dcim.powerport', port, 'dcim.poweroutlet', outlet);
    const power = await app.get(`/api/dcim/power-connections/?device_id=${d1.id}`);
    expect(power.body.results.map((r: Obj) => r.id)).toEqual([port.id]);
    expect((await app.post('/api/dcim/power-connections/', {})).status).toBe(405);
    expect((await app.get('/api/dcim/console-connections/', null)).status).toBe(403);
  });
});
