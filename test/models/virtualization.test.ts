/**
 * The special rules of the virtualization models, as the model catalogue gives them: cluster
 * types and groups, clusters, virtual machines and their interfaces.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

const names = (res: { status: number; body: any }): string[] => {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.results.map((r: { name: string }) => r.name);
};

let seq = 0;
async function cluster(body: Obj = {}): Promise<Obj> {
  seq += 1;
  const type = await created(await app.post('/api/virtualization/cluster-types/', { name: `Type ${seq}` }));
  return created(await app.post('/api/virtualization/clusters/', { name: `Cluster ${seq}`, type: type.id, ...body }));
}
async function vm(c: Obj, name: string, body: Obj = {}): Promise<Obj> {
  return created(await app.post('/api/virtualization/virtual-machines/', { name, cluster: c.id, status: 'active', ...body }));
}
async function site(name: string): Promise<Obj> {
  return created(await app.post('/api/dcim/sites/', { name, status: 'active' }));
}
async function device(siteId: string, name: string, body: Obj = {}): Promise<Obj> {
  seq += 1;
  const m = await created(await app.post('/api/dcim/manufacturers/', { name: `Host vendor ${seq}` }));
  const t = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: 'Host' }));
  const r = await created(await app.post('/api/dcim/device-roles/', { name: `Host role ${seq}` }));
  return created(await app.post('/api/dcim/devices/', { name, device_type: t.id, device_role: r.id, site: siteId, status: 'active', ...body }));
}

describe('cluster types and groups', () => {
  test('counts, brief forms, cluster filters and protection', async () => {
    const type = await created(await app.post('/api/virtualization/cluster-types/', { name: 'VMware vSphere' }));
    const group = await created(await app.post('/api/virtualization/cluster-groups/', { name: 'Production' }));
    const c = await created(await app.post('/api/virtualization/clusters/', { name: 'vc-prod', type: { slug: 'vmware-vsphere' }, group: group.id }));
    expect(type.slug).toBe('vmware-vsphere');
    expect((await app.get(`/api/virtualization/cluster-types/${type.id}/?brief=1`)).body).toEqual({
      id: type.id, display: 'VMware vSphere', url: type.url, name: 'VMware vSphere', slug: 'vmware-vsphere', cluster_count: 1,
    });
    expect((await app.get(`/api/virtualization/cluster-groups/${group.id}/`)).body.cluster_count).toBe(1);
    expect(names(await app.get('/api/virtualization/cluster-types/?clusters=vc-prod'))).toEqual(['VMware vSphere']);
    expect(names(await app.get(`/api/virtualization/cluster-groups/?clusters=${c.id}`))).toEqual(['Production']);
    expect(names(await app.get('/api/virtualization/cluster-groups/?has_clusters=true&name=Production'))).toEqual(['Production']);
    for (const path of [`/api/virtualization/cluster-types/${type.id}/`, `/api/virtualization/cluster-groups/${group.id}/`]) {
      const res = await app.delete(path);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: vc-prod (${c.id})` });
    }
  });
});

describe('virtualization.cluster', () => {
  test('representation, brief form and filters', async () => {
    const s = await site('Cluster site');
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'Cluster tenant' }));
    const c = await cluster({ site: s.id, tenant: tenant.id, comments: 'hosts' });
    expect(Object.keys(c)).toEqual([
      'id', 'display', 'url', 'name', 'type', 'group', 'tenant', 'site', 'location', 'comments', 'device_count', 'virtualmachine_count',
      'created', 'last_updated', 'tags', 'notes_url', 'custom_fields', 'computed_fields', 'relationships',
    ]);
    await vm(c, 'guest');
    const host = await device(s.id, 'host1', { cluster: c.id });
    expect((await app.get(`/api/virtualization/clusters/${c.id}/?brief=1`)).body).toEqual({
      id: c.id, display: c.name, url: c.url, name: c.name, virtualmachine_count: 1,
    });
    expect((await app.get(`/api/virtualization/clusters/${c.id}/`)).body).toMatchObject({ device_count: 1, virtualmachine_count: 1 });
    expect(names(await app.get(`/api/virtualization/clusters/?site=${s.slug}`))).toEqual([c.name]);
    expect(names(await app.get(`/api/virtualization/clusters/?type=${c.type.slug}`))).toEqual([c.name]);
    expect(names(await app.get('/api/virtualization/clusters/?devices=host1'))).toEqual([c.name]);
    expect(names(await app.get(`/api/virtualization/clusters/?virtual_machines=guest&tenant=${tenant.slug}`))).toEqual([c.name]);
    expect(names(await app.get(`/api/virtualization/clusters/?has_devices=true&id=${c.id}`))).toEqual([c.name]);
    expect(names(await app.get('/api/virtualization/clusters/?q=HOSTS'))).toEqual([c.name]);
    expect((await app.get(`/api/dcim/devices/?cluster_id=${c.id}`)).body.results[0].id).toBe(host.id);
  });

  test('a host device must be in the cluster site, and the site cannot move away from hosts', async () => {
    const a = await site('Host site A');
    const b = await site('Host site B');
    const c = await cluster({ site: a.id });
    const wrong = await app.post('/api/dcim/devices/', { ...(await hostBody(b.id)), cluster: c.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ cluster: ['The assigned cluster belongs to a different site (Host site A)'] });
    await device(a.id, 'pinned', { cluster: c.id });
    const moved = await app.patch(`/api/virtualization/clusters/${c.id}/`, { site: b.id });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({ site: ['1 devices are assigned as hosts for this cluster but are not in site Host site B'] });
    expect((await app.patch(`/api/virtualization/clusters/${c.id}/`, { site: null })).status).toBe(200);
    expect((await app.patch(`/api/virtualization/clusters/${c.id}/`, { site: a.id })).status).toBe(200);
  });

  test('a cluster with VMs is protected; an empty one is deleted and leaves its hosts', async () => {
    const s = await site('Delete site');
    const c = await cluster();
    const guest = await vm(c, 'kept');
    const res = await app.delete(`/api/virtualization/clusters/${c.id}/`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: kept (${guest.id})` });
    const empty = await cluster();
    const host = await device(s.id, 'leaving', { cluster: empty.id });
    expect((await app.delete(`/api/virtualization/clusters/${empty.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/devices/${host.id}/`)).body.cluster).toBeNull();
  });
});

async function hostBody(siteId: string): Promise<Obj> {
  seq += 1;
  const m = await created(await app.post('/api/dcim/manufacturers/', { name: `Body vendor ${seq}` }));
  const t = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: 'Body' }));
  const r = await created(await app.post('/api/dcim/device-roles/', { name: `Body role ${seq}` }));
  return { device_type: t.id, device_role: r.id, site: siteId, status: 'active' };
}

describe('virtualization.virtualmachine', () => {
  test('representation: site mirrors the cluster, config context, brief form', async () => {
    const s = await site('VM site');
    const c = await cluster({ site: s.id });
    const v = await vm(c, 'web01', { vcpus: 4, memory: 8192, disk: 100, local_context_data: { role: 'web' } });
    expect(Object.keys(v)).toEqual([
      'id', 'display', 'url', 'name', 'status', 'site', 'location', 'cluster', 'role', 'tenant', 'platform', 'primary_ip', 'primary_ip4', 'primary_ip6', 'vcpus', 'memory', 'disk',
      'comments', 'local_context_data', 'local_context_schema', 'config_context', 'created', 'last_updated', 'tags', 'notes_url', 'custom_fields',
      'computed_fields', 'relationships',
    ]);
    expect(v.site).toEqual({ id: s.id, display: 'VM site', url: s.url, name: 'VM site', slug: s.slug });
    expect(v).toMatchObject({ vcpus: 4, memory: 8192, disk: 100, config_context: {}, local_context_data: { role: 'web' } });
    const moved = await app.patch(`/api/virtualization/clusters/${c.id}/`, { site: null });
    expect(moved.status).toBe(200);
    expect((await app.get(`/api/virtualization/virtual-machines/${v.id}/`)).body.site).toBeNull();
    const withSite = await app.patch(`/api/virtualization/virtual-machines/${v.id}/`, { site: s.id, comments: 'c' });
    expect(withSite.body.site).toBeNull();
    const excluded = await app.get(`/api/virtualization/virtual-machines/?id=${v.id}&exclude=config_context`);
    expect('config_context' in excluded.body.results[0]).toBe(false);
    const brief = await app.patch(`/api/virtualization/virtual-machines/${v.id}/?brief=1`, { vcpus: 2 });
    expect(brief.body).toEqual({ id: v.id, display: 'web01', url: v.url, name: 'web01' });
    const bad = await app.post('/api/virtualization/virtual-machines/', { name: 'big', cluster: c.id, status: 'active', vcpus: 32768, memory: -1, local_context_data: 'x' });
    expect(bad.body).toEqual({
      vcpus: ['Ensure this value is less than or equal to 32767.'],
      memory: ['Ensure this value is greater than or equal to 0.'],
      local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'],
    });
  });

  test('names are unique per cluster and tenant, also without a tenant', async () => {
    const c = await cluster();
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'VM tenant' }));
    await vm(c, 'db01');
    const dup = await app.post('/api/virtualization/virtual-machines/', { name: 'db01', cluster: c.id, status: 'active' });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ name: ['A virtual machine with this name already exists in the assigned cluster.'] });
    await vm(c, 'db01', { tenant: tenant.id });
    const dupTenant = await app.post('/api/virtualization/virtual-machines/', { name: 'db01', cluster: c.id, status: 'active', tenant: tenant.id });
    expect(dupTenant.body).toEqual({ non_field_errors: ['The fields cluster, tenant, name must make a unique set.'] });
    await vm(await cluster(), 'db01');
  });

  test('only roles offered for VMs; statuses of VMs', async () => {
    const c = await cluster();
    const vmRole = await created(await app.post('/api/dcim/device-roles/', { name: 'Application' }));
    const hwRole = await created(await app.post('/api/dcim/device-roles/', { name: 'Router', vm_role: false }));
    const ok = await vm(c, 'app01', { role: { slug: 'application' } });
    expect(ok.role).toEqual({ id: vmRole.id, display: 'Application', url: vmRole.url, name: 'Application', slug: 'application' });
    const res = await app.post('/api/virtualization/virtual-machines/', { name: 'rtr01', cluster: c.id, status: 'active', role: hwRole.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ role: [`device role instance with id UUID('${hwRole.id}') does not exist.`] });
    const byName = await app.post('/api/virtualization/virtual-machines/', { name: 'rtr01', cluster: c.id, status: 'active', role: { name: 'Router' } });
    expect(byName.body).toEqual({ role: [`device role instance with id UUID('${hwRole.id}') does not exist.`] });
    const staged = await vm(c, 'stage01', { status: 'staged' });
    expect(staged.status.value).toBe('staged');
    const inventory = await app.post('/api/virtualization/virtual-machines/', { name: 'inv', cluster: c.id, status: 'inventory' });
    expect(inventory.body).toEqual({ status: ['Object with slug=inventory does not exist.'] });
    expect((await app.get(`/api/dcim/device-roles/${vmRole.id}/`)).body.virtualmachine_count).toBe(1);
    expect((await app.delete(`/api/dcim/device-roles/${vmRole.id}/`)).status).toBe(409);
  });

  test('filters named by the catalogue', async () => {
    const region = await created(await app.post('/api/dcim/regions/', { name: 'VM region' }));
    const s = await created(await app.post('/api/dcim/sites/', { name: 'VM filter site', status: 'active', region: region.id }));
    const group = await created(await app.post('/api/virtualization/cluster-groups/', { name: 'VM filter group' }));
    const c1 = await cluster({ site: s.id, group: group.id });
    const c2 = await cluster();
    const platform = await created(await app.post('/api/dcim/platforms/', { name: 'VM filter OS' }));
    const a = await vm(c1, 'f-a', { platform: platform.id });
    await vm(c2, 'f-b', { local_context_data: {} });
    await created(await app.post('/api/virtualization/interfaces/', { virtual_machine: a.id, name: 'eth0', mac_address: '52:54:00:00:00:01' }));
    const both = `cluster_id=${c1.id}&cluster_id=${c2.id}`;
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}`))).toEqual(['f-a', 'f-b']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?cluster=${c1.id}&cluster=${c2.id}`))).toEqual(['f-b']);
    expect((await app.get('/api/virtualization/virtual-machines/?cluster=Cluster')).status).toBe(400);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}&cluster__n=${c1.id}`))).toEqual(['f-b']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?site=${s.slug}`))).toEqual(['f-a']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?site_id=${s.id}`))).toEqual(['f-a']);
    expect(names(await app.get('/api/virtualization/virtual-machines/?region=vm-region'))).toEqual(['f-a']);
    expect(names(await app.get('/api/virtualization/virtual-machines/?cluster_group=vm-filter-group'))).toEqual(['f-a']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}&cluster_type=${c2.type.slug}`))).toEqual(['f-b']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}&cluster_type_id=${c1.type.id}`))).toEqual(['f-a']);
    expect(names(await app.get('/api/virtualization/virtual-machines/?platform=vm-filter-os'))).toEqual(['f-a']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}&mac_address=525400000001`))).toEqual(['f-a']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}&has_interfaces=false`))).toEqual(['f-b']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}&interfaces=eth0`))).toEqual(['f-a']);
    expect(names(await app.get(`/api/virtualization/virtual-machines/?${both}&local_context_data=true`))).toEqual(['f-b']);
    // Deleting the platform clears it on the VM.
    expect((await app.delete(`/api/dcim/platforms/${platform.id}/`)).status).toBe(204);
    expect((await app.get(`/api/virtualization/virtual-machines/${a.id}/`)).body.platform).toBeNull();
  });
});

describe('virtualization.vminterface', () => {
  test('no change-log dates; status from API 1.4; updates keep the status', async () => {
    const v = await vm(await cluster(), 'if-vm');
    const i = await created(await app.post('/api/virtualization/interfaces/', { virtual_machine: v.id, name: 'eth0', mtu: 1500, mode: 'access' }));
    expect(Object.keys(i)).toEqual([
      'id', 'display', 'url', 'virtual_machine', 'name', 'enabled', 'parent_interface', 'bridge', 'mtu', 'mac_address',
      'description', 'mode', 'untagged_vlan', 'tagged_vlans', 'tags', 'notes_url', 'custom_fields',
    ]);
    expect(i.mode).toEqual({ value: 'access', label: 'Access' });
    const v14 = await app.get(`/api/virtualization/interfaces/${i.id}/?api_version=1.4`);
    expect(v14.body.status).toEqual({ value: 'active', label: 'Active' });
    expect(Object.keys(v14.body).indexOf('status')).toBe(Object.keys(v14.body).indexOf('enabled') + 1);
    const missing = await app.post('/api/virtualization/interfaces/?api_version=1.5', { virtual_machine: v.id, name: 'eth1' });
    expect(missing.body).toEqual({ status: ['This field is required.'] });
    const maint = await created(await app.post('/api/virtualization/interfaces/?api_version=1.5', { virtual_machine: v.id, name: 'eth1', status: 'maintenance' }));
    await app.put(`/api/virtualization/interfaces/${maint.id}/`, { virtual_machine: v.id, name: 'eth1', description: 'put at 1.2' });
    expect((await app.get(`/api/virtualization/interfaces/${maint.id}/?api_version=1.6`)).body).toMatchObject({ status: { value: 'maintenance' }, description: 'put at 1.2' });
    expect((await app.get(`/api/virtualization/interfaces/${i.id}/?brief=1`)).body).toEqual({
      id: i.id, display: 'eth0', url: i.url, virtual_machine: { id: v.id, display: 'if-vm', url: v.url, name: 'if-vm' }, name: 'eth0',
    });
    const dup = await app.post('/api/virtualization/interfaces/', { virtual_machine: v.id, name: 'eth0' });
    expect(dup.body).toEqual({ non_field_errors: ['The fields virtual_machine, name must make a unique set.'] });
    const bad = await app.post('/api/virtualization/interfaces/', { virtual_machine: v.id, name: 'eth9', mac_address: 'nope', mtu: 70000 });
    expect(bad.body).toEqual({ mtu: ['Ensure this value is less than or equal to 65536.'], mac_address: ['Invalid MAC address format: nope'] });
  });

  test('parents and bridges, natural order, filters; VM delete cascades', async () => {
    const c = await cluster();
    const v = await vm(c, 'tree-vm');
    const other = await vm(c, 'tree-other');
    const make = async (vmId: string, name: string, body: Obj = {}) =>
      created(await app.post('/api/virtualization/interfaces/', { virtual_machine: vmId, name, ...body }));
    const eth10 = await make(v.id, 'eth10');
    const eth2 = await make(v.id, 'eth2', { mac_address: '52:54:00:aa:bb:cc' });
    const vlan = await make(v.id, 'eth2.100', { parent_interface: eth2.id });
    const br = await make(v.id, 'br0', { bridge: null });
    await app.patch(`/api/virtualization/interfaces/${eth10.id}/`, { bridge: br.id });
    // 1.6 does not require parents and bridges to belong to the same VM.
    const cross = await make(other.id, 'eth0', { parent_interface: eth10.id });
    expect(cross.parent_interface.id).toBe(eth10.id);
    expect(names(await app.get(`/api/virtualization/interfaces/?virtual_machine_id=${v.id}`))).toEqual(['br0', 'eth2', 'eth2.100', 'eth10']);
    expect(names(await app.get('/api/virtualization/interfaces/?virtual_machine=tree-vm&has_child_interfaces=true'))).toEqual(['eth2', 'eth10']);
    expect(names(await app.get(`/api/virtualization/interfaces/?virtual_machine_id=${v.id}&has_bridged_interfaces=true`))).toEqual(['br0']);
    expect(names(await app.get(`/api/virtualization/interfaces/?bridge=${br.id}`))).toEqual(['eth10']);
    expect(names(await app.get(`/api/virtualization/interfaces/?cluster=${c.name}&mac_address__ie=52:54:00:AA:BB:CC`))).toEqual(['eth2']);
    expect((await app.get(`/api/virtualization/interfaces/?cluster_id=${c.id}`)).body.count).toBe(5);
    expect(names(await app.get(`/api/virtualization/interfaces/?child_interfaces=${vlan.id}`))).toEqual(['eth2']);
    expect((await app.delete(`/api/virtualization/virtual-machines/${v.id}/`)).status).toBe(204);
    for (const i of [eth10, eth2, vlan, br, cross]) expect((await app.get(`/api/virtualization/interfaces/${i.id}/`)).status).toBe(404);
  });
});
