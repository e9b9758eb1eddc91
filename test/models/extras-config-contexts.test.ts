/**
 * Config contexts and config-context schemas: the definitions, and `config_context` on devices
 * and virtual machines (matching per assignment, merge order and precedence, local context data,
 * exclude=config_context, cost of a page).
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

type Obj = Record<string, any>;
const CC = '/api/extras/config-contexts/';
const SCHEMAS = '/api/extras/config-context-schemas/';
const DEVICES = '/api/dcim/devices/';
const VMS = '/api/virtualization/virtual-machines/';

let seq = 0;
async function made(path: string, body: Obj): Promise<Obj> {
  const res = await app.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const context = (body: Obj) => made(CC, { name: `ctx ${++seq}`, ...body });

async function configOf(path: string, id: string): Promise<Obj> {
  const res = await app.get(`${path}${id}/`);
  expect(res.status).toBe(200);
  return res.body.config_context;
}

/** Deletes every config context so that each test starts from none. */
async function clearContexts(): Promise<void> {
  const list = await app.get(`${CC}?limit=0`);
  if (list.body.results.length) expect((await app.delete(CC, list.body.results.map((c: Obj) => ({ id: c.id })))).status).toBe(204);
}

/** A device whose every assignable attribute is its own object, returned with those objects. */
async function world() {
  const n = ++seq;
  const parentRegion = await made('/api/dcim/regions/', { name: `Continent ${n}` });
  const region = await made('/api/dcim/regions/', { name: `Country ${n}`, parent: parentRegion.id });
  const site = await made('/api/dcim/sites/', { name: `Site ${n}`, status: 'active', region: region.id });
  const parentTenantGroup = await made('/api/tenancy/tenant-groups/', { name: `Holding ${n}` });
  const tenantGroup = await made('/api/tenancy/tenant-groups/', { name: `Division ${n}`, parent: parentTenantGroup.id });
  const tenant = await made('/api/tenancy/tenants/', { name: `Tenant ${n}`, group: tenantGroup.id });
  const manufacturer = await made('/api/dcim/manufacturers/', { name: `Maker ${n}` });
  const deviceType = await made('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `Box ${n}` });
  const role = await made('/api/dcim/device-roles/', { name: `Role ${n}`, vm_role: true });
  const platform = await made('/api/dcim/platforms/', { name: `OS ${n}` });
  const clusterType = await made('/api/virtualization/cluster-types/', { name: `Type ${n}` });
  const clusterGroup = await made('/api/virtualization/cluster-groups/', { name: `Group ${n}` });
  const cluster = await made('/api/virtualization/clusters/', { name: `Cluster ${n}`, type: clusterType.id, group: clusterGroup.id, site: site.id });
  const tag = await made('/api/extras/tags/?api_version=1.3', { name: `Tag ${n}`, slug: `tag-${n}`, content_types: ['dcim.device', 'virtualization.virtualmachine'] });
  const device = await made(DEVICES, {
    name: `dev${n}`, site: site.id, device_type: deviceType.id, device_role: role.id, platform: platform.id, tenant: tenant.id,
    cluster: cluster.id, status: 'active', tags: [tag.id],
  });
  const vm = await made(VMS, { name: `vm${n}`, cluster: cluster.id, role: role.id, platform: platform.id, tenant: tenant.id, status: 'active', tags: [tag.id] });
  return { parentRegion, region, site, parentTenantGroup, tenantGroup, tenant, deviceType, role, platform, clusterGroup, cluster, tag, device, vm };
}

describe('config context definitions', () => {
  afterAll(clearContexts);

  // `dynamic_groups` is the list Nautobot shows with CONFIG_CONTEXT_DYNAMIC_GROUPS_ENABLED on; netinv always does.
  test('representation, defaults, brief form, tags as slugs', async () => {
    const w = await world();
    const c = await context({ name: 'ntp-eu', regions: [w.region.id], tags: [w.tag.slug], data: { ntp: { servers: ['10.0.0.1'] } } });
    expect(Object.keys(c)).toEqual([
      'id', 'display', 'url', 'name', 'owner_content_type', 'owner_object_id', 'owner', 'weight', 'description', 'schema', 'is_active',
      'regions', 'sites', 'roles', 'device_types', 'platforms', 'cluster_groups', 'clusters', 'tenant_groups', 'tenants', 'tags', 'dynamic_groups', 'data',
      'created', 'last_updated', 'notes_url',
    ]);
    expect(c).toMatchObject({ display: 'ntp-eu', weight: 1000, is_active: true, owner: null, owner_content_type: null, schema: null, tags: [w.tag.slug], sites: [] });
    expect(c.regions).toEqual([expect.objectContaining({ id: w.region.id, name: w.region.name })]);
    const read = await app.get(`${CC}${c.id}/`);
    expect(read.body.tags).toEqual([w.tag.slug]);
    expect(read.body.data).toEqual({ ntp: { servers: ['10.0.0.1'] } });
    expect((await app.get(`${CC}${c.id}/?brief=1`)).body).toEqual({ id: c.id, display: 'ntp-eu', url: c.url, name: 'ntp-eu' });
  });

  test('validation: data must be an object, names are unique, weights bounded, unknown tags refused', async () => {
    expect((await app.post(CC, { name: 'bad', data: [1] })).body).toEqual({ data: ['JSON data must be in object form. Example: {"foo": 123}'] });
    expect((await app.post(CC, { name: 'bad' })).body).toEqual({ data: ['This field is required.'] });
    await context({ name: 'unique-name', data: {} });
    const twice = await app.post(CC, { name: 'unique-name', data: {} });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ __all__: ['A ConfigContext with this name already exists.'] });
    expect((await app.post(CC, { name: 'heavy', weight: 40000, data: {} })).status).toBe(400);
    expect((await app.post(CC, { name: 'tagged', tags: ['no-such-tag'], data: {} })).body).toEqual({ tags: ['Object with slug=no-such-tag does not exist.'] });
    expect((await app.get(`${CC}?name=heavy`)).body.count).toBe(0);
  });

  test('filters by assignment, activity and search', async () => {
    const w = await world();
    const a = await context({ sites: [w.site.id], tags: [w.tag.slug], data: { needle: 1 }, is_active: false });
    const names = async (query: string) => ((await app.get(`${CC}?${query}`)).body.results as Obj[]).map((c) => c.id);
    expect(await names(`site=${w.site.slug}`)).toEqual([a.id]);
    expect(await names(`site_id=${w.site.id}`)).toEqual([a.id]);
    expect(await names(`tag=${w.tag.slug}`)).toEqual([a.id]);
    expect(await names(`is_active=false&q=needle`)).toEqual([a.id]);
    expect((await app.get(`${CC}?site=no-such-site`)).status).toBe(400);
  });

  test('a schema validates the data', async () => {
    const schema = await made(SCHEMAS, { name: 'NTP', data_schema: { type: 'object', properties: { ntp: { type: 'string' } }, required: ['ntp'] } });
    expect(schema).toMatchObject({ slug: 'ntp', owner: null, description: '' });
    const bad = await app.post(CC, { name: 'checked', schema: schema.id, data: { ntp: 5 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ data: ['Validation using the JSON Schema NTP failed.', "5 is not of type 'string'"] });
    expect((await app.post(CC, { name: 'checked', schema: schema.id, data: {} })).body.data[1]).toBe("'ntp' is a required property");
    const ok = await context({ schema: schema.id, data: { ntp: 'pool.ntp.org' } });
    expect(ok.schema).toMatchObject({ id: schema.id, name: 'NTP' });
    const notObject = await app.post(SCHEMAS, { name: 'list', data_schema: { type: 'array' } });
    expect(notObject.status).toBe(400);
    expect(notObject.body.data_schema[0]).toMatch(/must be of type object and specify a set of properties/);
    // Deleting the schema leaves the context without one.
    expect((await app.delete(`${SCHEMAS}${schema.id}/`)).status).toBe(204);
    expect((await app.get(`${CC}${ok.id}/`)).body.schema).toBeNull();
  });
});

describe('config_context on devices and virtual machines', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeAll(async () => {
    await clearContexts();
    w = await world();
  });
  afterEach(clearContexts);

  test('nothing applies: {} for devices without local data', async () => {
    expect(await configOf(DEVICES, w.device.id)).toEqual({});
  });

  test('merge order: weight ascending then name, later wins; objects merge deeply; lists are replaced', async () => {
    await context({ name: 'b-heavy', weight: 200, data: { ntp: { prefer: true }, dns: 'y', list: [3] } });
    await context({ name: 'a-light', weight: 100, data: { ntp: { servers: ['a'] }, dns: 'x', list: [1, 2] } });
    await context({ name: 'a-same-weight', weight: 300, data: { tie: 'a' } });
    await context({ name: 'b-same-weight', weight: 300, data: { tie: 'b' } });
    expect(await configOf(DEVICES, w.device.id)).toEqual({ ntp: { servers: ['a'], prefer: true }, dns: 'y', list: [3], tie: 'b' });
  });

  test('local_context_data wins over every context; a type mismatch replaces', async () => {
    await context({ weight: 100, data: { ntp: { servers: ['a'] }, dns: 'x', syslog: { host: 'h' } } });
    await context({ weight: 200, data: { ntp: { prefer: true }, dns: 'y' } });
    expect((await app.patch(`${DEVICES}${w.device.id}/`, { local_context_data: { dns: 'z', syslog: 'off' } })).status).toBe(200);
    expect(await configOf(DEVICES, w.device.id)).toEqual({ ntp: { servers: ['a'], prefer: true }, dns: 'z', syslog: 'off' });
    expect((await app.patch(`${DEVICES}${w.device.id}/`, { local_context_data: null })).status).toBe(200);
  });

  test('inactive contexts never apply', async () => {
    const c = await context({ is_active: false, data: { off: true } });
    expect(await configOf(DEVICES, w.device.id)).toEqual({});
    await app.patch(`${CC}${c.id}/`, { is_active: true });
    expect(await configOf(DEVICES, w.device.id)).toEqual({ off: true });
  });

  test('each assignment matches the device, and only it', async () => {
    const other = await world();
    const dimensions: Array<[string, (x: typeof w) => string]> = [
      ['regions', (x) => x.region.id],
      ['sites', (x) => x.site.id],
      ['roles', (x) => x.role.id],
      ['device_types', (x) => x.deviceType.id],
      ['platforms', (x) => x.platform.id],
      ['cluster_groups', (x) => x.clusterGroup.id],
      ['clusters', (x) => x.cluster.id],
      ['tenant_groups', (x) => x.tenantGroup.id],
      ['tenants', (x) => x.tenant.id],
      ['tags', (x) => x.tag.slug],
    ];
    for (const [dimension, of] of dimensions) {
      const c = await context({ [dimension]: [of(w)], data: { [dimension]: true } });
      expect([dimension, await configOf(DEVICES, w.device.id)]).toEqual([dimension, { [dimension]: true }]);
      expect([dimension, await configOf(DEVICES, other.device.id)]).toEqual([dimension, {}]);
      expect((await app.delete(`${CC}${c.id}/`)).status).toBe(204);
    }
  });

  test('trees: a parent region or tenant group matches its descendants', async () => {
    await context({ regions: [w.parentRegion.id], data: { continent: true } });
    await context({ tenant_groups: [w.parentTenantGroup.id], data: { holding: true } });
    expect(await configOf(DEVICES, w.device.id)).toEqual({ continent: true, holding: true });
  });

  test('lists OR within a kind and AND between kinds', async () => {
    const other = await world();
    await context({ sites: [other.site.id, w.site.id], data: { either: true } });
    await context({ sites: [w.site.id], platforms: [other.platform.id], data: { both: true } });
    await context({ sites: [w.site.id], platforms: [w.platform.id], data: { matched: true } });
    expect(await configOf(DEVICES, w.device.id)).toEqual({ either: true, matched: true });
  });

  test('virtual machines match through cluster, cluster group, its site and region, role, platform, tenant and tags', async () => {
    const other = await world();
    const matching: Array<[string, (x: typeof w) => string]> = [
      ['clusters', (x) => x.cluster.id],
      ['cluster_groups', (x) => x.clusterGroup.id],
      ['sites', (x) => x.site.id],
      ['regions', (x) => x.parentRegion.id],
      ['roles', (x) => x.role.id],
      ['platforms', (x) => x.platform.id],
      ['tenants', (x) => x.tenant.id],
      ['tenant_groups', (x) => x.tenantGroup.id],
      ['tags', (x) => x.tag.slug],
    ];
    for (const [dimension, of] of matching) {
      const c = await context({ [dimension]: [of(w)], data: { [dimension]: true } });
      expect([dimension, await configOf(VMS, w.vm.id)]).toEqual([dimension, { [dimension]: true }]);
      expect([dimension, await configOf(VMS, other.vm.id)]).toEqual([dimension, {}]);
      expect((await app.delete(`${CC}${c.id}/`)).status).toBe(204);
    }
    // VMs have no device type: a context limited to device types never reaches them.
    await context({ device_types: [w.deviceType.id], data: { typed: true } });
    expect(await configOf(VMS, w.vm.id)).toEqual({});
    expect((await app.patch(`${VMS}${w.vm.id}/`, { local_context_data: { local: 1 } })).body.config_context).toEqual({ local: 1 });
  });

  test('exclude=config_context leaves the key out; brief has none', async () => {
    await context({ data: { present: true } });
    expect((await app.get(`${DEVICES}${w.device.id}/`)).body.config_context).toEqual({ present: true });
    const excluded = await app.get(`${DEVICES}${w.device.id}/?exclude=config_context`);
    expect(excluded.status).toBe(200);
    expect('config_context' in excluded.body).toBe(false);
    expect('local_context_data' in excluded.body).toBe(true);
    const list = await app.get(`${VMS}?exclude=config_context`);
    expect(list.body.results.every((v: Obj) => !('config_context' in v))).toBe(true);
    expect('config_context' in (await app.get(`${DEVICES}${w.device.id}/?brief=1`)).body).toBe(false);
  });

  test('a page costs the same number of queries whatever its size', async () => {
    for (let i = 0; i < 4; i++) await world();
    await context({ regions: [w.parentRegion.id], data: { a: 1 } });
    await context({ tags: [w.tag.slug], data: { b: 1 } });
    const cost = async (path: string, limit: number) => {
      await app.get(`${path}?limit=${limit}`); // the configuration caches are warm, as on a server between requests
      const start = app.queries();
      const res = await app.get(`${path}?limit=${limit}`);
      expect(res.body.results).toHaveLength(limit);
      return app.queries() - start;
    };
    expect(await cost(DEVICES, 2)).toBe(await cost(DEVICES, 5));
    expect(await cost(VMS, 2)).toBe(await cost(VMS, 5));
  });
});

describe('local context schemas', () => {
  test('a schema needs local data, and the data must satisfy it', async () => {
    const w = await world();
    const schema = await made(SCHEMAS, { name: `Local ${++seq}`, data_schema: { type: 'object', properties: { vlan: { type: 'integer' } } } });
    const noData = await app.patch(`${DEVICES}${w.device.id}/`, { local_context_schema: schema.id, local_context_data: null });
    expect(noData.status).toBe(400);
    expect(noData.body).toEqual({ local_context_schema: ['Local context data must exist for a schema to be applied.'] });
    const wrong = await app.patch(`${VMS}${w.vm.id}/`, { local_context_schema: schema.id, local_context_data: { vlan: 'x' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ local_context_data: [`Validation using the JSON Schema ${schema.name} failed.`, "'x' is not of type 'integer'"] });
    const ok = await app.patch(`${DEVICES}${w.device.id}/`, { local_context_schema: schema.id, local_context_data: { vlan: 10 } });
    expect(ok.status).toBe(200);
    const read = (await app.get(`${DEVICES}${w.device.id}/`)).body;
    expect(read.local_context_schema).toMatchObject({ id: schema.id, name: schema.name });
    expect(read.config_context).toEqual({ vlan: 10 });
    expect((await app.get(`${DEVICES}?local_context_schema_id=${schema.id}`)).body.count).toBe(1);
    // Deleting the schema leaves the device without one, its data kept.
    expect((await app.delete(`${SCHEMAS}${schema.id}/`)).status).toBe(204);
    const after = (await app.get(`${DEVICES}${w.device.id}/`)).body;
    expect(after.local_context_schema).toBeNull();
    expect(after.local_context_data).toEqual({ vlan: 10 });
  });
});
