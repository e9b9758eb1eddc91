/**
 * Virtual chassis and their members, device and interface redundancy groups, and the interface
 * rules that depend on the chassis, with Nautobot's exact 400 bodies.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

let seq = 0;
async function devices(count: number): Promise<Obj[]> {
  seq += 1;
  const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: `Stack vendor ${seq}` }));
  const type = await created(await app.post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `Stack model ${seq}` }));
  const role = await created(await app.post('/api/dcim/device-roles/', { name: `Stack role ${seq}` }));
  const site = await created(await app.post('/api/dcim/sites/', { name: `Stack site ${seq}`, status: 'active' }));
  const out: Obj[] = [];
  for (let i = 1; i <= count; i += 1) {
    out.push(await created(await app.post('/api/dcim/devices/', { name: `sw${seq}-${i}`, device_type: type.id, device_role: role.id, site: site.id, status: 'active' })));
  }
  return out;
}

async function iface(device: Obj, name: string, body: Obj = {}): Promise<Obj> {
  return created(await app.post('/api/dcim/interfaces/', { device: device.id, name, type: '1000base-t', ...body }));
}

describe('virtual chassis', () => {
  test('the master joins on create, must be a member on update, never leaves, cannot be deleted', async () => {
    const [a, b, c] = await devices(3);
    const vc = await created(await app.post('/api/dcim/virtual-chassis/', { name: `VC ${seq}`, domain: 'stack', master: a.id }));
    expect(vc).toMatchObject({ master: { id: a.id }, member_count: 1 });
    expect((await app.get(`/api/dcim/devices/${a.id}/`)).body).toMatchObject({ virtual_chassis: { id: vc.id }, vc_position: 1, vc_priority: null });

    const noPosition = await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: vc.id });
    expect(noPosition.status).toBe(400);
    expect(noPosition.body).toEqual({ vc_position: ['A device assigned to a virtual chassis must have its position defined.'] });
    const taken = await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: vc.id, vc_position: 1 });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ __all__: ['Device with this Virtual chassis and Vc position already exists.'] });
    expect((await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: vc.id, vc_position: 2, vc_priority: 100 })).status).toBe(200);

    const outsider = await app.patch(`/api/dcim/virtual-chassis/${vc.id}/`, { master: c.id });
    expect(outsider.status).toBe(400);
    expect(outsider.body).toEqual({ master: [`The selected master (${c.name}) is not assigned to this virtual chassis.`] });
    expect((await app.patch(`/api/dcim/virtual-chassis/${vc.id}/`, { master: b.id })).status).toBe(200);
    const leave = await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: null, vc_position: null });
    expect(leave.status).toBe(400);
    expect(leave.body).toEqual({ virtual_chassis: [`The master device for the virtual chassis (VC ${seq}) may not be removed`] });
    // A plain member may leave.
    expect((await app.patch(`/api/dcim/devices/${a.id}/`, { virtual_chassis: null, vc_position: null })).status).toBe(200);
    expect((await app.get(`/api/dcim/virtual-chassis/${vc.id}/`)).body.member_count).toBe(1);

    const del = await app.delete(`/api/dcim/devices/${b.id}/`);
    expect(del.status).toBe(409);
    expect((await app.get(`/api/dcim/devices/${b.id}/`)).status).toBe(200);

    const members = await app.get(`/api/dcim/devices/?virtual_chassis_id=${vc.id}`);
    expect(members.body.results.map((d: Obj) => d.id)).toEqual([b.id]);
    expect((await app.get(`/api/dcim/virtual-chassis/?members=${b.name}`)).body.count).toBe(1);
    expect(Object.keys((await app.get(`/api/dcim/virtual-chassis/${vc.id}/?brief=1`)).body)).toEqual(['id', 'display', 'url', 'name', 'master', 'member_count']);
  });

  test('deleting a chassis releases its members', async () => {
    const [a, b] = await devices(2);
    const vc = await created(await app.post('/api/dcim/virtual-chassis/', { name: 'Doomed', master: a.id }));
    expect((await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: vc.id, vc_position: 2, vc_priority: 7 })).status).toBe(200);
    expect((await app.delete(`/api/dcim/virtual-chassis/${vc.id}/`)).status).toBe(204);
    for (const d of [a, b]) {
      expect((await app.get(`/api/dcim/devices/${d.id}/`)).body).toMatchObject({ virtual_chassis: null, vc_position: null, vc_priority: null });
    }
    // The former master can be deleted now.
    expect((await app.delete(`/api/dcim/devices/${a.id}/`)).status).toBe(204);
  });

  test('LAG, parent and bridge interfaces on another member of the chassis, not outside it', async () => {
    const [a, b, c] = await devices(3);
    const vc = await created(await app.post('/api/dcim/virtual-chassis/', { name: `Stack ${seq}`, master: a.id }));
    expect((await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: vc.id, vc_position: 2 })).status).toBe(200);
    const lag = await iface(a, 'ae0', { type: 'lag' });
    const spanning = await iface(b, 'ge-1/0/0', { lag: lag.id });
    const outside = await app.post('/api/dcim/interfaces/', { device: c.id, name: 'ge-2/0/0', type: '1000base-t', lag: lag.id });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ lag: [`The selected LAG interface (ae0) belongs to a different device (${a.name}).`] });
    const lagC = await iface(c, 'ae9', { type: 'lag' });
    const fromMember = await app.post('/api/dcim/interfaces/', { device: b.id, name: 'ge-1/0/1', type: '1000base-t', lag: lagC.id });
    expect(fromMember.body).toEqual({ lag: [`The selected LAG interface (ae9) belongs to ${c.name}, which is not part of virtual chassis Stack ${seq}.`] });
    const physical = await iface(a, 'ge-0/0/0');
    await iface(b, 'ge-1/0/0.10', { type: 'virtual', parent_interface: physical.id });
    const bridge = await app.post('/api/dcim/interfaces/', { device: c.id, name: 'br0', type: 'bridge', bridge: physical.id });
    expect(bridge.body).toEqual({ bridge: [`The selected bridge interface (ge-0/0/0) belongs to a different device (${a.name}).`] });
    // A LAG across members keeps the chassis from being deleted.
    const refused = await app.delete(`/api/dcim/virtual-chassis/${vc.id}/`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: ge-1/0/0 (${spanning.id})` });
    expect((await app.get(`/api/dcim/devices/${b.id}/`)).body.virtual_chassis.id).toBe(vc.id);
  });

  test('interfaces of a chassis master include the non-management interfaces of its members', async () => {
    const [a, b, c] = await devices(3);
    const vc = await created(await app.post('/api/dcim/virtual-chassis/', { name: `Filter ${seq}`, master: a.id }));
    expect((await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: vc.id, vc_position: 2 })).status).toBe(200);
    await iface(a, 'Ethernet1/1');
    await iface(b, 'Ethernet2/1');
    await iface(b, 'mgmt0', { mgmt_only: true });
    await iface(c, 'Ethernet3/1');
    const names = async (query: string) => (await app.get(`/api/dcim/interfaces/?${query}`)).body.results.map((i: Obj) => i.name);
    expect(await names(`device=${encodeURIComponent(a.name)}`)).toEqual(['Ethernet1/1', 'Ethernet2/1']);
    expect(await names(`device_id=${a.id}&name=Ethernet2/1`)).toEqual(['Ethernet2/1']);
    expect(await names(`device=${encodeURIComponent(b.name)}`)).toEqual(['Ethernet2/1', 'mgmt0']);
    expect(await names(`device_with_common_vc=${b.id}`)).toEqual(['Ethernet1/1', 'Ethernet2/1', 'mgmt0']);
    expect(await names(`device_with_common_vc=${c.id}`)).toEqual(['Ethernet3/1']);
  });

  test('MAC addresses in any EUI-48 notation are stored upper case with colons', async () => {
    const [a] = await devices(1);
    for (const [input, stored] of [['aabb.ccdd.eeff', 'AA:BB:CC:DD:EE:FF'], ['00-11-22-33-44-5a', '00:11:22:33:44:5A'], ['001122334455', '00:11:22:33:44:55']]) {
      const i = await iface(a, `mac-${input}`, { mac_address: input });
      expect(i.mac_address).toBe(stored);
    }
    const bad = await app.post('/api/dcim/interfaces/', { device: a.id, name: 'bad-mac', type: '1000base-t', mac_address: 'zz:zz' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ mac_address: ['Invalid MAC address format: zz:zz'] });
  });

  test('a chassis master takes its primary IP from a non-management interface of a member', async () => {
    const [a, b] = await devices(2);
    const vc = await created(await app.post('/api/dcim/virtual-chassis/', { name: `Primary ${seq}`, master: a.id }));
    expect((await app.patch(`/api/dcim/devices/${b.id}/`, { virtual_chassis: vc.id, vc_position: 2 })).status).toBe(200);
    const data = await iface(b, 'ge-1/0/5');
    const mgmt = await iface(b, 'fxp0', { mgmt_only: true });
    const ip = await created(await app.post('/api/ipam/ip-addresses/', { address: `10.${seq}.0.1/24`, status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: data.id }));
    const ipMgmt = await created(await app.post('/api/ipam/ip-addresses/', { address: `10.${seq}.0.2/24`, status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: mgmt.id }));
    expect((await app.patch(`/api/dcim/devices/${a.id}/`, { primary_ip4: ip.id })).status).toBe(200);
    const refused = await app.patch(`/api/dcim/devices/${a.id}/`, { primary_ip4: ipMgmt.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ primary_ip4: [`The specified IP address (10.${seq}.0.2/24) is not assigned to this device.`] });
  });
});

describe('redundancy groups', () => {
  test('device redundancy groups: failover strategy, member priorities, deletion clears them', async () => {
    const [a] = await devices(1);
    const group = await created(await app.post('/api/dcim/device-redundancy-groups/', { name: `FW pair ${seq}`, status: 'active', failover_strategy: 'active-active' }));
    expect(group).toMatchObject({ slug: `fw-pair-${seq}`, failover_strategy: { value: 'active-active', label: 'Active/Active' }, status: { value: 'active' } });
    expect(Object.keys((await app.get(`/api/dcim/device-redundancy-groups/${group.id}/?brief=1`)).body)).toEqual(['id', 'display', 'url', 'name', 'slug', 'failover_strategy']);
    const noGroup = await app.patch(`/api/dcim/devices/${a.id}/`, { device_redundancy_group_priority: 5 });
    expect(noGroup.status).toBe(400);
    expect(noGroup.body).toEqual({ device_redundancy_group_priority: ['Must assign a redundancy group when defining a redundancy group priority.'] });
    expect((await app.patch(`/api/dcim/devices/${a.id}/`, { device_redundancy_group: group.id, device_redundancy_group_priority: 5 })).status).toBe(200);
    expect((await app.get(`/api/dcim/devices/?device_redundancy_group=${group.slug}`)).body.results.map((d: Obj) => d.id)).toEqual([a.id]);
    expect((await app.delete(`/api/dcim/device-redundancy-groups/${group.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/devices/${a.id}/`)).body).toMatchObject({ device_redundancy_group: null, device_redundancy_group_priority: null });
  });

  test('interface redundancy groups, their associations, and deletion with the virtual IP', async () => {
    const [a] = await devices(1);
    const eth = await iface(a, 'eth0');
    const vip = await created(await app.post('/api/ipam/ip-addresses/', { address: `10.${seq}.9.1/24`, status: 'active' }));
    const noProtocol = await app.post('/api/dcim/interface-redundancy-groups/', { name: `HA ${seq}`, status: 'active' });
    expect(noProtocol.body).toEqual({ protocol: ['This field is required.'] });
    const group = await created(await app.post('/api/dcim/interface-redundancy-groups/', { name: `HA ${seq}`, status: 'active', protocol: 'hsrp', virtual_ip: vip.id }));
    expect(group).toMatchObject({ protocol: { value: 'hsrp', label: 'HSRP' }, interfaces: [], virtual_ip: { id: vip.id } });
    const assoc = await created(await app.post('/api/dcim/interface-redundancy-group-associations/', { interface_redundancy_group: group.id, interface: eth.id, priority: 100 }));
    expect(assoc.display).toBe(`HA ${seq}: ${a.name} eth0: 100`);
    const twice = await app.post('/api/dcim/interface-redundancy-group-associations/', { interface_redundancy_group: group.id, interface: eth.id, priority: 50 });
    expect(twice.body).toEqual({ non_field_errors: ['The fields interface_redundancy_group, interface must make a unique set.'] });
    expect((await app.get(`/api/dcim/interface-redundancy-groups/${group.id}/`)).body.interfaces.map((i: Obj) => i.id)).toEqual([assoc.id]);
    expect((await app.delete(`/api/ipam/ip-addresses/${vip.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/interface-redundancy-groups/${group.id}/`)).status).toBe(404);
    expect((await app.get(`/api/dcim/interface-redundancy-group-associations/${assoc.id}/`)).status).toBe(404);
  });
});
