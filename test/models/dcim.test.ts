/**
 * The special rules of the device models, as the model catalogue gives them: manufacturers, device
 * types, roles, platforms, devices and their interfaces.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

const names = (res: { status: number; body: any }): string[] => {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.results.map((r: { name: string }) => r.name);
};

let seq = 0;
/** A site, a role and a device type of a fresh manufacturer, for devices of one test. */
async function fixtures(prefix: string): Promise<{ site: Obj; role: Obj; type: Obj; manufacturer: Obj }> {
  seq += 1;
  const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: `${prefix} vendor ${seq}` }));
  const type = await created(await app.post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `${prefix} model ${seq}` }));
  const role = await created(await app.post('/api/dcim/device-roles/', { name: `${prefix} role ${seq}` }));
  const site = await created(await app.post('/api/dcim/sites/', { name: `${prefix} site ${seq}`, status: 'active' }));
  return { site, role, type, manufacturer };
}

async function device(f: { site: Obj; role: Obj; type: Obj }, body: Obj = {}): Promise<Obj> {
  return created(await app.post('/api/dcim/devices/', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', ...body }));
}

async function iface(dev: Obj, name: string, body: Obj = {}): Promise<Obj> {
  return created(await app.post('/api/dcim/interfaces/', { device: dev.id, name, type: '1000base-t', ...body }));
}

describe('dcim.manufacturer', () => {
  test('counts, brief form, reverse filters and protection by device types', async () => {
    const m = await created(await app.post('/api/dcim/manufacturers/', { name: 'Acme Networks' }));
    expect(m.slug).toBe('acme-networks');
    await created(await app.post('/api/dcim/device-types/', { manufacturer: { slug: 'acme-networks' }, model: 'X1' }));
    await created(await app.post('/api/dcim/platforms/', { name: 'AcmeOS', manufacturer: m.id }));
    await created(await app.post('/api/dcim/manufacturers/', { name: 'Bare Vendor' }));
    const detail = await app.get(`/api/dcim/manufacturers/${m.id}/`);
    expect(detail.body).toMatchObject({ devicetype_count: 1, platform_count: 1 });
    const brief = await app.get(`/api/dcim/manufacturers/${m.id}/?brief=1`);
    expect(brief.body).toEqual({ id: m.id, display: 'Acme Networks', url: m.url, name: 'Acme Networks', slug: 'acme-networks', devicetype_count: 1 });
    expect(names(await app.get('/api/dcim/manufacturers/?has_device_types=true&name__isw=a'))).toEqual(['Acme Networks']);
    expect(names(await app.get('/api/dcim/manufacturers/?has_platforms=false&name__isw=b'))).toEqual(['Bare Vendor']);
    expect(names(await app.get('/api/dcim/manufacturers/?platforms=acmeos'))).toEqual(['Acme Networks']);
    const res = await app.delete(`/api/dcim/manufacturers/${m.id}/`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/^Unable to delete object\. 2 dependent objects were found: /);
  });
});

describe('dcim.devicetype', () => {
  test('display, slug from model unique only per manufacturer, unique sets', async () => {
    const a = await created(await app.post('/api/dcim/manufacturers/', { name: 'Alpha' }));
    const b = await created(await app.post('/api/dcim/manufacturers/', { name: 'Beta' }));
    const t1 = await created(await app.post('/api/dcim/device-types/', { manufacturer: a.id, model: 'Edge 100' }));
    const t2 = await created(await app.post('/api/dcim/device-types/', { manufacturer: b.id, model: 'Edge 100' }));
    expect(t1).toMatchObject({ display: 'Alpha Edge 100', slug: 'edge-100', u_height: 1, is_full_depth: true, subdevice_role: null, device_count: 0 });
    expect(t2.slug).toBe('edge-100');
    const dupModel = await app.post('/api/dcim/device-types/', { manufacturer: a.id, model: 'Edge 100', slug: 'other' });
    expect(dupModel.status).toBe(400);
    expect(dupModel.body).toEqual({ non_field_errors: ['The fields manufacturer, model must make a unique set.'] });
    const dupSlug = await app.post('/api/dcim/device-types/', { manufacturer: a.id, model: 'Edge 200', slug: 'edge-100' });
    expect(dupSlug.body).toEqual({ non_field_errors: ['The fields manufacturer, slug must make a unique set.'] });
    expect(Object.keys((await app.get(`/api/dcim/device-types/${t1.id}/?brief=1`)).body)).toEqual(['id', 'display', 'url', 'manufacturer', 'model', 'slug', 'device_count']);
  });

  test('subdevice role: choices, child types must be 0U, single-value filter', async () => {
    const m = await created(await app.post('/api/dcim/manufacturers/', { name: 'Chassis Co' }));
    const child = await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: 'Blade', subdevice_role: 'child' });
    expect(child.status).toBe(400);
    expect(child.body).toEqual({ u_height: ['Child device types must be 0U.'] });
    await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: 'Blade', subdevice_role: 'child', u_height: 0 }));
    const parent = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: 'Chassis', subdevice_role: 'parent', u_height: 10 }));
    expect(parent.subdevice_role).toEqual({ value: 'parent', label: 'Parent' });
    const bad = await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: 'Odd', subdevice_role: 'sibling' });
    expect(bad.body).toEqual({ subdevice_role: ['sibling is not a valid choice.', 'Valid choices are: parent, child.'] });
    const range = await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: 'Tall', u_height: 32768 });
    expect(range.body).toEqual({ u_height: ['Ensure this value is less than or equal to 32767.'] });
    const models = (res: { body: any }) => res.body.results.map((r: { model: string }) => r.model);
    expect(models(await app.get('/api/dcim/device-types/?manufacturer=chassis-co&subdevice_role=child&subdevice_role=parent'))).toEqual(['Chassis']);
    expect(models(await app.get(`/api/dcim/device-types/?manufacturer_id=${m.id}&subdevice_role__n=parent`))).toEqual(['Blade']);
    expect(models(await app.get('/api/dcim/device-types/?q=chassis co'))).toEqual(['Blade', 'Chassis']);
  });

  test('ordered by manufacturer name, then model; in use: protected', async () => {
    const z = await created(await app.post('/api/dcim/manufacturers/', { name: 'Zulu Order' }));
    const y = await created(await app.post('/api/dcim/manufacturers/', { name: 'Yankee Order' }));
    await created(await app.post('/api/dcim/device-types/', { manufacturer: z.id, model: 'A' }));
    await created(await app.post('/api/dcim/device-types/', { manufacturer: y.id, model: 'B' }));
    await created(await app.post('/api/dcim/device-types/', { manufacturer: y.id, model: 'A' }));
    const list = await app.get('/api/dcim/device-types/?q=order');
    expect(list.body.results.map((r: { display: string }) => r.display)).toEqual(['Yankee Order A', 'Yankee Order B', 'Zulu Order A']);
    const f = await fixtures('protect');
    const d = await device(f, { name: 'protector' });
    const res = await app.delete(`/api/dcim/device-types/${f.type.id}/`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: protector (${d.id})` });
    expect(names(await app.get(`/api/dcim/devices/?device_type_id=${f.type.id}`))).toEqual(['protector']);
    expect((await app.get(`/api/dcim/device-types/?has_instances=true&id=${f.type.id}`)).body.count).toBe(1);
    expect((await app.get(`/api/dcim/device-types/?instances=${d.id}`)).body.results[0].id).toBe(f.type.id);
  });
});

describe('dcim.devicerole and dcim.platform', () => {
  test('role defaults and colour pattern; counts of devices and VMs', async () => {
    const role = await created(await app.post('/api/dcim/device-roles/', { name: 'Spine' }));
    expect(role).toMatchObject({ slug: 'spine', color: '9e9e9e', vm_role: true, description: '', device_count: 0, virtualmachine_count: 0 });
    const bad = await app.post('/api/dcim/device-roles/', { name: 'Leaf', color: '#FF0000' });
    expect(bad.body).toEqual({ color: ['Ensure this field has no more than 6 characters.', 'Enter a valid hexadecimal RGB color code.'] });
    expect(Object.keys((await app.get(`/api/dcim/device-roles/${role.id}/?brief=1`)).body)).toEqual([
      'id', 'display', 'url', 'name', 'slug', 'device_count', 'virtualmachine_count',
    ]);
  });

  test('network driver mappings come from the normalised driver; napalm_args filter', async () => {
    const eos = await created(await app.post('/api/dcim/platforms/', { name: 'EOS', network_driver: 'arista_eos', napalm_args: { transport: 'https' } }));
    expect(eos.network_driver_mappings).toEqual({
      ansible: 'arista.eos.eos',
      hier_config: 'eos',
      napalm: 'eos',
      netmiko: 'arista_eos',
      ntc_templates: 'arista_eos',
      pyntc: 'arista_eos_eapi',
      scrapli: 'arista_eos',
    });
    expect(Object.keys(eos)).toEqual([
      'id', 'display', 'url', 'name', 'slug', 'manufacturer', 'napalm_driver', 'napalm_args', 'network_driver',
      'network_driver_mappings', 'description', 'device_count', 'virtualmachine_count', 'created', 'last_updated', 'notes_url', 'custom_fields',
      'computed_fields', 'relationships',
    ]);
    const none = await created(await app.post('/api/dcim/platforms/', { name: 'Homebrew', network_driver: 'homebrew_os' }));
    expect(none.network_driver_mappings).toEqual({});
    const changed = await app.patch(`/api/dcim/platforms/${none.id}/`, { network_driver: 'cisco_ios', network_driver_mappings: { x: 'y' } });
    expect(changed.body.network_driver_mappings).toMatchObject({ napalm: 'ios', pyats: 'iosxe', netmiko: 'cisco_ios' });
    expect(names(await app.get('/api/dcim/platforms/?napalm_args=HTTPS'))).toEqual(['EOS']);
    expect(names(await app.get('/api/dcim/platforms/?network_driver__ic=cisco'))).toEqual(['Homebrew']);
  });

  test('a device platform limited to another manufacturer is refused; deleting it clears devices', async () => {
    const f = await fixtures('platform');
    const other = await created(await app.post('/api/dcim/manufacturers/', { name: 'Other Vendor' }));
    const limited = await created(await app.post('/api/dcim/platforms/', { name: 'Limited OS', manufacturer: other.id }));
    const res = await app.post('/api/dcim/devices/', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', platform: limited.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      platform: [`The assigned platform is limited to Other Vendor device types, but this device's type belongs to ${f.manufacturer.name}.`],
    });
    const open = await created(await app.post('/api/dcim/platforms/', { name: 'Open OS' }));
    const d = await device(f, { name: 'platformed', platform: { slug: 'open-os' } });
    expect(d.platform).toMatchObject({ id: open.id, name: 'Open OS', slug: 'open-os' });
    expect(names(await app.get('/api/dcim/devices/?platform=open-os'))).toEqual(['platformed']);
    expect((await app.get(`/api/dcim/platforms/${open.id}/`)).body.device_count).toBe(1);
    expect((await app.delete(`/api/dcim/platforms/${open.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/devices/${d.id}/`)).body.platform).toBeNull();
  });
});

describe('dcim.device', () => {
  test('full representation in catalogue order; unnamed devices show make, model and id', async () => {
    const f = await fixtures('repr');
    const d = await device(f, { name: 'repr1', asset_tag: 'AT-1', local_context_data: { ntp: { servers: ['10.0.0.1'] } } });
    expect(Object.keys(d)).toEqual([
      'id', 'display', 'url', 'name', 'device_type', 'device_role', 'tenant', 'platform', 'serial', 'asset_tag', 'site', 'location', 'rack', 'position', 'face', 'parent_device', 'status', 'primary_ip', 'primary_ip4', 'primary_ip6',
      'cluster', 'virtual_chassis', 'vc_position', 'vc_priority', 'device_redundancy_group', 'device_redundancy_group_priority', 'comments', 'local_context_schema', 'local_context_data', 'config_context', 'created', 'last_updated', 'tags', 'notes_url', 'custom_fields',
      'computed_fields', 'relationships',
    ]);
    expect(d).toMatchObject({ display: 'repr1', serial: '', asset_tag: 'AT-1', local_context_schema: null, local_context_data: { ntp: { servers: ['10.0.0.1'] } } });
    // With no config context, the rendered context is the local data alone.
    expect(d.config_context).toEqual({ ntp: { servers: ['10.0.0.1'] } });
    expect(d.device_type).toEqual({
      id: f.type.id, display: f.type.display, url: f.type.url,
      manufacturer: { id: f.manufacturer.id, display: f.manufacturer.name, url: f.manufacturer.url, name: f.manufacturer.name, slug: f.manufacturer.slug },
      model: f.type.model, slug: f.type.slug,
    });
    const unnamed = await device(f);
    expect(unnamed.name).toBeNull();
    expect(unnamed.display).toBe(`${f.manufacturer.name} ${f.type.model} (${unnamed.id})`);
    expect((await app.get(`/api/dcim/devices/${d.id}/?brief=1`)).body).toEqual({ id: d.id, display: 'repr1', url: d.url, name: 'repr1' });
  });

  test('names are unique per site and tenant, also without a tenant; asset tags are unique', async () => {
    const f = await fixtures('unique');
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'Unique tenant' }));
    await device(f, { name: 'dup' });
    const noTenant = await app.post('/api/dcim/devices/', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', name: 'dup' });
    expect(noTenant.status).toBe(400);
    expect(noTenant.body).toEqual({ name: ['A device with this name already exists.'] });
    await device(f, { name: 'dup', tenant: tenant.id });
    const withTenant = await app.post('/api/dcim/devices/', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', name: 'dup', tenant: tenant.id });
    expect(withTenant.body).toEqual({ non_field_errors: ['The fields site, tenant, name must make a unique set.'] });
    const elsewhere = await fixtures('unique');
    await device(elsewhere, { name: 'dup' });
    await device(f);
    await device(f);
    const renamed = await device(f, { name: 'other' });
    const clash = await app.patch(`/api/dcim/devices/${renamed.id}/`, { name: 'dup' });
    expect(clash.body).toEqual({ name: ['A device with this name already exists.'] });
    expect((await app.patch(`/api/dcim/devices/${renamed.id}/`, { name: 'other', serial: 'S' })).status).toBe(200);
    await device(f, { asset_tag: 'TAG-U' });
    const tag = await app.post('/api/dcim/devices/', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', asset_tag: 'TAG-U' });
    expect(tag.body).toEqual({ asset_tag: ['device with this Asset tag already exists.'] });
  });

  test('statuses of devices; required fields', async () => {
    const f = await fixtures('status');
    const inventory = await device(f, { name: 'stock', status: 'inventory' });
    expect(inventory.status).toEqual({ value: 'inventory', label: 'Inventory' });
    const res = await app.post('/api/dcim/devices/', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'maintenance' });
    expect(res.body).toEqual({ status: ['Object with slug=maintenance does not exist.'] });
    const missing = await app.post('/api/dcim/devices/', {});
    expect(missing.body).toEqual({
      device_type: ['This field is required.'], device_role: ['This field is required.'], site: ['This field is required.'], status: ['This field is required.'],
    });
    const options = await app.options('/api/dcim/devices/');
    expect(options.body.actions.POST.status.choices.map((c: { value: string }) => c.value)).toEqual([
      'active', 'decommissioning', 'failed', 'inventory', 'offline', 'planned', 'staged',
    ]);
    expect(options.body.actions.POST.config_context).toMatchObject({ read_only: true });
  });

  test('config_context: present by default, removed by exclude, which only devices and VMs accept', async () => {
    const f = await fixtures('context');
    const d = await device(f, { name: 'ctx' });
    expect((await app.get(`/api/dcim/devices/${d.id}/`)).body.config_context).toEqual({});
    const detail = await app.get(`/api/dcim/devices/${d.id}/?exclude=config_context`);
    expect(detail.status).toBe(200);
    expect('config_context' in detail.body).toBe(false);
    const list = await app.get(`/api/dcim/devices/?id=${d.id}&exclude=foo,config_context`);
    expect(list.body.results).toHaveLength(1);
    expect('config_context' in list.body.results[0]).toBe(false);
    const other = await app.get(`/api/dcim/devices/${d.id}/?exclude=comments`);
    expect(other.body.config_context).toEqual({});
    // `exclude` is never a filter (the filtering rules name it with limit, offset, brief…).
    const onSites = await app.get('/api/dcim/sites/?exclude=config_context');
    expect(onSites.status).toBe(200);
    const write = await app.patch(`/api/dcim/devices/${d.id}/?exclude=config_context`, { serial: 'X' });
    expect(write.status).toBe(200);
    expect('config_context' in write.body).toBe(false);
    expect('config_context' in (await app.get(`/api/dcim/devices/${d.id}/?brief=1`)).body).toBe(false);
  });

  test('brief applies to write responses on devices', async () => {
    const f = await fixtures('brief');
    const res = await app.post('/api/dcim/devices/?brief=1', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', name: 'briefly' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: res.body.id, display: 'briefly', url: res.body.url, name: 'briefly' });
    expect(res.headers.location).toBe(res.body.url);
    const patched = await app.patch(`/api/dcim/devices/${res.body.id}/?brief=true`, { serial: 'B' });
    expect(Object.keys(patched.body)).toEqual(['id', 'display', 'url', 'name']);
    const site = await app.post('/api/dcim/sites/?brief=1', { name: 'Brief site', status: 'active' });
    expect(site.body.status).toEqual({ value: 'active', label: 'Active' });
  });

  test('local context data must be a JSON object or null', async () => {
    const f = await fixtures('local');
    const res = await app.post('/api/dcim/devices/', { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', local_context_data: [1, 2] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'] });
    const d = await device(f, { name: 'local', local_context_data: { a: 1 } });
    await device(f, { name: 'nolocal' });
    expect(names(await app.get(`/api/dcim/devices/?site_id=${f.site.id}&local_context_data=true`))).toEqual(['local']);
    expect(names(await app.get(`/api/dcim/devices/?site_id=${f.site.id}&local_context_data=false`))).toEqual(['nolocal']);
    const cleared = await app.patch(`/api/dcim/devices/${d.id}/`, { local_context_data: null });
    expect(cleared.body.local_context_data).toBeNull();
  });

  test('natural name order, unnamed devices first', async () => {
    const f = await fixtures('order');
    for (const name of ['sw10', 'sw9', 'sw1', null]) await device(f, name ? { name } : {});
    expect(names(await app.get(`/api/dcim/devices/?site_id=${f.site.id}`))).toEqual([null, 'sw1', 'sw9', 'sw10']);
  });

  test('filters named by the catalogue', async () => {
    const region = await created(await app.post('/api/dcim/regions/', { name: 'Filter region' }));
    const sub = await created(await app.post('/api/dcim/regions/', { name: 'Filter subregion', parent: region.id }));
    const f = await fixtures('filters');
    await app.patch(`/api/dcim/sites/${f.site.id}/`, { region: sub.id });
    await app.patch(`/api/dcim/device-types/${f.type.id}/`, { is_full_depth: false });
    const a = await device(f, { name: 'filt-a', serial: 'ABC123', asset_tag: 'FA' });
    const b = await device(f, { name: 'filt-b' });
    await iface(a, 'eth0', { mac_address: '00:aa:bb:cc:dd:01' });
    await iface(b, 'eth0');
    const site = `site_id=${f.site.id}`;
    expect(names(await app.get(`/api/dcim/devices/?role=${f.role.slug}`))).toEqual(['filt-a', 'filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?role_id=${f.role.id}&name=filt-b`))).toEqual(['filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?manufacturer=${f.manufacturer.slug}&name__ic=a`))).toEqual(['filt-a']);
    expect(names(await app.get(`/api/dcim/devices/?model=${f.type.slug}&manufacturer_id=${f.manufacturer.id}`))).toEqual(['filt-a', 'filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?region=filter-region`))).toEqual(['filt-a', 'filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?region_id=${sub.id}&name=filt-a`))).toEqual(['filt-a']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&serial=abc123`))).toEqual(['filt-a']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&mac_address=00-AA-BB-CC-DD-01`))).toEqual(['filt-a']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&mac_address__n=00:AA:BB:CC:DD:01`))).toEqual(['filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&mac_address__ic=bb:cc`))).toEqual(['filt-a']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&is_full_depth=false`))).toEqual(['filt-a', 'filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&is_full_depth=true`))).toEqual([]);
    expect(names(await app.get(`/api/dcim/devices/?${site}&q=${f.manufacturer.name}`))).toEqual(['filt-a', 'filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&q=abc`))).toEqual(['filt-a']);
    expect(names(await app.get(`/api/dcim/devices/?site=${f.site.slug}&has_interfaces=true`))).toEqual(['filt-a', 'filt-b']);
    expect(names(await app.get(`/api/dcim/devices/?${site}&interfaces=false`))).toEqual([]);
    expect((await app.get(`/api/dcim/sites/?devices=filt-a`)).body.results.map((s: Obj) => s.id)).toEqual([f.site.id]);
    for (const unknown of ['device_type', 'cluster', 'comments', 'serial__ic', 'rack']) {
      const res = await app.get(`/api/dcim/devices/?${unknown}=x`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [unknown]: ['Unknown filter field'] });
    }
  });

  test('deleting a device deletes its interfaces, LAG members included', async () => {
    const f = await fixtures('cascade');
    const d = await device(f, { name: 'doomed' });
    const lag = await iface(d, 'bond0', { type: 'lag' });
    const member = await iface(d, 'eth0', { lag: lag.id });
    const vif = await iface(d, 'eth0.10', { type: 'virtual', parent_interface: member.id });
    expect((await app.delete(`/api/dcim/devices/${d.id}/`)).status).toBe(204);
    for (const i of [lag, member, vif]) expect((await app.get(`/api/dcim/interfaces/${i.id}/`)).status).toBe(404);
  });
});

describe('dcim.interface', () => {
  let f: Awaited<ReturnType<typeof fixtures>>;
  let d: Obj;
  let other: Obj;
  beforeAll(async () => {
    f = await fixtures('iface');
    d = await device(f, { name: 'if-host' });
    other = await device(f, { name: 'if-other' });
  });

  test('status exists from API 1.4; before, creates get active', async () => {
    const old = await iface(d, 'old0');
    expect('status' in old).toBe(false);
    expect((await app.get(`/api/dcim/interfaces/${old.id}/?api_version=1.4`)).body.status).toEqual({ value: 'active', label: 'Active' });
    const ignored = await iface(d, 'old1', { status: 'planned' });
    expect((await app.get(`/api/dcim/interfaces/${ignored.id}/?api_version=1.3`)).body.status).toBeUndefined();
    expect((await app.get(`/api/dcim/interfaces/${ignored.id}/?api_version=1.6`)).body.status.value).toBe('active');
    const required = await app.post('/api/dcim/interfaces/?api_version=1.4', { device: d.id, name: 'new0', type: 'virtual' });
    expect(required.status).toBe(400);
    expect(required.body).toEqual({ status: ['This field is required.'] });
    const planned = await created(await app.post('/api/dcim/interfaces/?api_version=1.4', { device: d.id, name: 'new0', type: 'virtual', status: 'planned' }));
    expect(planned.status).toEqual({ value: 'planned', label: 'Planned' });
    const staged = await app.post('/api/dcim/interfaces/?api_version=1.4', { device: d.id, name: 'new1', type: 'virtual', status: 'staged' });
    expect(staged.body).toEqual({ status: ['Object with slug=staged does not exist.'] });
    // An update at 1.2 leaves the status alone.
    await app.patch(`/api/dcim/interfaces/${planned.id}/`, { description: 'x' });
    expect((await app.get(`/api/dcim/interfaces/${planned.id}/?api_version=1.4`)).body.status.value).toBe('planned');
    expect(names(await app.get(`/api/dcim/interfaces/?device_id=${d.id}&status=planned`))).toEqual(['new0']);
  });

  test('representation, display with label, type and mode choices, MTU bounds', async () => {
    const i = await iface(d, 'xe-0/0/0', { label: 'uplink', type: '10gbase-x-sfpp', mode: 'tagged-all', mtu: 9216, mgmt_only: true });
    expect(Object.keys(i)).toEqual([
      'id', 'display', 'url', 'device', 'name', 'label', 'type', 'enabled', 'parent_interface', 'bridge', 'lag', 'mtu',
      'mac_address', 'mgmt_only', 'description', 'mode', 'untagged_vlan', 'tagged_vlans', 'cable', 'cable_peer', 'cable_peer_type',
      'connected_endpoint', 'connected_endpoint_type', 'connected_endpoint_reachable', 'count_ipaddresses', 'created', 'last_updated', 'tags', 'notes_url', 'custom_fields',
      'computed_fields', 'relationships',
    ]);
    expect(i).toMatchObject({
      display: 'xe-0/0/0 (uplink)', type: { value: '10gbase-x-sfpp', label: 'SFP+ (10GE)' }, mode: { value: 'tagged-all', label: 'Tagged (All)' }, enabled: true, mtu: 9216,
    });
    expect((await app.get(`/api/dcim/interfaces/${i.id}/?brief=1`)).body).toEqual({
      id: i.id, display: 'xe-0/0/0 (uplink)', url: i.url, device: { id: d.id, display: 'if-host', url: d.url, name: 'if-host' }, name: 'xe-0/0/0', cable: null,
    });
    const bad = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'bad', type: 'copper', mtu: 65537, mode: 'trunk' });
    expect(bad.status).toBe(400);
    expect(bad.body.type[0]).toBe('copper is not a valid choice.');
    expect(bad.body.mtu).toEqual(['Ensure this value is less than or equal to 65536.']);
    expect(bad.body.mode).toEqual(['trunk is not a valid choice.', 'Valid choices are: access, tagged, tagged-all.']);
    const zero = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'bad', type: 'other', mtu: 0 });
    expect(zero.body).toEqual({ mtu: ['Ensure this value is greater than or equal to 1.'] });
    const options = await app.options('/api/dcim/interfaces/');
    const types = options.body.actions.POST.type.choices as Array<{ value: string; display: string }>;
    expect(types).toHaveLength(106);
    expect(types[2]).toEqual({ value: 'lag', display: 'Link Aggregation Group (LAG)' });
    const dup = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'xe-0/0/0', type: 'other' });
    expect(dup.body).toEqual({ non_field_errors: ['The fields device, name must make a unique set.'] });
  });

  test('MAC addresses: any notation in, canonical out; blank is none; invalid refused', async () => {
    const notations: Array<[string, string]> = [
      ['00:1a:2b:3c:4d:5e', '00:1A:2B:3C:4D:5E'],
      ['00-1A-2B-3C-4D-5F', '00:1A:2B:3C:4D:5F'],
      ['001a.2b3c.4d60', '00:1A:2B:3C:4D:60'],
      ['001a2b3c4d61', '00:1A:2B:3C:4D:61'],
      ['1:2:3:4:5:6', '01:02:03:04:05:06'],
      [' 001a2b-3c4d62 ', '00:1A:2B:3C:4D:62'],
    ];
    for (const [i, [input, stored]] of notations.entries()) {
      const res = await iface(d, `mac${i}`, { mac_address: input });
      expect(res.mac_address).toBe(stored);
    }
    const blank = await iface(d, 'mac-blank', { mac_address: '' });
    expect(blank.mac_address).toBeNull();
    for (const input of ['00:1a:2b:3c:4d', 'zz:1a:2b:3c:4d:5e', '00:1a:2b:3c:4d:5e:', '00:1a-2b:3c:4d:5e']) {
      const res = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'mac-bad', type: 'other', mac_address: input });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ mac_address: [`Invalid MAC address format: ${input}`] });
    }
    const long = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'mac-bad', type: 'other', mac_address: '00:1a:2b:3c:4d:5e:6f:70' });
    expect(long.body).toEqual({ mac_address: ['Ensure this field has no more than 18 characters.'] });
    const host = `device_id=${d.id}`;
    expect(names(await app.get(`/api/dcim/interfaces/?${host}&mac_address=001A.2B3C.4D5E`))).toEqual(['mac0']);
    expect(names(await app.get(`/api/dcim/interfaces/?${host}&mac_address=not-a-mac`))).toEqual([]);
    expect(names(await app.get(`/api/dcim/interfaces/?${host}&mac_address__isw=00:1a:2b:3c:4d:6`))).toEqual(['mac2', 'mac3', 'mac5']);
    expect(names(await app.get(`/api/dcim/interfaces/?${host}&mac_address__ie=01:02:03:04:05:06`))).toEqual(['mac4']);
  });

  test('LAG rules', async () => {
    const bond = await iface(d, 'bond1', { type: 'lag' });
    const member = await iface(d, 'ge-1', { lag: bond.id });
    expect(member.lag).toEqual({ id: bond.id, display: 'bond1', url: bond.url, device: member.device, name: 'bond1', cable: null });
    const self = await app.patch(`/api/dcim/interfaces/${bond.id}/`, { lag: bond.id });
    expect(self.body).toEqual({ lag: ['A LAG interface cannot be its own parent.'] });
    const foreign = await app.post('/api/dcim/interfaces/', { device: other.id, name: 'ge-2', type: 'other', lag: bond.id });
    expect(foreign.body).toEqual({ lag: ['The selected LAG interface (bond1) belongs to a different device (if-host).'] });
    const virtual = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'v1', type: 'virtual', lag: bond.id });
    expect(virtual.body).toEqual({ lag: ['Virtual interfaces cannot have a parent LAG interface.'] });
    expect(names(await app.get(`/api/dcim/interfaces/?lag_id=${bond.id}`))).toEqual(['ge-1']);
    expect(names(await app.get(`/api/dcim/interfaces/?device_id=${d.id}&has_member_interfaces=true`))).toEqual(['bond1']);
    expect(names(await app.get(`/api/dcim/interfaces/?member_interfaces=${member.id}`))).toEqual(['bond1']);
    // Deleting the LAG releases its members.
    expect((await app.delete(`/api/dcim/interfaces/${bond.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/interfaces/${member.id}/`)).body.lag).toBeNull();
  });

  test('parent interface and bridge rules', async () => {
    const phys = await iface(d, 'et-1', { label: 'core' });
    const sub = await iface(d, 'et-1.100', { type: 'virtual', parent_interface: { device: { name: 'if-host' }, name: 'et-1' } });
    expect(sub.parent_interface.id).toBe(phys.id);
    const notVirtual = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'et-1.200', type: 'other', parent_interface: phys.id });
    expect(notVirtual.body).toEqual({ parent_interface: ['Only virtual interfaces may be assigned to a parent interface.'] });
    const ofVirtual = await app.post('/api/dcim/interfaces/', { device: d.id, name: 'et-1.100.5', type: 'virtual', parent_interface: sub.id });
    expect(ofVirtual.body).toEqual({ parent_interface: ['Virtual interfaces may not be parents of other interfaces.'] });
    const foreign = await app.post('/api/dcim/interfaces/', { device: other.id, name: 'v9', type: 'virtual', parent_interface: phys.id });
    expect(foreign.body).toEqual({ parent_interface: ['The selected parent interface (et-1 (core)) belongs to a different device (if-host).'] });
    const ownParent = await app.patch(`/api/dcim/interfaces/${sub.id}/`, { parent_interface: sub.id });
    expect(ownParent.body).toEqual({ parent_interface: ['An interface cannot be its own parent.'] });

    const br = await iface(d, 'br0', { type: 'bridge' });
    const bridged = await app.patch(`/api/dcim/interfaces/${phys.id}/`, { bridge: br.id });
    expect(bridged.body.bridge.id).toBe(br.id);
    const selfBridge = await app.patch(`/api/dcim/interfaces/${br.id}/`, { bridge: br.id });
    expect(selfBridge.body).toEqual({ bridge: ['An interface cannot be bridged to itself.'] });
    const otherBridge = await app.post('/api/dcim/interfaces/', { device: other.id, name: 'e5', type: 'other', bridge: br.id });
    expect(otherBridge.body).toEqual({ bridge: ['The selected bridge interface (br0) belongs to a different device (if-host).'] });
    expect(names(await app.get(`/api/dcim/interfaces/?device_id=${d.id}&has_bridged_interfaces=true`))).toEqual(['br0']);
    expect(names(await app.get(`/api/dcim/interfaces/?device_id=${d.id}&child_interfaces=${sub.id}`))).toEqual(['et-1']);
    expect(names(await app.get(`/api/dcim/interfaces/?parent_interface=${phys.id}`))).toEqual(['et-1.100']);

    // Deleting a bridge clears it; deleting a parent deletes its subinterfaces.
    expect((await app.delete(`/api/dcim/interfaces/${br.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/interfaces/${phys.id}/`)).body.bridge).toBeNull();
    expect((await app.delete(`/api/dcim/interfaces/${phys.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/interfaces/${sub.id}/`)).status).toBe(404);
  });

  test('ordered by device, then the interface-aware natural key', async () => {
    const host = await device(f, { name: 'order-host' });
    for (const name of ['Gi1/0/10', 'Gi1/0/2', 'Gi1/1/1', 'Gi2/0/1', 'eth10', 'eth2', 'Gi1/0/2.100', 'Gi1/0/2.20']) await iface(host, name);
    expect(names(await app.get(`/api/dcim/interfaces/?device_id=${host.id}`))).toEqual([
      'Gi1/0/2', 'Gi1/0/2.20', 'Gi1/0/2.100', 'Gi1/0/10', 'Gi1/1/1', 'Gi2/0/1', 'eth2', 'eth10',
    ]);
  });

  test('device, kind, site and related-interface filters', async () => {
    const a = await device(f, { name: 'kind-a' });
    const b = await device(f, { name: 'kind-b' });
    await iface(a, 'lo0', { type: 'virtual' });
    await iface(a, 'wlan0', { type: 'ieee802.11ac' });
    await iface(a, 'ge0');
    await iface(b, 'ge0');
    const aHost = `device_id=${a.id}`;
    expect(names(await app.get(`/api/dcim/interfaces/?${aHost}&kind=physical`))).toEqual(['ge0']);
    expect(names(await app.get(`/api/dcim/interfaces/?${aHost}&kind=Virtual`))).toEqual(['lo0']);
    expect(names(await app.get(`/api/dcim/interfaces/?${aHost}&kind=wireless`))).toEqual(['wlan0']);
    expect(names(await app.get(`/api/dcim/interfaces/?${aHost}&kind=quantum`))).toEqual([]);
    expect(names(await app.get(`/api/dcim/interfaces/?${aHost}&type=virtual&type=ieee802.11ac`))).toEqual(['lo0', 'wlan0']);
    expect(names(await app.get(`/api/dcim/interfaces/?${aHost}&type__n=virtual`))).toEqual(['ge0', 'wlan0']);
    expect((await app.get('/api/dcim/interfaces/?device=kind-a&device=kind-b')).body.count).toBe(4);
    expect((await app.get('/api/dcim/interfaces/?device=no-such-device')).body.count).toBe(0);
    expect((await app.get(`/api/dcim/interfaces/?device_with_common_vc=${b.id}`)).body.count).toBe(1);
    const byName = await app.get(`/api/dcim/interfaces/?device_id=${a.id}&device_id=${b.id}&name=ge0`);
    expect(byName.body.results.map((r: Obj) => r.device.name)).toEqual(['kind-a', 'kind-b']);
    expect((await app.get(`/api/dcim/interfaces/?site=${f.site.slug}&name=ge0&device=kind-b`)).body.count).toBe(1);
    expect((await app.get(`/api/dcim/interfaces/?site_id=${f.site.id}&kind=wireless`)).body.count).toBe(1);
    // Natural keys need not be unique: a name stands for every interface holding it.
    const ge0s = (await app.get(`/api/dcim/interfaces/?name=ge0&site_id=${f.site.id}`)).body.results as Obj[];
    await iface(a, 'ge0.1', { type: 'virtual', parent_interface: ge0s[0].id });
    await iface(b, 'ge0.1', { type: 'virtual', parent_interface: ge0s[1].id });
    expect((await app.get(`/api/dcim/interfaces/?site_id=${f.site.id}&parent_interface=ge0`)).body.count).toBe(2);
    const bad = await app.get('/api/dcim/interfaces/?device_id=not-a-uuid');
    expect(bad.status).toBe(400);
  });
});

describe('counts and filters on sites and tenants', () => {
  test('device, VM and cluster counts', async () => {
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'Counting tenant' }));
    const f = await fixtures('count');
    await device(f, { tenant: tenant.id });
    const type = await created(await app.post('/api/virtualization/cluster-types/', { name: 'Counting type' }));
    const cluster = await created(await app.post('/api/virtualization/clusters/', { name: 'Counting cluster', type: type.id, site: f.site.id, tenant: tenant.id }));
    await created(await app.post('/api/virtualization/virtual-machines/', { name: 'cvm1', cluster: cluster.id, status: 'active', tenant: tenant.id }));
    await created(await app.post('/api/virtualization/virtual-machines/', { name: 'cvm2', cluster: cluster.id, status: 'active' }));
    expect((await app.get(`/api/dcim/sites/${f.site.id}/`)).body).toMatchObject({ device_count: 1, virtualmachine_count: 2 });
    expect((await app.get(`/api/tenancy/tenants/${tenant.id}/`)).body).toMatchObject({ device_count: 1, site_count: 0, virtualmachine_count: 1, cluster_count: 1 });
    expect((await app.get(`/api/dcim/sites/?has_clusters=true&id=${f.site.id}`)).body.count).toBe(1);
    expect((await app.get(`/api/dcim/sites/?clusters=${cluster.id}`)).body.results[0].id).toBe(f.site.id);
  });
});
