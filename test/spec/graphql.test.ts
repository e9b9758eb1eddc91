/**
 * GraphQL (reference behaviour-graphql.md): /api/graphql/ requests, status codes and error
 * shapes, the generated schema (singular and plural fields, REST filters as arguments, nested
 * relations), and values as Nautobot returns them.
 */
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
const ids: Record<string, string> = {};

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await app.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

const gql = (query: string, variables?: unknown, token?: string | null) => app.post('/api/graphql/', variables === undefined ? { query } : { query, variables }, token);

beforeAll(async () => {
  app = await startApp();
  ids.region = await create('/api/dcim/regions/', { name: 'Netherlands', slug: 'nl' });
  ids.ams = await create('/api/dcim/sites/', { name: 'AMS01', slug: 'ams01', status: 'active', region: ids.region, latitude: '12.3456' });
  ids.atl = await create('/api/dcim/sites/', { name: 'ATL01', slug: 'atl01', status: 'planned' });
  const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' });
  const type = await create('/api/dcim/device-types/', { manufacturer, model: 'DCS', slug: 'dcs' });
  const role = await create('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge', color: 'ff0000' });
  const platform = await create('/api/dcim/platforms/', { name: 'EOS', slug: 'eos', napalm_driver: 'eos' });
  ids.tag = await create('/api/extras/tags/', { name: 'core', slug: 'core', content_types: ['dcim.device'] });
  ids.edge = await create('/api/dcim/devices/', { name: 'ams01-edge-01', device_type: type, device_role: role, site: ids.ams, status: 'active', platform, tags: [ids.tag] });
  ids.sw = await create('/api/dcim/devices/', { name: 'ams01-sw-01', device_type: type, device_role: role, site: ids.ams, status: 'active' });
  ids.atlDevice = await create('/api/dcim/devices/', { name: 'atl01-sw-01', device_type: type, device_role: role, site: ids.atl, status: 'active' });
  ids.eth1 = await create('/api/dcim/interfaces/', { device: ids.edge, name: 'Ethernet1', type: '1000base-t' });
  ids.eth2 = await create('/api/dcim/interfaces/', { device: ids.edge, name: 'Ethernet2', type: 'virtual', mgmt_only: true });
  ids.ip = await create('/api/ipam/ip-addresses/', { address: '10.0.0.1/31', status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: ids.eth1 });
  const res = await app.patch(`/api/dcim/devices/${ids.edge}/`, { primary_ip4: ids.ip });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
});
afterAll(async () => {
  await app?.close();
});

describe('requests and errors', () => {
  test('the inventory plugin default query', async () => {
    const q = 'query {\n  devices {\n    name\n    primary_ip4 {\n      host\n    }\n    platform {\n      napalm_driver\n    }\n  }\n  virtual_machines {\n    name\n  }\n}';
    const res = await gql(q);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        devices: [
          { name: 'ams01-edge-01', primary_ip4: { host: '10.0.0.1' }, platform: { napalm_driver: 'eos' } },
          { name: 'ams01-sw-01', primary_ip4: null, platform: null },
          { name: 'atl01-sw-01', primary_ip4: null, platform: null },
        ],
        virtual_machines: [],
      },
    });
  });

  test('syntax error: 400 with the graphql-core 2 message', async () => {
    const res = await gql('{ devices { name }');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errors: [{ message: 'Syntax Error GraphQL (1:19) Expected Name, found EOF\n\n1: { devices { name }\n                     ^\n', locations: [{ line: 1, column: 19 }] }],
    });
  });

  test('validation errors are all listed, without data', async () => {
    const res = await gql('{ devices { nae } sites { nme } }');
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(2);
    expect(res.body.errors[0].message).toMatch(/^Cannot query field "nae" on type "DeviceType"\. Did you mean .*"name"/);
    expect(res.body.errors[1].message).toMatch(/^Cannot query field "nme" on type "SiteType"\. Did you mean "name"\?/);
  });

  test('unknown argument and missing sub selection use Nautobot wording', async () => {
    let res = await gql('{ devices(bogus: "x") { name } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('Unknown argument "bogus" on field "devices" of type "Query".');
    res = await gql('{ devices { status } }');
    expect(res.body.errors[0].message).toBe('Field "status" of type "StatusType" must have a sub selection.');
    res = await gql('{ devices(offset: "3") { name } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('Argument "offset" has invalid value "3".\nExpected type "Int", found "3".');
  });

  test.each([
    [{ query: '' }, 'Must provide query string.'],
    [{}, 'Must provide query string.'],
    [{ query: 5 }, 'The query must be a string'],
    [{ query: '{ sites { name } }', variables: '{bad' }, 'Variables are invalid JSON.'],
  ])('%j → 400 %s', async (body, message) => {
    const res = await app.post('/api/graphql/', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message }] });
  });

  test('invalid JSON body', async () => {
    const res = await app.raw().post('/api/graphql/').set('Authorization', `Token ${app.token}`).set('Content-Type', 'application/json').send('{nope');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'Request body contained Invalid JSON.' }] });
  });

  test('application/graphql body and the query string', async () => {
    let res = await app.raw().post('/api/graphql/').set('Authorization', `Token ${app.token}`).set('Content-Type', 'application/graphql').send('{ sites { slug } }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { sites: [{ slug: 'ams01' }, { slug: 'atl01' }] } });
    res = await app.raw().post('/api/graphql/?query=%7B%20regions%20%7B%20slug%20%7D%20%7D').set('Authorization', `Token ${app.token}`);
    expect(res.body).toEqual({ data: { regions: [{ slug: 'nl' }] } });
  });

  test('mutations are refused before validation', async () => {
    const res = await gql('mutation { x }');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: "'mutation' is not a supported operation, Only query are supported." }] });
  });

  test('operations: several without a name, unknown name, missing variable', async () => {
    let res = await app.post('/api/graphql/', { query: 'query a { sites { name } } query b { regions { name } }' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('Must provide operation name if query contains multiple operations.');
    res = await app.post('/api/graphql/', { query: 'query a { sites { name } }', operationName: 'X' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('Unknown operation named "X".');
    res = await app.post('/api/graphql/', { query: 'query b { regions { slug } } query a { sites { name } }', operationName: 'b' });
    expect(res.body).toEqual({ data: { regions: [{ slug: 'nl' }] } });
    res = await gql('query ($id: ID!) { device(id: $id) { name } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('Variable "$id" of required type "ID!" was not provided.');
  });

  test('authentication: anonymous 403, GET 405, read-only tokens may query', async () => {
    let res = await gql('{ sites { name } }', undefined, null);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    res = await app.get('/api/graphql/');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ detail: 'Method "GET" not allowed.' });
    const readOnly = await app.createToken(app.adminId, { writeEnabled: false });
    res = await gql('{ regions { slug } }', undefined, readOnly);
    expect(res.status).toBe(200);
  });
});

describe('schema and values', () => {
  test('root fields are named after verbose names, plurals as Nautobot spells them', async () => {
    const res = await gql('{ __schema { queryType { fields { name } } } }');
    const names = (res.body.data.__schema.queryType.fields as Array<{ name: string }>).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(['devices', 'device', 'ip_addresses', 'ip_address', 'prefixes', 'prefix', 'interfaces', 'vm_interfaces', 'vm_interface', 'graphql_queries', 'graphql_query', 'content_types', 'statuses', 'status']));
    expect(names).not.toEqual(expect.arrayContaining(['users']));
    expect(names.filter((n) => ['users', 'tokens', 'custom_fields', 'relationships', 'object_permissions', 'groups'].includes(n))).toEqual([]);
  });

  test('singular field by id; none, unknown or malformed id', async () => {
    let res = await gql('query ($id: ID!) { device(id: $id) { id name url created last_updated status { name slug } tags { name slug } } }', { id: ids.edge });
    expect(res.status).toBe(200);
    const d = res.body.data.device;
    expect(d).toMatchObject({ id: ids.edge, name: 'ams01-edge-01', url: `${app.baseUrl}/api/dcim/devices/${ids.edge}/`, status: { name: 'Active', slug: 'active' }, tags: [{ name: 'core', slug: 'core' }] });
    expect(d.created).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(d.last_updated).toMatch(/\+00:00$/);
    res = await gql('{ device { name } }');
    expect(res.body).toEqual({ data: { device: null } });
    res = await gql('{ device(id: "abc") { name } sites { slug } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ device: null, sites: [{ slug: 'ams01' }, { slug: 'atl01' }] });
    expect(res.body.errors[0]).toMatchObject({ path: ['device'] });
  });

  test('filters: lists, single literals, negations, q, limit and offset', async () => {
    let res = await gql('{ devices(site: ["ams01"]) { name } }');
    expect(res.body.data.devices.map((d: { name: string }) => d.name)).toEqual(['ams01-edge-01', 'ams01-sw-01']);
    res = await gql('{ devices(site: "atl01") { name } }');
    expect(res.body.data.devices).toEqual([{ name: 'atl01-sw-01' }]);
    res = await gql('{ devices(name__n: ["ams01-edge-01"], q: "ams") { name } }');
    expect(res.body.data.devices).toEqual([{ name: 'ams01-sw-01' }]);
    res = await gql('{ devices(limit: 1, offset: 1) { name } }');
    expect(res.body.data.devices).toEqual([{ name: 'ams01-sw-01' }]);
    res = await gql('{ devices(offset: -1) { name } }');
    expect(res.body.errors[0].message).toBe('Negative indexing is not supported.');
  });

  test('a bad filter value is a field error; the rest of the data stays', async () => {
    const res = await gql('{ devices(site: "nowhere") { name } sites { name } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ devices: null, sites: [{ name: 'AMS01' }, { name: 'ATL01' }] });
    expect(res.body.errors[0].message).toMatch(/^\{'site': \['/);
    expect(Object.keys(res.body)).toEqual(['errors', 'data']);
  });

  test('variables: list-typed, and the documented String! form keeps working', async () => {
    let res = await gql('query ($name: [String]) { sites(name: $name) { slug } }', { name: 'AMS01' });
    expect(res.body).toEqual({ data: { sites: [{ slug: 'ams01' }] } });
    res = await gql('query ($site_name:String!) {\n  sites (name: $site_name) {\n    slug\n  }\n}', { site_name: 'ATL01' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { sites: [{ slug: 'atl01' }] } });
    res = await gql('query ($n: Int) { sites(name: $n) { slug } }', { n: 1 });
    expect(res.status).toBe(400);
  });

  test('nested relations with filters; _type maps back to type', async () => {
    const res = await gql(`{ devices(name: "ams01-edge-01") {
      site { slug region { name } }
      interfaces(name: ["Ethernet1"]) { name type ip_addresses { address family host prefix_length } }
      all: interfaces { name }
      mgmt: interfaces(mgmt_only: true) { name }
      virtual: interfaces(_type: "virtual") { name }
      limited: interfaces(limit: 1, offset: 1) { name }
    } }`);
    expect(res.status).toBe(200);
    expect(res.body.data.devices).toEqual([
      {
        site: { slug: 'ams01', region: { name: 'Netherlands' } },
        interfaces: [{ name: 'Ethernet1', type: 'A_1000BASE_T', ip_addresses: [{ address: '10.0.0.1/31', family: 4, host: '10.0.0.1', prefix_length: 31 }] }],
        all: [{ name: 'Ethernet1' }, { name: 'Ethernet2' }],
        mgmt: [{ name: 'Ethernet2' }],
        virtual: [{ name: 'Ethernet2' }],
        limited: [{ name: 'Ethernet2' }],
      },
    ]);
  });

  test('the assigned-object union and reverse lists', async () => {
    const res = await gql('{ ip_addresses { address role assigned_object { ... on InterfaceType { name device { name } } } interface { name } vminterface { name } } sites(slug: "ams01") { devices { name } } }');
    expect(res.status).toBe(200);
    expect(res.body.data.ip_addresses).toEqual([{ address: '10.0.0.1/31', role: null, assigned_object: { name: 'Ethernet1', device: { name: 'ams01-edge-01' } }, interface: { name: 'Ethernet1' }, vminterface: null }]);
    expect(res.body.data.sites[0].devices.map((d: { name: string }) => d.name)).toEqual(['ams01-edge-01', 'ams01-sw-01']);
  });

  test('the other side of a many-to-many field', async () => {
    const vlan = await create('/api/ipam/vlans/', { vid: 200, name: 'users', status: 'active' });
    expect((await app.patch(`/api/dcim/interfaces/${ids.eth2}/`, { mode: 'tagged', tagged_vlans: [vlan] })).status).toBe(200);
    const res = await gql('{ vlans(vid: 200) { name interfaces_as_tagged { name mode } } interfaces(name: "Ethernet2") { tagged_vlans { vid } } }');
    expect(res.body).toEqual({ data: { vlans: [{ name: 'users', interfaces_as_tagged: [{ name: 'Ethernet2', mode: 'TAGGED' }] }], interfaces: [{ tagged_vlans: [{ vid: 200 }] }] } });
  });

  test('decimals as strings, config context as JSON', async () => {
    const res = await gql('{ sites(slug: "ams01") { latitude } devices(name: "ams01-sw-01") { config_context } }');
    expect(res.body.data.sites[0].latitude).toBe('12.345600');
    expect(res.body.data.devices[0].config_context).toEqual({});
  });

  test('custom fields as cf_<name>, computed fields as cpf_<slug>, defined while running', async () => {
    expect((await app.post('/api/extras/custom-fields/', { name: 'owner', type: 'text', content_types: ['dcim.device'] })).status).toBe(201);
    expect((await app.post('/api/extras/custom-fields/', { name: 'rank', type: 'integer', content_types: ['dcim.device'] })).status).toBe(201);
    expect((await app.post('/api/extras/computed-fields/', { content_type: 'dcim.device', slug: 'mgmt_fqdn', label: 'FQDN', template: '{{ obj.name }}.mgmt.example' })).status).toBe(201);
    expect((await app.patch(`/api/dcim/devices/${ids.edge}/`, { custom_fields: { owner: 'noc', rank: 3 } })).status).toBe(200);
    const res = await gql(`{ device(id: "${ids.edge}") { _custom_field_data cf_owner cf_rank cpf_mgmt_fqdn } }`);
    expect(res.body).toEqual({ data: { device: { _custom_field_data: { owner: 'noc', rank: 3 }, cf_owner: 'noc', cf_rank: 3, cpf_mgmt_fqdn: 'ams01-edge-01.mgmt.example' } } });
    const sdl = await app.get('/api/graphql/schema.graphql');
    expect(sdl.text).toMatch(/cf_rank: Int\n/);
  });

  test('relationships as rel_<slug>: objects or lists by cardinality, symmetric peers', async () => {
    const vlan = await create('/api/ipam/vlans/', { vid: 100, name: 'mgmt', status: 'active' });
    const siteVlans = await create('/api/extras/relationships/', { name: 'Site VLANs', slug: 'site-vlans', type: 'one-to-many', source_type: 'dcim.site', destination_type: 'ipam.vlan' });
    const peers = await create('/api/extras/relationships/', { name: 'Peer site', slug: 'peer-site', type: 'symmetric-one-to-one', source_type: 'dcim.site', destination_type: 'dcim.site' });
    await create('/api/extras/relationship-associations/', { relationship: siteVlans, source_type: 'dcim.site', source_id: ids.ams, destination_type: 'ipam.vlan', destination_id: vlan });
    await create('/api/extras/relationship-associations/', { relationship: peers, source_type: 'dcim.site', source_id: ids.ams, destination_type: 'dcim.site', destination_id: ids.atl });
    const res = await gql('{ sites(slug: "ams01") { name rel_site_vlans { vid name } rel_peer_site { name } } vlans(vid: 100) { name rel_site_vlans { name } } }');
    expect(res.body).toEqual({
      data: {
        sites: [{ name: 'AMS01', rel_site_vlans: [{ vid: 100, name: 'mgmt' }], rel_peer_site: { name: 'ATL01' } }],
        vlans: [{ name: 'mgmt', rel_site_vlans: { name: 'AMS01' } }],
      },
    });
  });

  test('the SDL is downloadable', async () => {
    const res = await app.get('/api/graphql/schema.graphql');
    expect(res.status).toBe(200);
    expect(res.text).toContain('type DeviceType {');
    expect(res.text).toContain('devices(');
  });
});
