/**
 * Cables: the compatibility matrix and the checks of Nautobot's Cable.clean() in their order,
 * with the exact 400 bodies; the `cable`, `cable_peer` and `cable_peer_type` keys of both ends
 * after creating and deleting a cable.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

let seq = 0;

/** A device with nothing on it, at a new site. */
async function device(): Promise<Obj> {
  seq += 1;
  const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: `Cable vendor ${seq}` }));
  const type = await created(await app.post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `Cable model ${seq}` }));
  const role = await created(await app.post('/api/dcim/device-roles/', { name: `Cable role ${seq}` }));
  const site = await created(await app.post('/api/dcim/sites/', { name: `Cable site ${seq}`, status: 'active' }));
  return created(await app.post('/api/dcim/devices/', { name: `cabled-${seq}`, device_type: type.id, device_role: role.id, site: site.id, status: 'active' }));
}

async function component(path: string, body: Obj): Promise<Obj> {
  return created(await app.post(`/api/dcim/${path}/`, body));
}

function cableBody(aType: string, a: Obj, bType: string, b: Obj, extra: Obj = {}): Obj {
  return { termination_a_type: aType, termination_a_id: a.id, termination_b_type: bType, termination_b_id: b.id, status: 'connected', ...extra };
}

describe('dcim.cable', () => {
  test('creating a cable fills both ends; deleting it clears them', async () => {
    const d = await device();
    const a = await component('interfaces', { device: d.id, name: 'eth0', type: '1000base-t' });
    const b = await component('interfaces', { device: d.id, name: 'eth1', type: '1000base-t' });
    const cable = await created(await app.post('/api/dcim/cables/', cableBody('dcim.interface', a, 'dcim.interface', b, { type: 'cat6', color: 'aa1409', length: 5, length_unit: 'm' })));
    expect(cable).toMatchObject({
      display: `#${cable.id as string}`,
      termination_a_type: 'dcim.interface',
      termination_a_id: a.id,
      termination_a: { id: a.id, name: 'eth0', cable: cable.id, device: { id: d.id } },
      termination_b: { id: b.id, name: 'eth1', cable: cable.id },
      type: 'cat6',
      status: { value: 'connected', label: 'Connected' },
      label: '',
      color: 'aa1409',
      length: 5,
      length_unit: { value: 'm', label: 'Meters' },
    });
    const readA = (await app.get(`/api/dcim/interfaces/${a.id as string}/`)).body;
    expect(readA.cable).toMatchObject({ id: cable.id, label: '', display: `#${cable.id as string}` });
    expect(readA.cable_peer).toMatchObject({ id: b.id, name: 'eth1', cable: cable.id });
    expect(readA.cable_peer_type).toBe('dcim.interface');
    const readB = (await app.get(`/api/dcim/interfaces/${b.id as string}/`)).body;
    expect(readB.cable_peer).toMatchObject({ id: a.id });
    expect(readB.cable_peer_type).toBe('dcim.interface');
    const cabled = await app.get(`/api/dcim/interfaces/?device_id=${d.id as string}&cabled=true`);
    expect(cabled.body.results.map((i: Obj) => i.name).sort()).toEqual(['eth0', 'eth1']);
    const byCable = await app.get(`/api/dcim/interfaces/?cable=${cable.id as string}`);
    expect(byCable.body.results.map((i: Obj) => i.name).sort()).toEqual(['eth0', 'eth1']);
    const notByCable = await app.get(`/api/dcim/interfaces/?device_id=${d.id as string}&cable__n=${cable.id as string}`);
    expect(notByCable.body.count).toBe(0);
    const byDevice = await app.get(`/api/dcim/cables/?device=${d.name as string}`);
    expect(byDevice.body.results.map((c: Obj) => c.id)).toEqual([cable.id]);
    const bySite = await app.get(`/api/dcim/cables/?site_id=${(d.site as Obj).id as string}`);
    expect(bySite.body.results.map((c: Obj) => c.id)).toEqual([cable.id]);
    expect((await app.get(`/api/dcim/cables/?device_id=${b.id as string}`)).body.count).toBe(0);
    // Region and tenant of either end's device (the region without descendants, as Nautobot).
    const region = await created(await app.post('/api/dcim/regions/', { name: `Cable region ${seq}` }));
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: `Cable tenant ${seq}` }));
    expect((await app.patch(`/api/dcim/sites/${(d.site as Obj).id as string}/`, { region: region.id })).status).toBe(200);
    expect((await app.patch(`/api/dcim/devices/${d.id as string}/`, { tenant: tenant.id })).status).toBe(200);
    for (const query of [`region=${region.slug as string}`, `region_id=${region.id as string}`, `tenant=${tenant.slug as string}`, `tenant_id=${tenant.id as string}`]) {
      expect({ query, ids: (await app.get(`/api/dcim/cables/?${query}`)).body.results.map((c: Obj) => c.id) }).toEqual({ query, ids: [cable.id] });
    }
    const brief = await app.get(`/api/dcim/interfaces/${a.id as string}/?brief=true`);
    expect(brief.body.cable).toBe(cable.id);

    expect((await app.delete(`/api/dcim/cables/${cable.id as string}/`)).status).toBe(204);
    const after = (await app.get(`/api/dcim/interfaces/${a.id as string}/`)).body;
    expect(after).toMatchObject({ cable: null, cable_peer: null, cable_peer_type: null });
    const none = await app.get(`/api/dcim/interfaces/?device_id=${d.id as string}&cabled=true`);
    expect(none.body.count).toBe(0);
  });

  test('the checks, in Nautobot order, with their bodies', async () => {
    const d = await device();
    const eth = await component('interfaces', { device: d.id, name: 'eth0', type: '1000base-t' });
    const eth2 = await component('interfaces', { device: d.id, name: 'eth2', type: '1000base-t' });
    const eth3 = await component('interfaces', { device: d.id, name: 'eth3', type: '1000base-t' });
    const lag = await component('interfaces', { device: d.id, name: 'ae0', type: 'lag' });
    const con = await component('console-ports', { device: d.id, name: 'con0' });
    const psu = await component('power-ports', { device: d.id, name: 'psu0' });
    const outlet = await component('power-outlets', { device: d.id, name: 'out0' });
    const rear = await component('rear-ports', { device: d.id, name: 'R1', type: 'lc', positions: 2 });
    const rear4 = await component('rear-ports', { device: d.id, name: 'R4', type: 'lc', positions: 4, label: 'four' });
    const front = await component('front-ports', { device: d.id, name: 'F1', type: 'lc', rear_port: rear.id, rear_port_position: 1 });

    const expect400 = async (body: Obj, error: Obj): Promise<void> => {
      const res = await app.post('/api/dcim/cables/', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error);
    };
    await expect400(cableBody('dcim.device', d, 'dcim.interface', eth), { termination_a_type: ['Invalid content type: dcim.device'] });
    await expect400(cableBody('dcim.interface', { id: '00000000-0000-4000-8000-000000000000' }, 'dcim.interface', eth), {
      termination_a: ['Invalid ID for type dcim.interface'],
    });
    await expect400(cableBody('dcim.interface', lag, 'dcim.interface', eth), { termination_a_id: ['Cables cannot be terminated to Link Aggregation Group (LAG) interfaces'] });
    await expect400(cableBody('dcim.interface', eth, 'dcim.consoleport', con), { __all__: ['Incompatible termination types: dcim | interface and dcim | console port'] });
    await expect400(cableBody('dcim.powerport', psu, 'dcim.frontport', front), { __all__: ['Incompatible termination types: dcim | power port and dcim | front port'] });
    await expect400(cableBody('dcim.rearport', rear, 'dcim.rearport', rear4), {
      __all__: ['R1 has 2 position(s) but R4 (four) has 4. Both terminations must have the same number of positions (if greater than one).'],
    });
    await expect400(cableBody('dcim.interface', eth, 'dcim.interface', eth), { __all__: ['Cannot connect dcim | interface to itself'] });
    await expect400(cableBody('dcim.frontport', front, 'dcim.rearport', rear), { __all__: ['A front port cannot be connected to it corresponding rear port'] });
    await expect400(cableBody('dcim.interface', eth, 'dcim.interface', eth2, { length: 3 }), { __all__: ['Must specify a unit when setting a cable length'] });
    await expect400(cableBody('dcim.interface', eth, 'dcim.interface', eth2, { color: 'AA1409' }), { color: ['Enter a valid hexadecimal RGB color code.'] });

    const power = await created(await app.post('/api/dcim/cables/', cableBody('dcim.powerport', psu, 'dcim.poweroutlet', outlet)));
    expect(power.length_unit).toBeNull();
    const first = await created(await app.post('/api/dcim/cables/', cableBody('dcim.interface', eth, 'dcim.interface', eth2)));
    await expect400(cableBody('dcim.interface', eth, 'dcim.interface', eth3), { non_field_errors: ['The fields termination_a_type, termination_a_id must make a unique set.'] });
    await expect400(cableBody('dcim.interface', eth2, 'dcim.interface', eth3), { __all__: [`eth2 already has a cable attached (#${first.id as string})`] });

    const moved = await app.patch(`/api/dcim/cables/${first.id as string}/`, { termination_b_id: eth3.id });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({ termination_b: ['Cable termination points may not be modified. Delete and recreate the cable instead.'] });
    const planned = await app.patch(`/api/dcim/cables/${first.id as string}/`, { status: 'planned', label: 'uplink' });
    expect(planned.status).toBe(200);
    expect(planned.body).toMatchObject({ status: { value: 'planned' }, label: 'uplink', display: 'uplink' });
  });

  test('a length unit without a length: kept on create, blanked on update unless resent', async () => {
    const d = await device();
    const a = await component('interfaces', { device: d.id, name: 'eth0', type: '1000base-t' });
    const b = await component('interfaces', { device: d.id, name: 'eth1', type: '1000base-t' });
    const cable = await created(await app.post('/api/dcim/cables/', cableBody('dcim.interface', a, 'dcim.interface', b, { length_unit: 'ft' })));
    expect(cable).toMatchObject({ length: null, length_unit: { value: 'ft', label: 'Feet' } });
    const resent = await app.patch(`/api/dcim/cables/${cable.id as string}/`, { length_unit: 'm' });
    expect(resent.body.length_unit).toEqual({ value: 'm', label: 'Meters' });
    const other = await app.patch(`/api/dcim/cables/${cable.id as string}/`, { label: 'x' });
    expect(other.body.length_unit).toBeNull();
  });

  test('circuit terminations are cable ends; one in a provider network is refused', async () => {
    const d = await device();
    const eth = await component('interfaces', { device: d.id, name: 'eth0', type: '1000base-t' });
    const provider = await created(await app.post('/api/circuits/providers/', { name: `Cable carrier ${seq}` }));
    const ctype = await created(await app.post('/api/circuits/circuit-types/', { name: `Cable transit ${seq}` }));
    const site = await created(await app.post('/api/dcim/sites/', { name: `Cable CT site ${seq}`, status: 'active' }));
    const circuit = await created(await app.post('/api/circuits/circuits/', { cid: `C-${seq}`, provider: provider.id, type: ctype.id, status: 'active' }));
    const network = await created(await app.post('/api/circuits/provider-networks/', { provider: provider.id, name: `Backbone ${seq}` }));
    const ta = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'A', site: site.id }));
    const tz = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: 'Z', provider_network: network.id }));
    expect(ta).toMatchObject({ cable: null, cable_peer: null, cable_peer_type: null, connected_endpoint: null });
    const refused = await app.post('/api/dcim/cables/', cableBody('dcim.interface', eth, 'circuits.circuittermination', tz));
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ termination_b_id: ['Circuit terminations attached to a provider network may not be cabled.'] });
    const cable = await created(await app.post('/api/dcim/cables/', cableBody('dcim.interface', eth, 'circuits.circuittermination', ta)));
    const read = (await app.get(`/api/circuits/circuit-terminations/${ta.id as string}/`)).body;
    expect(read).toMatchObject({ cable: { id: cable.id }, cable_peer: { id: eth.id, name: 'eth0' }, cable_peer_type: 'dcim.interface' });
    const iface = (await app.get(`/api/dcim/interfaces/${eth.id as string}/`)).body;
    expect(iface).toMatchObject({ cable_peer: { id: ta.id, term_side: 'A' }, cable_peer_type: 'circuits.circuittermination' });
  });
});
