/**
 * Dynamic groups and their memberships: filter validation, members computed live by the member
 * model's filter set (following object changes, restricted by view permissions), groups of
 * groups combined by weight and operator, and the membership rules (no loops).
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile({ NETINV_LOG_LEVEL: 'error' });

type Obj = Record<string, any>;
const GROUPS = '/api/extras/dynamic-groups/';
const MEMBERSHIPS = '/api/extras/dynamic-group-memberships/';
const DEVICES = '/api/dcim/devices/';

async function made(path: string, body: Obj): Promise<Obj> {
  const res = await app.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

let seq = 0;
const group = (filter: Obj, extra: Obj = {}) => made(GROUPS, { name: `Group ${++seq}`, content_type: 'dcim.device', filter, ...extra });
const member = (parent: Obj, child: Obj, operator: string, weight: number) =>
  made(MEMBERSHIPS, { parent_group: parent.id, group: child.id, operator, weight });

async function memberNames(g: Obj, token?: string): Promise<string[]> {
  const res = await app.get(`${GROUPS}${g.id}/members/?limit=0`, token);
  if (res.status !== 200) throw new Error(`members: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.results.map((d: Obj) => d.name).sort();
}

let ams: Obj;
let fra: Obj;
let deviceBase: Obj;
beforeAll(async () => {
  ams = await made('/api/dcim/sites/', { name: 'ams01', status: 'active' });
  fra = await made('/api/dcim/sites/', { name: 'fra01', status: 'active' });
  const maker = await made('/api/dcim/manufacturers/', { name: 'Maker' });
  const type = await made('/api/dcim/device-types/', { manufacturer: maker.id, model: 'Box' });
  const leaf = await made('/api/dcim/device-roles/', { name: 'leaf' });
  const spine = await made('/api/dcim/device-roles/', { name: 'spine' });
  deviceBase = { device_type: type.id, leaf: leaf.id, spine: spine.id };
  // d1 active ams leaf, d2 active fra spine, d3 planned ams spine, d4 planned fra leaf
  for (const [name, status, site, role] of [
    ['d1', 'active', ams, leaf], ['d2', 'active', fra, spine], ['d3', 'planned', ams, spine], ['d4', 'planned', fra, leaf],
  ] as const) {
    await made(DEVICES, { name, status, site: site.id, device_type: type.id, device_role: role.id });
  }
});

describe('filter validation', () => {
  test('the filter must be an object of known filters with valid values', async () => {
    const bad = async (filter: unknown) => {
      const res = await app.post(GROUPS, { name: `Bad ${++seq}`, content_type: 'dcim.device', filter });
      expect(res.status).toBe(400);
      return res.body;
    };
    expect(await bad(['site'])).toEqual({ filter: ['Filter must be a dict'] });
    expect(await bad({ bogus: ['x'] })).toEqual({ bogus: ['Unknown filter field'] });
    expect(await bad({ site: ['nowhere'] })).toEqual({ site: ['Select a valid choice. nowhere is not one of the available choices.'] });
    expect((await app.post(GROUPS, { name: 'Cables', content_type: 'dcim.cable', filter: {} })).body).toEqual({ content_type: ['Invalid content type: dcim.cable'] });
  });

  test('a valid group is stored as written; its content type cannot change', async () => {
    const g = await group({ site: 'ams01', status: ['active'] }, { description: 'edge' });
    expect(g).toMatchObject({ slug: `group-${seq}`, content_type: 'dcim.device', filter: { site: 'ams01', status: ['active'] }, children: [], description: 'edge' });
    const res = await app.patch(`${GROUPS}${g.id}/`, { content_type: 'dcim.rack' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ content_type: ['ContentType cannot be changed once created'] });
    expect((await app.patch(`${GROUPS}${g.id}/`, { filter: { status: ['nonsense'] } })).status).toBe(400);
  });
});

describe('members', () => {
  test('follow object changes, paginated and rendered without config_context', async () => {
    const g = await group({ site: ['ams01'] });
    expect(await memberNames(g)).toEqual(['d1', 'd3']);
    const d5 = await made(DEVICES, { name: 'd5', status: 'active', site: fra.id, device_type: deviceBase.device_type, device_role: deviceBase.leaf });
    expect(await memberNames(g)).toEqual(['d1', 'd3']);
    expect((await app.patch(`${DEVICES}${d5.id}/`, { site: ams.id })).status).toBe(200);
    expect(await memberNames(g)).toEqual(['d1', 'd3', 'd5']);
    // Filters on the members URL are ignored; paging works as on a list.
    const page = await app.get(`${GROUPS}${g.id}/members/?limit=2&name=d1`);
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(3);
    expect(page.body.results).toHaveLength(2);
    expect(page.body.next).toContain('offset=2');
    expect(page.body.results[0]).toMatchObject({ name: 'd1', site: { id: ams.id } });
    expect(page.body.results[0]).not.toHaveProperty('config_context');
    expect((await app.delete(`${DEVICES}${d5.id}/`)).status).toBe(204);
    expect(await memberNames(g)).toEqual(['d1', 'd3']);
    // A changed filter changes the members.
    expect((await app.patch(`${GROUPS}${g.id}/`, { filter: { site: ['fra01'], status: 'planned' } })).status).toBe(200);
    expect(await memberNames(g)).toEqual(['d4']);
  });

  test('a filter made stale by a deleted object selects nothing and breaks no list', async () => {
    const gone = await made('/api/dcim/sites/', { name: 'gone01', status: 'active' });
    const g = await group({ site: ['gone01'] });
    await made('/api/extras/config-contexts/', { name: 'stale ctx', dynamic_groups: [g.id], data: { stale: true } });
    expect((await app.delete(`/api/dcim/sites/${gone.id}/`)).status).toBe(204);
    expect(await memberNames(g)).toEqual([]);
    const devices = await app.get(`${DEVICES}?limit=0`);
    expect(devices.status).toBe(200);
    expect(devices.body.results.every((d: Obj) => d.config_context.stale === undefined)).toBe(true);
    const ctx = (await app.get('/api/extras/config-contexts/?name=stale ctx')).body.results[0];
    expect((await app.delete(`/api/extras/config-contexts/${ctx.id}/`)).status).toBe(204);
  });

  test('respect the view constraints on the member model', async () => {
    const g = await group({ status: ['active', 'planned'] });
    const id = await app.createUser('dg-viewer');
    const key = await app.createToken(id);
    await made('/api/users/permissions/', { name: 'dg groups', users: [id], object_types: ['extras.dynamicgroup'], actions: ['view'] });
    // No view permission on devices at all: no members.
    expect(await memberNames(g, key)).toEqual([]);
    await made('/api/users/permissions/', { name: 'dg devices', users: [id], object_types: ['dcim.device'], actions: ['view'], constraints: { site__slug: 'fra01' } });
    expect(await memberNames(g, key)).toEqual(['d2', 'd4']);
    expect(await memberNames(g)).toEqual(['d1', 'd2', 'd3', 'd4']);
  });
});

describe('groups of groups', () => {
  let active: Obj;
  let amsGroup: Obj;
  let spineGroup: Obj;
  beforeAll(async () => {
    active = await group({ status: ['active'] });
    amsGroup = await group({ site: ['ams01'] });
    spineGroup = await group({ role: ['spine'] });
  });

  test('((A) OR B) AND NOT C in weight order', async () => {
    const parent = await group({});
    // Written out of order: weight decides.
    await member(parent, spineGroup, 'difference', 30);
    await member(parent, active, 'intersection', 10);
    await member(parent, amsGroup, 'union', 20);
    // (active: d1 d2) OR (ams: d1 d3) = d1 d2 d3; minus spine (d2 d3) = d1
    expect(await memberNames(parent)).toEqual(['d1']);
    const read = await app.get(`${GROUPS}${parent.id}/`);
    expect(read.body.children.map((c: Obj) => [c.operator, c.weight, c.group.id])).toEqual([
      ['intersection', 10, active.id], ['union', 20, amsGroup.id], ['difference', 30, spineGroup.id],
    ]);
  });

  test('a first difference means everything but; intersection restricts; nesting is recursive', async () => {
    const notSpine = await group({});
    await member(notSpine, spineGroup, 'difference', 10);
    expect(await memberNames(notSpine)).toEqual(['d1', 'd4']);
    const outer = await group({});
    await member(outer, notSpine, 'union', 10);
    await member(outer, amsGroup, 'intersection', 20);
    expect(await memberNames(outer)).toEqual(['d1']);
    const either = await group({});
    await member(either, active, 'union', 5);
    await member(either, amsGroup, 'union', 6);
    expect(await memberNames(either)).toEqual(['d1', 'd2', 'd3']);
    // Nested members follow changes of the child's filter.
    expect((await app.patch(`${GROUPS}${spineGroup.id}/`, { filter: { role: ['leaf'] } })).status).toBe(200);
    expect(await memberNames(notSpine)).toEqual(['d2', 'd3']);
    expect(await memberNames(outer)).toEqual(['d3']);
    expect((await app.patch(`${GROUPS}${spineGroup.id}/`, { filter: { role: ['spine'] } })).status).toBe(200);
  });

  test('membership rules: no filter on the parent, same type, no self, no loops, unique', async () => {
    const refuse = async (body: Obj) => {
      const res = await app.post(MEMBERSHIPS, { operator: 'union', weight: 10, ...body });
      expect(res.status).toBe(400);
      return res.body;
    };
    expect(await refuse({ parent_group: active.id, group: amsGroup.id })).toEqual({
      parent_group: ['A parent group may have either a filter or child groups, but not both. Clear the parent filter and try again.'],
    });
    const a = await group({});
    const b = await group({});
    const c = await group({});
    const racks = await made(GROUPS, { name: 'Racks', content_type: 'dcim.rack', filter: {} });
    expect(await refuse({ parent_group: a.id, group: racks.id })).toEqual({ group: ['ContentType for group and parent_group must match'] });
    expect(await refuse({ parent_group: a.id, group: a.id })).toEqual({ group: ['Cannot add group as a child of itself'] });
    await member(a, b, 'union', 10);
    await member(b, c, 'union', 10);
    expect(await refuse({ parent_group: c.id, group: a.id })).toEqual({ group: ['Cannot add ancestor as a child'] });
    expect(await refuse({ parent_group: b.id, group: a.id })).toEqual({ group: ['Cannot add ancestor as a child'] });
    expect(await refuse({ parent_group: a.id, group: b.id })).toEqual({ non_field_errors: ['The fields group, parent_group, operator, weight must make a unique set.'] });
    // A child cannot be deleted; deleting a parent deletes its memberships.
    const del = await app.delete(`${GROUPS}${c.id}/`);
    expect(del.status).toBe(409);
    expect(del.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: ${b.name} (${b.id})` });
    expect((await app.delete(`${GROUPS}${a.id}/`)).status).toBe(204);
    expect((await app.get(`${MEMBERSHIPS}?group=${b.id}`)).body.count).toBe(0);
    expect((await app.get(`${MEMBERSHIPS}?group=${c.slug}`)).body.results.map((m: Obj) => m.display)).toEqual([`${b.name} > union (10) > ${c.name}`]);
  });
});

describe('config contexts', () => {
  test('a context assigned to a dynamic group applies to its member devices only, following changes', async () => {
    const g = await group({ site: ['ams01'], status: ['active'] });
    const ctx = await made('/api/extras/config-contexts/', { name: 'dg ctx', dynamic_groups: [g.id], data: { ntp: 'ams' } });
    expect(ctx.dynamic_groups.map((x: Obj) => x.id)).toEqual([g.id]);
    const byName = async () => {
      const res = await app.get(`${DEVICES}?limit=0`);
      return Object.fromEntries(res.body.results.map((d: Obj) => [d.name, d.config_context.ntp ?? null]));
    };
    expect(await byName()).toMatchObject({ d1: 'ams', d2: null, d3: null, d4: null });
    const d3 = (await app.get(`${DEVICES}?name=d3`)).body.results[0];
    expect((await app.patch(`${DEVICES}${d3.id}/`, { status: 'active' })).status).toBe(200);
    expect(await byName()).toMatchObject({ d1: 'ams', d2: null, d3: 'ams', d4: null });
    expect((await app.get(`${DEVICES}${d3.id}/`)).body.config_context).toEqual({ ntp: 'ams' });
    expect((await app.patch(`${DEVICES}${d3.id}/`, { status: 'planned' })).status).toBe(200);
    expect(await byName()).toMatchObject({ d3: null });
    expect((await app.delete(`/api/extras/config-contexts/${ctx.id}/`)).status).toBe(204);
  });
});
