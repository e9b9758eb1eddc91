/**
 * A list costs the same number of SQL statements whatever its page size: nested objects are
 * joined, tags, many-to-many values and custom fields load for the whole page at once. Checked for
 * every routed model, with several objects carrying tags and custom field data, through the
 * X-Query-Count header that NETINV_COUNT_QUERIES enables.
 */
import { loadConfig } from '../../app/config';
import { registryWith } from '../../app/database';
import { enabledPlugins } from '../../app/plugins';
import { FACTORIES } from '../factories/all';
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { contextFor } from '../factories';
import { startApp, type TestApp } from '../helpers/harness';
import type { ModelMeta } from '../../framework/metadata/model-meta';
import { joinsGenericTargets } from '../../framework/store/select';

const registry = registryWith(enabledPlugins(loadConfig({ NETINV_PLUGINS: EXAMPLE_PLUGIN })));
const routed = registry.routed;
const OBJECTS_PER_MODEL = 3;

let app: TestApp;
let tagIds: string[] = [];

beforeAll(async () => {
  // A list's count kept from an earlier request would save a statement on one request and not
  // the next, as background writes come and go: the comparison counts every statement.
  app = await startApp({ NETINV_PLUGINS: EXAMPLE_PLUGIN, NETINV_COUNT_QUERIES: 'true', NETINV_KEEP_LIST_COUNTS: 'false' });
  const tagged = routed.filter((m) => m.has('tags')).map((m) => m.label);
  const withFields = routed.filter((m) => m.has('custom_fields')).map((m) => m.label);
  for (const slug of ['qc-gold', 'qc-silver']) {
    const res = await app.post('/api/extras/tags/', { name: slug, slug, content_types: tagged });
    expect(res.status).toBe(201);
    tagIds.push(res.body.id);
  }
  for (const [name, type] of [['qc_text', 'text'], ['qc_number', 'integer']]) {
    const res = await app.post('/api/extras/custom-fields/', { name, type, content_types: withFields });
    expect(res.status).toBe(201);
  }
});
afterAll(async () => {
  await app?.close();
});

/**
 * Generic relations of many types (a change's object, a note's) load their targets with one
 * query per model present on the page: that many are allowed on top of the constant. Those of a
 * few types (an address's assigned object) are joined in the page's statement and add none.
 */
function genericTypesOn(model: ModelMeta, results: Array<Record<string, unknown>>): number {
  let n = 0;
  for (const f of model.fields.filter((x) => x.kind.name === 'generic-type' && !joinsGenericTargets((x.resolved.targets as ModelMeta[] | undefined) ?? []))) {
    const idKey = f.name.replace(/_type$/, '_id');
    n += new Set(results.filter((r) => r[f.name] && r[idKey]).map((r) => r[f.name])).size;
  }
  // A cable's far end and a path's destination are generic too: one read per model they name,
  // one for both when they name the same objects of it (a direct cable's far end is the endpoint).
  if (!model.field('cable_peer_type') && !model.field('connected_endpoint_type')) return n;
  const named = (key: string, label: string) =>
    [...new Set(results.filter((r) => r[`${key}_type`] === label).map((r) => String((r[key] as { id?: string } | null)?.id)))].sort().join(',');
  const labels = new Set(results.flatMap((r) => [r.cable_peer_type, r.connected_endpoint_type]).filter((l): l is string => typeof l === 'string'));
  for (const label of labels) {
    const [peers, ends] = [named('cable_peer', label), named('connected_endpoint', label)];
    n += peers && peers === ends ? 1 : (peers ? 1 : 0) + (ends ? 1 : 0);
  }
  return n;
}

function queriesOf(res: { status: number; headers: Record<string, string> }): number {
  expect(res.status).toBe(200);
  const header = res.headers['x-query-count'];
  expect(header).toMatch(/^\d+$/);
  return Number(header);
}

test('the header counts the statements of each request', async () => {
  const res = await app.get('/api/dcim/sites/?limit=1');
  expect(queriesOf(res)).toBeGreaterThan(0);
});

type Obj = Record<string, any>;

async function made(path: string, body: Obj): Promise<Obj> {
  const res = await app.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('devices: what their rows already say costs no statement', () => {
  let site: Obj;
  let chassis: Obj;
  let leaf: Obj;
  const page = () => app.get(`/api/dcim/devices/?site_id=${site.id}&limit=50`);

  beforeAll(async () => {
    // Before any test below creates config contexts: none is active.
    expect((await app.get('/api/extras/config-contexts/?limit=1')).body.count).toBe(0);
    site = await made('/api/dcim/sites/', { name: 'qc-bays', status: 'active' });
    const manufacturer = await made('/api/dcim/manufacturers/', { name: 'qc-bays' });
    const role = await made('/api/dcim/device-roles/', { name: 'qc-bays' });
    const parentType = await made('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'qc-chassis', subdevice_role: 'parent' });
    const childType = await made('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'qc-blade', subdevice_role: 'child', u_height: 0 });
    const common = { site: site.id, device_role: role.id, status: 'active' };
    chassis = await made('/api/dcim/devices/', { ...common, name: 'qc-chassis', device_type: parentType.id });
    leaf = await made('/api/dcim/devices/', { ...common, name: 'qc-blade', device_type: childType.id, local_context_data: { ntp: ['192.0.2.1'] } });
  });

  test('config_context without active contexts is the local data of the page\'s rows', async () => {
    await page();
    const shown = await page();
    const excluded = await app.get(`/api/dcim/devices/?site_id=${site.id}&limit=50&exclude=config_context`);
    const byName = new Map(shown.body.results.map((d: Obj) => [d.name, d.config_context]));
    expect(byName).toEqual(new Map([['qc-blade', { ntp: ['192.0.2.1'] }], ['qc-chassis', {}]]));
    expect(queriesOf(shown)).toBe(queriesOf(excluded));
  });

  test('parent devices are read only when a device of the page is installed in a bay', async () => {
    await page();
    const before = await page();
    expect(before.body.results.map((d: Obj) => d.parent_device)).toEqual([null, null]);
    const bay = await made('/api/dcim/device-bays/', { device: chassis.id, name: 'Bay 1', installed_device: leaf.id });
    await page();
    const after = await page();
    const parents = new Map(after.body.results.map((d: Obj) => [d.name, d.parent_device?.device_bay?.id ?? null]));
    expect(parents).toEqual(new Map([['qc-blade', bay.id], ['qc-chassis', null]]));
    // The bays, their devices and the bays' nested forms: three statements, none before.
    expect(queriesOf(after) - queriesOf(before)).toBe(3);
    // The device list compared below reads parents only on pages where a device sits in a bay.
    expect((await app.delete(`/api/dcim/device-bays/${bay.id}/`)).status).toBe(204);
  });
});

test('an address\'s interface or VM interface is read with the page, by no statement of its own', async () => {
  const ctx = contextFor(app, FACTORIES);
  const iface = await ctx.make('dcim.interface');
  const vmIface = await ctx.make('virtualization.vminterface');
  const tenant = await made('/api/tenancy/tenants/', { name: 'qc-assigned' });
  const assigned = [
    { address: '198.51.100.1/24', assigned_object_type: 'dcim.interface', assigned_object_id: iface },
    { address: '198.51.100.2/24', assigned_object_type: 'virtualization.vminterface', assigned_object_id: vmIface },
    { address: '198.51.100.3/24' },
  ];
  const addresses: string[] = [];
  for (const body of assigned) addresses.push((await made('/api/ipam/ip-addresses/', { ...body, status: 'active', tenant: tenant.id })).id);
  const unassigned = await made('/api/tenancy/tenants/', { name: 'qc-unassigned' });
  for (const address of ['198.51.101.1/24', '198.51.101.2/24']) addresses.push((await made('/api/ipam/ip-addresses/', { address, status: 'active', tenant: unassigned.id })).id);
  try {
    const page = (id: string) => app.get(`/api/ipam/ip-addresses/?tenant_id=${id}&limit=50`);
    await page(tenant.id);
    const [withObjects, without] = [await page(tenant.id), await page(unassigned.id)];
    expect(queriesOf(withObjects)).toBe(queriesOf(without));
    const shown = withObjects.body.results.map((r: Obj) => [r.address, r.assigned_object_type, r.assigned_object?.id ?? null]);
    expect(shown).toEqual([
      ['198.51.100.1/24', 'dcim.interface', iface],
      ['198.51.100.2/24', 'virtualization.vminterface', vmIface],
      ['198.51.100.3/24', null, null],
    ]);
    // The nested forms are those of the objects' own endpoints.
    const [ifaceBody, vmIfaceBody] = [(await app.get(`/api/dcim/interfaces/${iface}/`)).body, (await app.get(`/api/virtualization/interfaces/${vmIface}/`)).body];
    expect(withObjects.body.results[0].assigned_object).toEqual({ id: iface, url: ifaceBody.url, display: ifaceBody.display, name: ifaceBody.name, cable: null, device: { id: ifaceBody.device.id, url: ifaceBody.device.url, display: ifaceBody.device.display, name: ifaceBody.device.name } });
    expect(withObjects.body.results[1].assigned_object).toEqual({ id: vmIface, url: vmIfaceBody.url, display: vmIfaceBody.display, name: vmIfaceBody.name, virtual_machine: { id: vmIfaceBody.virtual_machine.id, url: vmIfaceBody.virtual_machine.url, display: vmIfaceBody.virtual_machine.display, name: vmIfaceBody.virtual_machine.name } });
    // The detail reads the same in its one statement.
    const detail = await app.get(`/api/ipam/ip-addresses/${withObjects.body.results[1].id}/`);
    expect(detail.body.assigned_object).toEqual(withObjects.body.results[1].assigned_object);
  } finally {
    // Tenants without a group would change how the tenant list's pages are read below.
    for (const id of addresses) expect((await app.delete(`/api/ipam/ip-addresses/${id}/`)).status).toBe(204);
    for (const id of [tenant.id, unassigned.id]) expect((await app.delete(`/api/tenancy/tenants/${id}/`)).status).toBe(204);
  }
});

test('a page\'s tags are read with its objects, by no statement of their own', async () => {
  for (const name of ['qc-page-a', 'qc-page-b']) await made('/api/circuits/providers/', { name, tags: tagIds });
  const path = '/api/circuits/providers/?name__isw=qc-page-&limit=50';
  await app.get(path);
  const full = await app.get(path);
  const brief = await app.get(`${path}&brief=true`);
  expect(full.body.results.map((m: Obj) => m.tags.map((t: Obj) => t.name))).toEqual([
    ['qc-gold', 'qc-silver'],
    ['qc-gold', 'qc-silver'],
  ]);
  // Providers show nothing else read apart from their rows: the brief form costs the rows alone.
  expect(queriesOf(full)).toBe(queriesOf(brief));
});

/**
 * The fewest statements of three runs of a request, and the last response: the configuration
 * cache's check of its generations (one statement, at most every half second) may join any one
 * of them on a loaded machine.
 */
async function fewestQueries(send: (run: number) => Promise<{ status: number; headers: Record<string, string>; body: Obj }>) {
  let fewest = Infinity;
  let last: Awaited<ReturnType<typeof send>> | null = null;
  for (let run = 0; run < 3; run++) {
    last = await send(run);
    fewest = Math.min(fewest, queriesOf(last));
  }
  return { count: fewest, last: last as NonNullable<typeof last> };
}

test('an update that does not send the tags leaves their links unread and unwritten', async () => {
  const provider = await made('/api/circuits/providers/', { name: 'qc-patch', tags: tagIds });
  const path = `/api/circuits/providers/${provider.id}/`;
  await app.patch(path, { description: 'warm' });
  // Each run changes the description, so that every run writes.
  const without = await fewestQueries((run) => app.patch(path, { description: `one-${run}` }));
  const withTags = await fewestQueries((run) => app.patch(path, { description: `two-${run}`, tags: tagIds }));
  // Sent, the two tags are looked up (each, then their content types) and compared with the
  // stored links, which the locked read of the provider read already (nothing is written): three
  // statements that an update without them skips.
  expect(withTags.count - without.count).toBe(3);
  expect(without.last.body.tags.map((t: Obj) => t.name)).toEqual(['qc-gold', 'qc-silver']);
  expect((await app.get(path)).body.tags).toEqual(without.last.body.tags);
});

test('an update replaces links from what its locked read found: the stored links become exactly those sent', async () => {
  const bronze = await made('/api/extras/tags/', { name: 'qc-bronze', slug: 'qc-bronze', content_types: ['ipam.vrf'] });
  const [gold, silver] = tagIds;
  const target = await made('/api/ipam/route-targets/', { name: '65000:902' });
  const other = await made('/api/ipam/route-targets/', { name: '65000:903' });
  const vrf = await made('/api/ipam/vrfs/', { name: 'qc-replace', import_targets: [target.id], tags: [gold, silver] });
  const path = `/api/ipam/vrfs/${vrf.id}/`;
  const res = await app.patch(path, { tags: [silver, bronze.id], import_targets: [other.id, target.id] });
  expect(res.status).toBe(200);
  const stored = (await app.get(path)).body;
  expect(stored.tags.map((t: Obj) => t.name)).toEqual(['qc-bronze', 'qc-silver']);
  expect(stored.import_targets.map((t: Obj) => t.id).sort()).toEqual([other.id, target.id].sort());
  const cleared = await app.patch(path, { tags: [], import_targets: [] });
  expect(cleared.status).toBe(200);
  expect((await app.get(path)).body).toMatchObject({ tags: [], import_targets: [] });
  const [change] = (await app.get(`/api/extras/object-changes/?changed_object_id=${vrf.id}&limit=1`)).body.results;
  expect(change.object_data).toMatchObject({ tags: [], import_targets: [] });
});

test('an update reads the links of the object it locks in the same statement: many-to-many fields add none', async () => {
  // A VRF has three many-to-many fields (import and export targets, tags), a provider one (tags).
  const target = await made('/api/ipam/route-targets/', { name: '65000:901' });
  const vrf = await made('/api/ipam/vrfs/', { name: 'qc-links', import_targets: [target.id], export_targets: [target.id], tags: tagIds });
  const provider = await made('/api/circuits/providers/', { name: 'qc-links', tags: tagIds });
  const patch = (path: string) => fewestQueries((run) => app.patch(path, { description: `links-${run}` }));
  const vrfPath = `/api/ipam/vrfs/${vrf.id}/`;
  await app.patch(vrfPath, { description: 'warm' });
  await app.patch(`/api/circuits/providers/${provider.id}/`, { description: 'warm' });
  const vrfUpdate = await patch(vrfPath);
  const providerUpdate = await patch(`/api/circuits/providers/${provider.id}/`);
  expect(vrfUpdate.count).toBe(providerUpdate.count);
  // The links read with the row are the stored ones: the change record and the response show them.
  expect(vrfUpdate.last.body.import_targets.map((t: Obj) => t.id)).toEqual([target.id]);
  const [change] = (await app.get(`/api/extras/object-changes/?changed_object_id=${vrf.id}&limit=1`)).body.results;
  expect(change.object_data).toMatchObject({ import_targets: [target.id], export_targets: [target.id], description: 'links-2' });
});

// Git repositories have tags that their representation does not show (hidden).
const taggedCreatable = routed.filter((m) => m.has('tags') && !m.field('tags')?.hidden && m.allows('create') && !FACTORIES[m.label].seed);

describe.each(taggedCreatable.map((m) => [m.label, m] as const))('%s', (_label, model) => {
  test('detail and write responses show the tags a list shows, read within the object\'s statement', async () => {
    const build = () => FACTORIES[model.label].build(contextFor(app, FACTORIES));
    const tagged = await app.post(model.listPath, { ...(await build()), tags: [...tagIds].reverse() });
    expect(tagged.status).toBe(201);
    const plain = await app.post(model.listPath, await build());
    expect(plain.status).toBe(201);
    const listed = async (id: string) => (await app.get(`${model.listPath}?id=${id}`)).body.results[0].tags;
    const listedTags = await listed(tagged.body.id);
    // Ordered by name, as the list orders them.
    expect(listedTags.map((t: Obj) => t.name)).toEqual(['qc-gold', 'qc-silver']);
    expect((await app.get(`${model.listPath}${tagged.body.id}/`)).body.tags).toEqual(listedTags);
    expect(tagged.body.tags).toEqual(listedTags);
    expect((await app.get(`${model.listPath}${plain.body.id}/`)).body.tags).toEqual([]);
    expect(await listed(plain.body.id)).toEqual([]);
  });
});

describe.each(routed.map((m) => [m.label, m] as const))('%s', (_label, model) => {
  test('list: same number of queries at limit=1 and limit=50, full, brief and with opt-in fields', async () => {
    const factory = FACTORIES[model.label];
    // Read-only models (change records, content types) already hold rows written by the server;
    // models created otherwise than by a JSON POST (image attachments) are seeded by their factory.
    const jsonCreated = model.allows('create') && !factory.seed;
    for (let i = 0; jsonCreated && i < OBJECTS_PER_MODEL; i++) {
      const body: Record<string, unknown> = await factory.build(contextFor(app, FACTORIES));
      if (model.has('tags')) body.tags = tagIds;
      if (model.has('custom_fields')) body.custom_fields = { qc_text: `object ${i}`, qc_number: i };
      const res = await app.post(model.listPath, body);
      expect(res.status).toBe(201);
    }
    // Rows the server writes that no other test of this file leaves behind (job results, logs, schedules).
    for (let i = 0; !jsonCreated && factory.seed && i < OBJECTS_PER_MODEL; i++) await factory.seed(contextFor(app, FACTORIES));
    for (const extra of ['', '&brief=true', '&include=computed_fields,relationships']) {
      // The configuration caches are warm, as on a server between requests.
      await app.get(`${model.listPath}?limit=1${extra}`);
      const one = await app.get(`${model.listPath}?limit=1${extra}`);
      const many = await app.get(`${model.listPath}?limit=50${extra}`);
      expect(many.body.results.length).toBeGreaterThan(1);
      const beyond = (res: typeof one) => queriesOf(res) - (extra.includes('brief') ? 0 : genericTypesOn(model, res.body.results));
      expect({ extra, queries: beyond(many) }).toEqual({ extra, queries: beyond(one) });
    }
  });
});
