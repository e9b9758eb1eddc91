/**
 * IPAM services and the 802.1Q fields of device and VM interfaces (untagged_vlan, tagged_vlans),
 * as the model catalogue gives them: representation, write rules with their messages, filters,
 * ordering and what happens when the objects they point at are deleted.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

const ok = (res: { status: number; body: any }): any => {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const field = (res: { status: number; body: any }, key: string): string[] => ok(res).results.map((r: Obj) => r[key]);

let seq = 0;
async function site(): Promise<Obj> {
  seq += 1;
  return created(await app.post('/api/dcim/sites/', { name: `Site ${seq}`, status: 'active' }));
}
async function device(siteId: string): Promise<Obj> {
  seq += 1;
  const m = await created(await app.post('/api/dcim/manufacturers/', { name: `Vendor ${seq}` }));
  const t = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: `Model ${seq}` }));
  const r = await created(await app.post('/api/dcim/device-roles/', { name: `Role ${seq}` }));
  return created(await app.post('/api/dcim/devices/', { name: `dev${seq}`, device_type: t.id, device_role: r.id, site: siteId, status: 'active' }));
}
async function vm(siteId: string | null): Promise<Obj> {
  seq += 1;
  const type = await created(await app.post('/api/virtualization/cluster-types/', { name: `Type ${seq}` }));
  const cluster = await created(await app.post('/api/virtualization/clusters/', { name: `Cluster ${seq}`, type: type.id, site: siteId }));
  return created(await app.post('/api/virtualization/virtual-machines/', { name: `vm${seq}`, cluster: cluster.id, status: 'active' }));
}
async function vlan(vid: number, siteId: string | null = null): Promise<Obj> {
  seq += 1;
  return created(await app.post('/api/ipam/vlans/', { vid, name: `vlan-${seq}`, status: 'active', site: siteId }));
}
async function address(text: string): Promise<Obj> {
  return created(await app.post('/api/ipam/ip-addresses/', { address: text, status: 'active' }));
}

describe('services', () => {
  test('create on a device: representation, display with port ranges, brief form, re-read', async () => {
    const s = await site();
    const d = await device(s.id);
    const ip = await address('192.0.2.10/24');
    const res = await app.post('/api/ipam/services/', { device: d.id, name: 'web', protocol: 'tcp', ports: [80, 443, 444], ipaddresses: [ip.id] });
    const svc = await created(res);
    expect(res.headers.location).toBe(svc.url);
    expect(Object.keys(svc).slice(0, 12)).toEqual([
      'id', 'display', 'url', 'device', 'virtual_machine', 'name', 'ports', 'protocol', 'ipaddresses', 'description', 'created', 'last_updated',
    ]);
    expect(svc.display).toBe('web (TCP/80, 443-444)');
    expect(svc.device).toMatchObject({ id: d.id, name: d.name });
    expect(svc.virtual_machine).toBeNull();
    expect(svc.ports).toEqual([80, 443, 444]);
    expect(svc.protocol).toEqual({ value: 'tcp', label: 'TCP' });
    expect(svc.ipaddresses).toEqual([{ id: ip.id, display: '192.0.2.10/24', url: ip.url, family: 4, address: '192.0.2.10/24' }]);
    expect(svc.description).toBe('');
    const { computed_fields: _c, relationships: _r, ...stored } = svc;
    expect(ok(await app.get(`/api/ipam/services/${svc.id}/`))).toEqual(stored);
    expect(ok(await app.get(`/api/ipam/services/${svc.id}/?brief=1`))).toEqual({
      id: svc.id, display: 'web (TCP/80, 443-444)', url: svc.url, name: 'web', protocol: 'tcp', ports: [80, 443, 444],
    });
    const udp = await created(await app.post('/api/ipam/services/', { device: d.id, name: 'dns', protocol: 'udp', ports: [53] }));
    expect(udp.display).toBe('dns (UDP/53)');
    expect(udp.ipaddresses).toEqual([]);
  });

  test('services on a virtual machine; bad input is a 400 with the reference messages and writes nothing', async () => {
    const s = await site();
    const d = await device(s.id);
    const v = await vm(s.id);
    const svc = await created(await app.post('/api/ipam/services/', { virtual_machine: v.id, name: 'ssh', protocol: 'tcp', ports: ['22'] }));
    expect(svc.virtual_machine).toMatchObject({ id: v.id, name: v.name });
    expect(svc.ports).toEqual([22]);
    const before = ok(await app.get('/api/ipam/services/?limit=1')).count;
    const cases: Array<[Obj, Obj]> = [
      [{ device: d.id, name: 'x', protocol: 'tcp', ports: [22, 70000, 0] }, {
        ports: { '1': ['Ensure this value is less than or equal to 65535.'], '2': ['Ensure this value is greater than or equal to 1.'] },
      }],
      [{ device: d.id, name: 'x', protocol: 'tcp', ports: ['ssh'] }, { ports: { '0': ['A valid integer is required.'] } }],
      [{ device: d.id, name: 'x', protocol: 'tcp', ports: [] }, { ports: ['This field cannot be blank.'] }],
      [{ device: d.id, name: 'x', protocol: 'tcp', ports: 22 }, { ports: ['Expected a list of items but got type "int".'] }],
      [{ device: d.id, name: 'x', protocol: 'tcp' }, { ports: ['This field is required.'] }],
      [{ device: d.id, name: 'x', ports: [22] }, { protocol: ['This field cannot be blank.'] }],
      [{ device: d.id, name: 'x', protocol: 'icmp', ports: [22] }, { protocol: ['icmp is not a valid choice.', 'Valid choices are: tcp, udp.'] }],
      [{ device: d.id, virtual_machine: v.id, name: 'x', protocol: 'tcp', ports: [22] }, {
        non_field_errors: ['A service cannot be associated with both a device and a virtual machine.'],
      }],
      [{ name: 'x', protocol: 'tcp', ports: [22] }, { non_field_errors: ['A service must be associated with either a device or a virtual machine.'] }],
      [{ device: d.id, name: 'x', protocol: 'tcp', ports: [22], ipaddresses: ['00000000-0000-4000-8000-000000000000'] }, {
        ipaddresses: ['Invalid pk "00000000-0000-4000-8000-000000000000" - object does not exist.'],
      }],
    ];
    for (const [body, errors] of cases) {
      const res = await app.post('/api/ipam/services/', body);
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors });
    }
    const bulk = await app.post('/api/ipam/services/', [
      { device: d.id, name: 'a', protocol: 'tcp', ports: [1] },
      { device: d.id, name: 'b', protocol: 'tcp', ports: [65536] },
    ]);
    expect(bulk.status).toBe(400);
    expect(bulk.body).toEqual([{}, { ports: { '0': ['Ensure this value is less than or equal to 65535.'] } }]);
    expect(ok(await app.get('/api/ipam/services/?limit=1')).count).toBe(before);
  });

  test('filters: port, protocol, device and virtual machine by id or name, q; ordering by protocol then ports', async () => {
    const s = await site();
    const d = await device(s.id);
    const v = await vm(null);
    const high = await created(await app.post('/api/ipam/services/', { device: d.id, name: 'high', protocol: 'tcp', ports: [100, 18080] }));
    const low = await created(await app.post('/api/ipam/services/', { device: d.id, name: 'low', protocol: 'tcp', ports: [9], description: 'secure shell' }));
    const dns = await created(await app.post('/api/ipam/services/', { virtual_machine: v.id, name: 'dns', protocol: 'udp', ports: [53, 18080] }));
    // Every service of either parent, in Nautobot's order: protocol, then ports (numerically).
    const all = field(await app.get(`/api/ipam/services/?device=${d.name}&limit=0`), 'name');
    expect(all).toEqual(['low', 'high']);
    expect(field(await app.get('/api/ipam/services/?port=18080'), 'id').sort()).toEqual([high.id, dns.id].sort());
    expect(field(await app.get('/api/ipam/services/?port=9'), 'id')).toEqual([low.id]);
    expect(field(await app.get('/api/ipam/services/?port=100'), 'id')).toEqual([high.id]);
    expect(field(await app.get('/api/ipam/services/?port=18081'), 'id')).toEqual([]);
    expect((await app.get('/api/ipam/services/?port=ssh')).status).toBe(400);
    expect(field(await app.get(`/api/ipam/services/?protocol=udp&virtual_machine=${v.name}`), 'name')).toEqual(['dns']);
    expect(field(await app.get(`/api/ipam/services/?virtual_machine_id=${v.id}`), 'name')).toEqual(['dns']);
    expect(field(await app.get(`/api/ipam/services/?device=${d.id}&protocol__n=udp`), 'name')).toEqual(['low', 'high']);
    expect(field(await app.get(`/api/ipam/services/?device_id=${d.id}&q=SHELL`), 'name')).toEqual(['low']);
    expect(field(await app.get(`/api/ipam/services/?device_id__n=${d.id}&name=high&name=low&name=dns&virtual_machine=${v.id}&virtual_machine=${v.name}`), 'name')).toEqual(['dns']);
  });

  test('deleting the device removes its services; deleting an address only unlinks it', async () => {
    const s = await site();
    const d = await device(s.id);
    const ip = await address('198.51.100.7/24');
    const svc = await created(await app.post('/api/ipam/services/', { device: d.id, name: 'snmp', protocol: 'udp', ports: [161], ipaddresses: [ip.id] }));
    expect((await app.delete(`/api/ipam/ip-addresses/${ip.id}/`)).status).toBe(204);
    expect(ok(await app.get(`/api/ipam/services/${svc.id}/`)).ipaddresses).toEqual([]);
    expect((await app.delete(`/api/dcim/devices/${d.id}/`)).status).toBe(204);
    expect((await app.get(`/api/ipam/services/${svc.id}/`)).status).toBe(404);
  });
});

describe('interface VLANs', () => {
  test('device interface: modes, untagged and tagged VLANs, the site rule, and re-read', async () => {
    const s = await site();
    const other = await site();
    const d = await device(s.id);
    const global = await vlan(10);
    const local = await vlan(20, s.id);
    const foreign = await vlan(30, other.id);
    const base = { device: d.id, type: '1000base-t' };

    const access = await created(await app.post('/api/dcim/interfaces/', { ...base, name: 'ge-0/0/1', mode: 'access', untagged_vlan: { vid: 10 } }));
    expect(access.untagged_vlan).toEqual({ id: global.id, display: global.display, url: global.url, vid: 10, name: global.name });
    expect(access.tagged_vlans).toEqual([]);
    const keys = Object.keys(access);
    expect(keys.slice(keys.indexOf('mode'), keys.indexOf('mode') + 3)).toEqual(['mode', 'untagged_vlan', 'tagged_vlans']);

    const trunk = await created(await app.post('/api/dcim/interfaces/', { ...base, name: 'ge-0/0/2', mode: 'tagged', untagged_vlan: local.id, tagged_vlans: [global.id, local.id] }));
    expect(trunk.tagged_vlans.map((v: Obj) => v.vid)).toEqual([10, 20]);
    const { computed_fields: _c, relationships: _r, ...stored } = trunk;
    expect(ok(await app.get(`/api/dcim/interfaces/${trunk.id}/`))).toEqual(stored);

    const refused: Array<[Obj, Obj]> = [
      [{ name: 'x1', untagged_vlan: global.id }, { untagged_vlan: ['Mode must be set when specifying untagged_vlan'] }],
      [{ name: 'x2', mode: 'access', tagged_vlans: [global.id] }, { tagged_vlans: ['Mode must be set to tagged when specifying tagged_vlans'] }],
      [{ name: 'x3', mode: 'tagged-all', tagged_vlans: [global.id] }, { tagged_vlans: ['Mode must be set to tagged when specifying tagged_vlans'] }],
      [{ name: 'x4', mode: 'tagged', tagged_vlans: [foreign.id] }, {
        tagged_vlans: [`VLAN ${foreign.display} must belong to the same site as the interface's parent device, or it must be global.`],
      }],
      [{ name: 'x5', mode: 'access', untagged_vlan: foreign.id }, {
        untagged_vlan: [`The untagged VLAN (${foreign.display}) must belong to the same site as the interface's parent device, or it must be global`],
      }],
      [{ name: 'x6', mode: 'tagged', tagged_vlans: global.id }, { tagged_vlans: ['Expected a list of items but got type "str".'] }],
    ];
    for (const [body, errors] of refused) {
      const res = await app.post('/api/dcim/interfaces/', { ...base, ...body });
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors });
    }
    expect(field(await app.get(`/api/dcim/interfaces/?device_id=${d.id}`), 'name')).toEqual(['ge-0/0/1', 'ge-0/0/2']);

    // Leaving tagged mode needs the tagged VLANs cleared in the same request.
    const leave = await app.patch(`/api/dcim/interfaces/${trunk.id}/`, { mode: 'access' });
    expect(leave.status).toBe(400);
    expect(leave.body).toEqual({ tagged_vlans: ['Clear tagged_vlans to set mode to access'] });
    expect(ok(await app.get(`/api/dcim/interfaces/${trunk.id}/`)).tagged_vlans).toHaveLength(2);
    const cleared = ok(await app.patch(`/api/dcim/interfaces/${trunk.id}/`, { mode: 'access', tagged_vlans: [] }));
    expect(cleared.mode).toEqual({ value: 'access', label: 'Access' });
    expect(cleared.tagged_vlans).toEqual([]);
    expect(cleared.untagged_vlan.id).toBe(local.id);
    // A PATCH of other fields leaves the VLANs alone.
    const renamed = ok(await app.patch(`/api/dcim/interfaces/${access.id}/`, { description: 'uplink' }));
    expect(renamed.untagged_vlan.id).toBe(global.id);
  });

  test('filters: untagged_vlan and tagged_vlans by id or VID, has_tagged_vlans, vlan and vlan_id', async () => {
    const s = await site();
    const d = await device(s.id);
    const a = await vlan(101);
    const b = await vlan(102);
    const c = await vlan(103);
    const base = { device: d.id, type: '1000base-t' };
    await created(await app.post('/api/dcim/interfaces/', { ...base, name: 'eth1', mode: 'access', untagged_vlan: a.id }));
    await created(await app.post('/api/dcim/interfaces/', { ...base, name: 'eth2', mode: 'tagged', untagged_vlan: c.id, tagged_vlans: [a.id, b.id] }));
    await created(await app.post('/api/dcim/interfaces/', { ...base, name: 'eth3', mode: 'tagged', tagged_vlans: [c.id] }));
    await created(await app.post('/api/dcim/interfaces/', { ...base, name: 'eth4' }));
    const names = async (query: string) => field(await app.get(`/api/dcim/interfaces/?device_id=${d.id}&${query}`), 'name');
    expect(await names('untagged_vlan=101')).toEqual(['eth1']);
    expect(await names(`untagged_vlan=${c.id}`)).toEqual(['eth2']);
    expect(await names('untagged_vlan__n=101')).toEqual(['eth2', 'eth3', 'eth4']);
    expect(await names('tagged_vlans=102')).toEqual(['eth2']);
    expect(await names(`tagged_vlans=${b.id}&tagged_vlans=103`)).toEqual(['eth2', 'eth3']);
    expect(await names('tagged_vlans__n=101')).toEqual(['eth1', 'eth3', 'eth4']);
    expect(await names('has_tagged_vlans=true')).toEqual(['eth2', 'eth3']);
    expect(await names('has_tagged_vlans=false')).toEqual(['eth1', 'eth4']);
    expect(await names('vlan=101')).toEqual(['eth1', 'eth2']);
    expect(await names('vlan=103')).toEqual(['eth2', 'eth3']);
    expect(await names(`vlan_id=${b.id}`)).toEqual(['eth2']);
    expect((await app.get('/api/dcim/interfaces/?vlan=abc')).status).toBe(400);
    expect((await app.get('/api/dcim/interfaces/?vlan_id=abc')).status).toBe(400);
    const unknown = await app.get('/api/dcim/interfaces/?untagged_vlan=4000');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ untagged_vlan: ['Select a valid choice. 4000 is not one of the available choices.'] });
  });

  test('deleting a VLAN clears untagged_vlan and removes it from tagged_vlans', async () => {
    const s = await site();
    const d = await device(s.id);
    const keep = await vlan(201);
    const gone = await vlan(202);
    const itf = await created(await app.post('/api/dcim/interfaces/', { device: d.id, name: 'eth0', type: '1000base-t', mode: 'tagged', untagged_vlan: gone.id, tagged_vlans: [keep.id, gone.id] }));
    expect((await app.delete(`/api/ipam/vlans/${gone.id}/`)).status).toBe(204);
    const after = ok(await app.get(`/api/dcim/interfaces/${itf.id}/`));
    expect(after.untagged_vlan).toBeNull();
    expect(after.tagged_vlans.map((v: Obj) => v.id)).toEqual([keep.id]);
  });

  test('VM interface: mode rules, tagged VLANs at the cluster site, filters', async () => {
    const s = await site();
    const other = await site();
    const v = await vm(s.id);
    const local = await vlan(301, s.id);
    const foreign = await vlan(302, other.id);
    const global = await vlan(303);
    const base = { virtual_machine: v.id };
    // The VM interface model does not check the untagged VLAN's site.
    const a = await created(await app.post('/api/virtualization/interfaces/', { ...base, name: 'eth0', mode: 'access', untagged_vlan: foreign.id }));
    expect(a.untagged_vlan.id).toBe(foreign.id);
    const t = await created(await app.post('/api/virtualization/interfaces/', { ...base, name: 'eth1', mode: 'tagged', tagged_vlans: [local.id, global.id] }));
    expect(t.tagged_vlans.map((x: Obj) => x.vid).sort()).toEqual([301, 303]);
    const refused: Array<[Obj, Obj]> = [
      [{ name: 'e2', untagged_vlan: global.id }, { untagged_vlan: ['Mode must be set when specifying untagged_vlan'] }],
      [{ name: 'e3', tagged_vlans: [global.id] }, { tagged_vlans: ['Mode must be set to tagged when specifying tagged_vlans'] }],
      [{ name: 'e4', mode: 'tagged', tagged_vlans: [foreign.id] }, {
        tagged_vlans: [`VLAN ${foreign.display} must belong to the same site as the interface's parent virtual machine, or it must be global.`],
      }],
    ];
    for (const [body, errors] of refused) {
      const res = await app.post('/api/virtualization/interfaces/', { ...base, ...body });
      expect({ body, status: res.status, errors: res.body }).toEqual({ body, status: 400, errors });
    }
    const leave = await app.patch(`/api/virtualization/interfaces/${t.id}/`, { mode: 'tagged-all' });
    expect(leave.body).toEqual({ tagged_vlans: ['Clear tagged_vlans to set mode to tagged-all'] });
    const names = async (query: string) => field(await app.get(`/api/virtualization/interfaces/?virtual_machine_id=${v.id}&${query}`), 'name');
    expect(await names('has_tagged_vlans=true')).toEqual(['eth1']);
    expect(await names('tagged_vlans=303')).toEqual(['eth1']);
    expect(await names(`untagged_vlan=${foreign.id}`)).toEqual(['eth0']);
    expect(await names('untagged_vlan=302')).toEqual(['eth0']);
  });
});

describe('filters across IPAM, devices and virtual machines', () => {
  test('count_ipaddresses on device interfaces; VM interface ip_addresses and has_ip_addresses', async () => {
    const s = await site();
    const d = await device(s.id);
    const itf = await created(await app.post('/api/dcim/interfaces/', { device: d.id, name: 'lo0', type: 'virtual' }));
    expect(itf.count_ipaddresses).toBe(0);
    for (const a of ['203.0.113.1/32', '203.0.113.2/32']) {
      await created(await app.post('/api/ipam/ip-addresses/', { address: a, status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: itf.id }));
    }
    expect(ok(await app.get(`/api/dcim/interfaces/${itf.id}/`)).count_ipaddresses).toBe(2);
    expect(ok(await app.get(`/api/dcim/interfaces/?device_id=${d.id}`)).results[0].count_ipaddresses).toBe(2);
    // Left out where the interface is nested in another object.
    const addr = ok(await app.get(`/api/ipam/ip-addresses/?interface_id=${itf.id}`)).results[0];
    expect(addr.assigned_object).not.toHaveProperty('count_ipaddresses');

    const v = await vm(s.id);
    const e0 = await created(await app.post('/api/virtualization/interfaces/', { virtual_machine: v.id, name: 'e0' }));
    await created(await app.post('/api/virtualization/interfaces/', { virtual_machine: v.id, name: 'e1' }));
    const ip = await created(await app.post('/api/ipam/ip-addresses/', {
      address: '198.18.0.5/24', status: 'active', assigned_object_type: 'virtualization.vminterface', assigned_object_id: e0.id,
    }));
    const names = async (query: string) => field(await app.get(`/api/virtualization/interfaces/?virtual_machine_id=${v.id}&${query}`), 'name');
    expect(await names('has_ip_addresses=true')).toEqual(['e0']);
    expect(await names('has_ip_addresses=false')).toEqual(['e1']);
    expect(await names(`ip_addresses=${ip.id}`)).toEqual(['e0']);
    expect(await names('ip_addresses=198.18.0.5')).toEqual(['e0']);
    expect(await names('ip_addresses=198.18.0.5/24')).toEqual(['e0']);
    expect(await names('ip_addresses=198.18.0.5/25')).toEqual([]);
    expect(await names('ip_addresses=198.18.0.6&ip_addresses=198.18.0.5')).toEqual(['e0']);
    const bad = await app.get('/api/virtualization/interfaces/?ip_addresses=not-an-ip');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['ip_addresses']);
    // `__n` of interface filters on IP addresses.
    const others = field(await app.get(`/api/ipam/ip-addresses/?interface_id__n=${itf.id}&address=203.0.113.1&address=198.18.0.5`), 'address');
    expect(others).toEqual(['198.18.0.5/24']);
  });

  test('virtual machines by primary IP and by services', async () => {
    const v = await vm(null);
    const other = await vm(null);
    const itf = await created(await app.post('/api/virtualization/interfaces/', { virtual_machine: v.id, name: 'eth0' }));
    const ip4 = await created(await app.post('/api/ipam/ip-addresses/', {
      address: '100.64.0.9/10', status: 'active', assigned_object_type: 'virtualization.vminterface', assigned_object_id: itf.id,
    }));
    const ip6 = await created(await app.post('/api/ipam/ip-addresses/', {
      address: '2001:db8:99::9/64', status: 'active', assigned_object_type: 'virtualization.vminterface', assigned_object_id: itf.id,
    }));
    ok(await app.patch(`/api/virtualization/virtual-machines/${v.id}/`, { primary_ip4: ip4.id, primary_ip6: ip6.id }));
    await created(await app.post('/api/ipam/services/', { virtual_machine: other.id, name: 'ntp', protocol: 'udp', ports: [123] }));
    const scope = `id=${v.id}&id=${other.id}`;
    const names = async (query: string) => field(await app.get(`/api/virtualization/virtual-machines/?${scope}&${query}`), 'name');
    expect(await names('primary_ip4=100.64.0.9')).toEqual([v.name]);
    expect(await names('primary_ip4=100.64.0.9/10')).toEqual([v.name]);
    expect(await names('primary_ip4=100.64.0.9/24')).toEqual([]);
    expect(await names(`primary_ip4=${ip4.id}`)).toEqual([v.name]);
    expect(await names('primary_ip6=2001:db8:99::9')).toEqual([v.name]);
    expect(await names('primary_ip6=100.64.0.9')).toEqual([]);
    expect(await names('has_services=true')).toEqual([other.name]);
    expect(await names('has_services=false')).toEqual([v.name]);
    expect(await names('services=ntp')).toEqual([other.name]);
    expect(await names('services__n=ntp')).toEqual([v.name]);
    expect((await app.get('/api/virtualization/virtual-machines/?primary_ip4=bogus')).status).toBe(400);
  });

  test('VLANs available on a device; sites by prefixes, VLANs and VLAN groups; route targets by VRF, negated', async () => {
    const s = await site();
    const other = await site();
    const d = await device(s.id);
    const global = await vlan(401);
    const local = await vlan(402, s.id);
    const foreign = await vlan(403, other.id);
    const vids = field(await app.get(`/api/ipam/vlans/?available_on_device=${d.id}&id=${global.id}&id=${local.id}&id=${foreign.id}`), 'vid');
    expect(vids.sort()).toEqual([401, 402]);
    expect(field(await app.get(`/api/ipam/vlans/?available_on_device=00000000-0000-4000-8000-000000000001&id=${global.id}`), 'vid')).toEqual([]);
    expect((await app.get('/api/ipam/vlans/?available_on_device=nope')).status).toBe(400);

    const prefix = await created(await app.post('/api/ipam/prefixes/', { prefix: '10.250.0.0/16', status: 'active', site: s.id }));
    const group = await created(await app.post('/api/ipam/vlan-groups/', { name: `Group ${seq}`, site: other.id }));
    const sites = async (query: string) => field(await app.get(`/api/dcim/sites/?id=${s.id}&id=${other.id}&${query}`), 'id');
    expect(await sites(`prefixes=${prefix.id}`)).toEqual([s.id]);
    expect(await sites('has_prefixes=true')).toEqual([s.id]);
    expect(await sites(`vlans=${foreign.id}`)).toEqual([other.id]);
    expect((await sites('has_vlans=true')).sort()).toEqual([s.id, other.id].sort());
    expect(await sites(`vlan_groups=${group.slug}`)).toEqual([other.id]);
    expect(await sites(`vlan_groups__n=${group.id}`)).toEqual([s.id]);
    expect(await sites('has_vlan_groups=false')).toEqual([s.id]);

    const rt = await created(await app.post('/api/ipam/route-targets/', { name: '65100:1' }));
    const rt2 = await created(await app.post('/api/ipam/route-targets/', { name: '65100:2' }));
    const vrf = await created(await app.post('/api/ipam/vrfs/', { name: `vrf-${seq}`, rd: '65100:100', import_targets: [rt.id] }));
    const rts = async (query: string) => field(await app.get(`/api/ipam/route-targets/?id=${rt.id}&id=${rt2.id}&${query}`), 'name');
    expect(await rts('importing_vrf=65100:100')).toEqual(['65100:1']);
    expect(await rts('importing_vrf__n=65100:100')).toEqual(['65100:2']);
    expect(await rts(`importing_vrf_id__n=${vrf.id}`)).toEqual(['65100:2']);
    expect(await rts(`exporting_vrf_id__n=${vrf.id}`)).toEqual(['65100:1', '65100:2']);
  });
});
