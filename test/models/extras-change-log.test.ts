/**
 * The change log: every create, update and delete made through the API leaves one ObjectChange
 * per object, written in the write's transaction; the records of one request share its
 * request_id; /api/extras/object-changes/ only reads them.
 */
import { FACTORIES } from '../factories/all';
import { contextFor } from '../factories';
import { appForThisFile } from '../helpers/harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CHANGES = '/api/extras/object-changes/';

const app = appForThisFile();

type Change = Record<string, unknown> & { id: string; request_id: string; action: { value: string; label: string }; object_data: Record<string, unknown> };

async function changesOf(id: string): Promise<Change[]> {
  const res = await app.get(`${CHANGES}?changed_object_id=${id}&limit=0`);
  expect(res.status).toBe(200);
  return res.body.results as Change[];
}

async function total(): Promise<number> {
  return (await app.get(`${CHANGES}?limit=1`)).body.count as number;
}

const make = (label: string, overrides: Record<string, unknown> = {}) => contextFor(app, FACTORIES).make(label, overrides);

describe('records', () => {
  test('a create leaves one record with the user, request id, object and its snapshot', async () => {
    const res = await app.post('/api/dcim/regions/', { name: 'Change region', description: 'first' });
    expect(res.status).toBe(201);
    const [change, ...rest] = await changesOf(res.body.id);
    expect(rest).toEqual([]);
    expect(Object.keys(change)).toEqual([
      'id', 'display', 'url', 'time', 'user', 'user_name', 'request_id', 'action',
      'changed_object_type', 'changed_object_id', 'changed_object', 'object_data',
    ]);
    expect(change).toMatchObject({
      display: 'dcim | region Change region created by admin',
      user: { id: app.adminId, username: 'admin' },
      user_name: 'admin',
      action: { value: 'create', label: 'Created' },
      changed_object_type: 'dcim.region',
      changed_object_id: res.body.id,
      changed_object: { id: res.body.id, display: 'Change region', url: res.body.url },
    });
    expect(change.request_id).toMatch(UUID);
    expect(change.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/);
    // The snapshot is the object's database form: stored fields by name, no id, url or display.
    expect(change.object_data).toMatchObject({ name: 'Change region', slug: 'change-region', parent: null, description: 'first', custom_fields: {} });
    expect(change.object_data.created).toBe(res.body.created);
    expect(change.object_data.last_updated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    for (const key of ['id', 'url', 'display', '_depth', '_tree_path']) expect(change.object_data).not.toHaveProperty(key);
    expect((await app.get(`${CHANGES}${change.id}/`)).body).toEqual(change);
  });

  test('updates, an empty PATCH included, each leave a record with the state after the change', async () => {
    const id = await make('dcim.region');
    expect((await app.patch(`/api/dcim/regions/${id}/`, { description: 'patched' })).status).toBe(200);
    expect((await app.patch(`/api/dcim/regions/${id}/`, {})).status).toBe(200);
    const changes = await changesOf(id);
    expect(changes.map((c) => c.action.value).sort()).toEqual(['create', 'update', 'update']);
    const updates = changes.filter((c) => c.action.value === 'update');
    expect(updates.map((c) => c.object_data.description)).toEqual(['patched', 'patched']);
    expect(new Set(changes.map((c) => c.request_id)).size).toBe(3);
  });

  test('a delete records the object as it was, and the record outlives it', async () => {
    const id = await make('dcim.region', { description: 'doomed' });
    expect((await app.delete(`/api/dcim/regions/${id}/`)).status).toBe(204);
    const [deleted] = await changesOf(id);
    expect(deleted).toMatchObject({ action: { value: 'delete', label: 'Deleted' }, changed_object: null });
    expect(deleted.object_data).toMatchObject({ description: 'doomed' });
  });

  test('cascaded deletes leave a record per deleted object, in the request of the delete', async () => {
    const iface = await make('dcim.interface');
    const device = (await app.get(`/api/dcim/interfaces/${iface}/`)).body.device.id as string;
    expect((await app.delete(`/api/dcim/devices/${device}/`)).status).toBe(204);
    const [ifaceChange] = await changesOf(iface);
    const [deviceChange] = await changesOf(device);
    expect(ifaceChange.action.value).toBe('delete');
    expect(deviceChange.action.value).toBe('delete');
    expect(ifaceChange.request_id).toBe(deviceChange.request_id);
  });

  test('a bulk create leaves one record per object, all with the request id of that request', async () => {
    const bodies = await Promise.all([1, 2, 3].map(async () => FACTORIES['dcim.region'].build(contextFor(app, FACTORIES))));
    const res = await app.post('/api/dcim/regions/', bodies);
    expect(res.status).toBe(201);
    const ids = (res.body as Array<{ id: string }>).map((o) => o.id);
    const records = (await Promise.all(ids.map(changesOf))).flat();
    expect(records).toHaveLength(3);
    expect(new Set(records.map((r) => r.request_id)).size).toBe(1);
    const byRequest = await app.get(`${CHANGES}?request_id=${records[0].request_id}`);
    expect(byRequest.body.count).toBe(3);
    expect(byRequest.body.results.map((r: Change) => r.changed_object_id).sort()).toEqual([...ids].sort());
  });

  test('a failed bulk write is rolled back with its records', async () => {
    const before = await total();
    const good = { name: 'Rolled back region' };
    const res = await app.post('/api/dcim/regions/', [good, { name: null }]);
    expect(res.status).toBe(400);
    expect(await total()).toBe(before);
    // A bulk update where one item fails leaves no record either.
    const a = await make('dcim.region');
    const b = await make('dcim.region');
    const afterCreates = await total();
    const upd = await app.patch('/api/dcim/regions/', [{ id: a, description: 'x' }, { id: b, name: null }]);
    expect(upd.status).toBe(400);
    expect(await total()).toBe(afterCreates);
    expect(await changesOf(a)).toHaveLength(1);
  });

  test('tags written with the object make no record of their own; the snapshot shows them', async () => {
    const tag = await make('extras.tag');
    const tagName = (await app.get(`/api/extras/tags/${tag}/`)).body.name as string;
    const res = await app.post('/api/dcim/sites/', { ...(await FACTORIES['dcim.site'].build(contextFor(app, FACTORIES))), tags: [tag] });
    expect(res.status).toBe(201);
    const [change, ...rest] = await changesOf(res.body.id);
    expect(rest).toEqual([]);
    expect(change.object_data.tags).toEqual([tagName]);
  });

  test('network fields are recorded as their stored columns, relations as ids', async () => {
    const vrf = await make('ipam.vrf');
    const res = await app.post('/api/ipam/prefixes/', { prefix: '10.77.1.0/24', status: 'active', vrf, description: 'cl' });
    expect(res.status).toBe(201);
    const [change] = await changesOf(res.body.id);
    // Many-to-many fields are lists of ids.
    const [vrfChange] = await changesOf(vrf);
    const targets = (await app.get(`/api/ipam/vrfs/${vrf}/`)).body.import_targets.map((t: { id: string }) => t.id);
    expect(targets).toHaveLength(1);
    expect(vrfChange.object_data.import_targets).toEqual(targets);
    const status = (await app.get('/api/extras/statuses/?slug=active')).body.results[0].id as string;
    expect(change.object_data).toMatchObject({
      network: '10.77.1.0', broadcast: '10.77.1.255', prefix_length: 24, vrf, status, site: null, is_pool: false, description: 'cl', tags: [],
    });
    expect(change.object_data).not.toHaveProperty('prefix');
    expect(change.object_data).not.toHaveProperty('family');
    const ip = await app.post('/api/ipam/ip-addresses/', { address: '10.77.1.9/24', status: 'active' });
    const [ipChange] = await changesOf(ip.body.id);
    expect(ipChange.object_data).toMatchObject({ host: '10.77.1.9', broadcast: '10.77.1.255', prefix_length: 24, assigned_object_id: null });
    expect(ipChange.object_data).not.toHaveProperty('address');
  });

  test('custom fields are keyed by name in the snapshot, whatever the API version of the request', async () => {
    const field = await app.post('/api/extras/custom-fields/', { name: 'cl_owner', slug: 'cl-owner', type: 'text', content_types: ['dcim.region'] });
    expect(field.status).toBe(201);
    const res = await app.post('/api/dcim/regions/?api_version=1.4', { name: 'Owned region', custom_fields: { 'cl-owner': 'noc' } });
    expect(res.status).toBe(201);
    expect(res.body.custom_fields).toEqual({ 'cl-owner': 'noc' });
    const [change] = await changesOf(res.body.id);
    expect(change.object_data.custom_fields).toEqual({ cl_owner: 'noc' });
    expect((await app.delete(`/api/extras/custom-fields/${field.body.id}/`)).status).toBe(204);
  });

  test('allocation endpoints log the objects they create', async () => {
    const prefix = await app.post('/api/ipam/prefixes/', { prefix: '10.77.0.0/24', status: 'active' });
    const res = await app.post(`/api/ipam/prefixes/${prefix.body.id}/available-ips/`, [{ status: 'active' }, { status: 'active' }]);
    expect(res.status).toBe(201);
    const records = (await Promise.all((res.body as Array<{ id: string }>).map((o) => changesOf(o.id)))).flat();
    expect(records.map((r) => r.changed_object_type)).toEqual(['ipam.ipaddress', 'ipam.ipaddress']);
    expect(records[0].request_id).toBe(records[1].request_id);
  });

  test('users, tokens and the records themselves are not logged', async () => {
    const before = await total();
    expect((await app.post('/api/users/tokens/', { description: 'no record' })).status).toBe(201);
    expect((await app.post('/api/users/users/', { username: 'unlogged', password: 'long enough password' })).status).toBe(201);
    expect(await total()).toBe(before);
  });
});

describe('endpoint', () => {
  test('read-only: writes are 405, newest first', async () => {
    expect((await app.post(CHANGES, {})).status).toBe(405);
    const list = await app.get(`${CHANGES}?limit=5`);
    const times = list.body.results.map((r: Change) => String(r.time));
    expect([...times].sort().reverse()).toEqual(times);
  });

  test('filters: action, type, user, user_name, object_repr, q', async () => {
    const id = await make('dcim.region', { name: 'Filterable region' });
    const q = async (query: string) => (await app.get(`${CHANGES}?${query}`)).body;
    expect((await q(`changed_object_id=${id}&action=create`)).count).toBe(1);
    expect((await q(`changed_object_id=${id}&action=delete`)).count).toBe(0);
    expect((await q(`changed_object_id=${id}&changed_object_type=dcim.region`)).count).toBe(1);
    expect((await q(`changed_object_id=${id}&changed_object_type=dcim.site`)).count).toBe(0);
    expect((await q(`changed_object_id=${id}&user=admin`)).count).toBe(1);
    expect((await q(`changed_object_id=${id}&user_id=${app.adminId}`)).count).toBe(1);
    expect((await q(`changed_object_id=${id}&user_name=admin`)).count).toBe(1);
    expect((await q('object_repr=Filterable%20region')).count).toBe(1);
    expect((await q('q=filterable%20REGION')).count).toBe(1);
    const bad = await app.get(`${CHANGES}?action=rename`);
    expect(bad.status).toBe(400);
    expect((await app.get(`${CHANGES}?changed_object_type=nope.nope`)).status).toBe(400);
  });

  test('a page reads each changed object type present on it once, not every logged model', async () => {
    await make('dcim.region');
    await make('tenancy.tenantgroup');
    const before = app.queries();
    const res = await app.get(`${CHANGES}?limit=50`);
    expect(res.status).toBe(200);
    const types = new Set(res.body.results.filter((r: Change) => r.changed_object).map((r: Change) => r.changed_object_type)).size;
    expect(app.queries() - before).toBeLessThanOrEqual(types + 6);
  });

  test('the record keeps the user name when the user is deleted', async () => {
    const userId = await app.createUser('short-lived', { superuser: true });
    const token = await app.createToken(userId);
    const res = await app.post('/api/dcim/regions/', { name: 'Region by short-lived' }, token);
    expect(res.status).toBe(201);
    expect((await app.delete(`/api/users/users/${userId}/`)).status).toBe(204);
    const [change] = await changesOf(res.body.id);
    expect(change).toMatchObject({ user: null, user_name: 'short-lived' });
  });
});
