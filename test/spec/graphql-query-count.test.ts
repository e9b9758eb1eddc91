/**
 * No N+1 through GraphQL: nested fields are read per level for all objects at once, so a query
 * costs a number of SQL statements set by its shape, not by the number of objects it returns. The
 * same query is counted over 5 devices and over 1,000 devices (with their site, interfaces and IP
 * addresses) and must cost the same. The limits on depth and size come with clear errors.
 */
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
let type: string;
let role: string;
let site: string;

const QUERY = '{ devices { name site { name region { name } } tags { name } interfaces { name ip_addresses { address vrf { name } } } } }';

async function bulk(path: string, body: Array<Record<string, unknown>>): Promise<Array<{ id: string }>> {
  const res = await app.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return res.body;
}

let next = 0;
let nextAddress = 0;
async function addDevices(n: number): Promise<void> {
  const devices = await bulk('/api/dcim/devices/', Array.from({ length: n }, () => ({ name: `dev${next++}`, device_type: type, device_role: role, site, status: 'active' })));
  const interfaces = await bulk('/api/dcim/interfaces/', devices.flatMap((d) => [0, 1].map((i) => ({ device: d.id, name: `eth${i}`, type: '1000base-t' }))));
  const address = () => {
    const i = nextAddress++;
    return `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32`;
  };
  await bulk('/api/ipam/ip-addresses/', interfaces.map((itf) => ({ address: address(), status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: itf.id })));
}

async function statements(query: string): Promise<{ count: number; body: Record<string, any> }> {
  await app.post('/api/graphql/', { query }); // the configuration caches are warm, as on a server between requests
  const before = app.queries();
  const res = await app.post('/api/graphql/', { query });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return { count: app.queries() - before, body: res.body };
}

beforeAll(async () => {
  app = await startApp({ NETINV_GRAPHQL_MAX_DEPTH: '4', NETINV_GRAPHQL_MAX_COMPLEXITY: '30' });
  const region = (await app.post('/api/dcim/regions/', { name: 'EU', slug: 'eu' })).body.id;
  site = (await app.post('/api/dcim/sites/', { name: 'AMS', slug: 'ams', status: 'active', region })).body.id;
  const manufacturer = (await app.post('/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' })).body.id;
  type = (await app.post('/api/dcim/device-types/', { manufacturer, model: 'DCS', slug: 'dcs' })).body.id;
  role = (await app.post('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge', color: 'ff0000' })).body.id;
}, 120_000);
afterAll(async () => {
  await app?.close();
});

test('devices with site, interfaces and IP addresses: as many statements for 1,000 devices as for 5', async () => {
  await addDevices(5);
  const small = await statements(QUERY);
  expect(small.body.data.devices).toHaveLength(5);
  await addDevices(995);
  const large = await statements(QUERY);
  expect(large.body.data.devices).toHaveLength(1000);
  expect(large.body.data.devices[999].interfaces).toHaveLength(2);
  expect(large.body.data.devices[999].interfaces[1].ip_addresses).toHaveLength(1);
  expect(large.count).toBe(small.count);
  // A handful per level (count, rows, stored values, links), not one per object.
  expect(large.count).toBeLessThan(60);
}, 240_000);

test('deeper than NETINV_GRAPHQL_MAX_DEPTH: 400 naming the setting', async () => {
  const res = await app.post('/api/graphql/', { query: '{ devices { interfaces { ip_addresses { assigned_object { ... on InterfaceType { device { name } } } } } } }' });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ errors: [{ message: 'Query depth 5 exceeds the maximum depth of 4 (NETINV_GRAPHQL_MAX_DEPTH).', locations: [{ line: 1, column: 1 }] }] });
});

test('more fields than NETINV_GRAPHQL_MAX_COMPLEXITY: 400 naming the setting', async () => {
  const fields = Array.from({ length: 31 }, (_, i) => `f${i}: name`).join(' ');
  const res = await app.post('/api/graphql/', { query: `{ devices { ${fields} } }` });
  expect(res.status).toBe(400);
  expect(res.body.errors[0].message).toBe('Query complexity 32 exceeds the maximum complexity of 30 (NETINV_GRAPHQL_MAX_COMPLEXITY).');
});

test('objects are read with the fields the document selects: fewer statements, the same values', async () => {
  await addDevices(3);
  const full = await statements('{ devices { name serial tags { name } config_context primary_ip4 { address } interfaces { name } } }');
  const names = await statements('{ devices { name } }');
  expect(names.body.data.devices).toEqual(full.body.data.devices.map((d: { name: string }) => ({ name: d.name })));
  // The devices alone, in one statement: no tags, config contexts, interfaces or nested objects.
  expect(names.count).toBe(1);
  expect(names.count).toBeLessThan(full.count);

  // A type selected in several places (a fragment, a nested field, a root list) is read with the
  // fields of all of them.
  const spread = await statements('{ devices { ...D site { name } } sites { slug } } fragment D on DeviceType { name serial }');
  expect(spread.body.data.devices).toEqual(full.body.data.devices.map((d: { name: string; serial: string }) => ({ name: d.name, serial: d.serial, site: { name: 'AMS' } })));
  expect(spread.body.data.sites).toEqual([{ slug: 'ams' }]);

  // Addresses grouped under their interface, and each address's interface through the generic relation.
  const generic = await statements('{ interfaces(limit: 2) { name ip_addresses { address assigned_object { ... on InterfaceType { name device { name } } } } } }');
  for (const itf of generic.body.data.interfaces) {
    expect(itf.ip_addresses).toHaveLength(1);
    expect(itf.ip_addresses[0].assigned_object.name).toBe(itf.name);
  }
}, 120_000);
