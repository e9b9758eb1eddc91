/**
 * GraphQL reads are restricted exactly as REST lists (reference behaviour-graphql.md §6 and the
 * netinv recommendation there): root lists, singular fields, nested lists and optional nested
 * objects follow the caller's view permissions and their constraints; a hidden object reads as
 * null, a hidden list as empty; required relations stay visible as REST shows them nested.
 */
import { graphqlModels, graphqlSchema } from '../../framework/graphql/schema';
import { typeName } from '../../framework/graphql/names';
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
let limited: string;
const ids: Record<string, string> = {};

async function create(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await app.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

const gql = async (query: string, token: string = limited) => {
  const res = await app.post('/api/graphql/', { query }, token);
  if (res.status !== 200 || res.body.errors) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};

beforeAll(async () => {
  app = await startApp();
  const ams = await create('/api/dcim/sites/', { name: 'AMS01', slug: 'ams01', status: 'active' });
  const atl = await create('/api/dcim/sites/', { name: 'ATL01', slug: 'atl01', status: 'active' });
  const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Arista', slug: 'arista' });
  const type = await create('/api/dcim/device-types/', { manufacturer, model: 'DCS', slug: 'dcs' });
  const role = await create('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge', color: 'ff0000' });
  const platform = await create('/api/dcim/platforms/', { name: 'EOS', slug: 'eos' });
  const tag = await create('/api/extras/tags/', { name: 'core', slug: 'core', content_types: ['dcim.device'] });
  ids.edge = await create('/api/dcim/devices/', { name: 'ams-edge', device_type: type, device_role: role, site: ams, status: 'active', platform, tags: [tag] });
  ids.atl = await create('/api/dcim/devices/', { name: 'atl-edge', device_type: type, device_role: role, site: atl, status: 'active', platform });
  const eth1 = await create('/api/dcim/interfaces/', { device: ids.edge, name: 'Ethernet1', type: '1000base-t' });
  await create('/api/dcim/interfaces/', { device: ids.edge, name: 'Ethernet2', type: '1000base-t' });
  await create('/api/dcim/interfaces/', { device: ids.atl, name: 'Ethernet1', type: '1000base-t' });
  const ip = await create('/api/ipam/ip-addresses/', { address: '10.0.0.1/31', status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: eth1 });
  await app.patch(`/api/dcim/devices/${ids.edge}/`, { primary_ip4: ip });

  const user = await app.createUser('limited');
  limited = await app.createToken(user);
  const grant = (name: string, object_types: string[], constraints: unknown = null) =>
    create('/api/users/permissions/', { name, users: [user], object_types, actions: ['view'], constraints });
  await grant('ams devices', ['dcim.device'], { site__slug: 'ams01' });
  await grant('sites', ['dcim.site']);
  await grant('first interfaces', ['dcim.interface'], { name: 'Ethernet1' });
});
afterAll(async () => {
  await app?.close();
});

test('root lists and singular fields', async () => {
  expect(await gql('{ devices { name } }')).toEqual({ devices: [{ name: 'ams-edge' }] });
  expect(await gql(`{ device(id: "${ids.atl}") { name } }`)).toEqual({ device: null });
  expect(await gql('{ ip_addresses { address } platforms { name } }')).toEqual({ ip_addresses: [], platforms: [] });
});

test('nested lists: reverse foreign keys, generic relations, many-to-many', async () => {
  const data = await gql('{ sites { name devices { name interfaces { name ip_addresses { address } } tags { name } } } }');
  expect(data).toEqual({
    sites: [
      { name: 'AMS01', devices: [{ name: 'ams-edge', interfaces: [{ name: 'Ethernet1', ip_addresses: [] }], tags: [] }] },
      { name: 'ATL01', devices: [] },
    ],
  });
});

test('optional nested objects the caller may not view are null; required ones stay', async () => {
  const data = await gql('{ devices { primary_ip4 { address } platform { name } device_type { model } interfaces { device { name } } } }');
  expect(data).toEqual({ devices: [{ primary_ip4: null, platform: null, device_type: { model: 'DCS' }, interfaces: [{ device: { name: 'ams-edge' } }] }] });
  // The superuser sees them.
  const all = await gql('{ devices(name: "ams-edge") { primary_ip4 { address } platform { name } } }', app.token);
  expect(all).toEqual({ devices: [{ primary_ip4: { address: '10.0.0.1/31' }, platform: { name: 'EOS' } }] });
});

test('every root list shows exactly what the REST list shows', async () => {
  const registry = app.server.registry;
  const rootFields = graphqlSchema(registry).getQueryType()?.getFields() ?? {};
  for (const model of graphqlModels(registry)) {
    const rest = await app.get(`${model.listPath}?limit=0`, limited);
    const restIds = rest.status === 200 ? (rest.body.results as Array<{ id: unknown }>).map((o) => String(o.id)).sort() : [];
    const field = Object.keys(rootFields).find((name) => String(rootFields[name].type) === `[${typeName(model)}]`) as string;
    const data = await gql(`{ ${field} { id } }`);
    expect([model.label, (data[field] as Array<{ id: string }>).map((o) => o.id).sort()]).toEqual([model.label, restIds]);
  }
});
