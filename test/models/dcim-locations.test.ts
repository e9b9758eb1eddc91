/**
 * Location types and locations (models/dcim.md, behaviour-dcim.md §2.3, §6): the hierarchy
 * rules, slugs and displays built from the ancestors, the `location` field of the models that
 * take one, tree filters and what deleting a site, a location or a type does.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

let seq = 0;
const next = () => ++seq;

async function site(name = `Loc site ${next()}`): Promise<Obj> {
  return created(await app.post('/api/dcim/sites/', { name, status: 'active' }));
}

async function locationType(body: Obj): Promise<Obj> {
  return created(await app.post('/api/dcim/location-types/', body));
}

async function location(body: Obj): Promise<Obj> {
  return created(await app.post('/api/dcim/locations/', { status: 'active', ...body }));
}

const names = (res: { status: number; body: any }): string[] => {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.results.map((r: Obj) => r.name);
};

describe('dcim.locationtype', () => {
  test('as the Ansible collection creates them: parent, nestable, content types; display through the ancestors', async () => {
    const building = await locationType({ name: 'Building' });
    expect(building).toMatchObject({ name: 'Building', slug: 'building', parent: null, nestable: false, content_types: [], description: '' });
    const floor = await locationType({ name: 'Floor', parent: building.id, nestable: true, content_types: ['dcim.device'], description: 'Floors' });
    expect(floor).toMatchObject({ display: 'Building → Floor', content_types: ['dcim.device'], nestable: true });
    // As in Nautobot, the depth is computed on reads only.
    expect(floor.tree_depth).toBeNull();
    expect(floor.parent).toMatchObject({ id: building.id, display: 'Building', slug: 'building' });
    expect(Object.keys(floor)).toEqual([
      'id', 'display', 'url', 'name', 'slug', 'parent', 'nestable', 'content_types', 'description', 'tree_depth',
      'created', 'last_updated', 'notes_url', 'custom_fields', 'computed_fields', 'relationships',
    ]);
    const detail = (await app.get(`/api/dcim/location-types/${floor.id}/`)).body;
    expect(detail.tree_depth).toBe(1);
    expect(Object.keys((await app.get(`/api/dcim/location-types/${floor.id}/?brief=1`)).body)).toEqual(['id', 'display', 'url', 'name', 'slug', 'tree_depth']);
    expect(names(await app.get(`/api/dcim/location-types/?parent=building`))).toEqual(['Floor']);
    expect(names(await app.get(`/api/dcim/location-types/?content_types=dcim.device`))).toEqual(['Floor']);
  });

  test('reserved names, content types outside the locations feature', async () => {
    const reserved = await app.post('/api/dcim/location-types/', { name: 'Rack Groups' });
    expect(reserved.status).toBe(400);
    expect(reserved.body).toEqual({ name: ['This name is reserved for future use.'] });
    const bad = await app.post('/api/dcim/location-types/', { name: 'Hall', content_types: ['dcim.site'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ content_types: ['Invalid content type: dcim.site'] });
    const ok = await locationType({ name: 'Hall', content_types: ['dcim.rack', 'dcim.device', 'ipam.prefix'] });
    expect(ok.content_types).toEqual(['dcim.device', 'dcim.rack', 'ipam.prefix']);
  });

  test('a type in use keeps its parent and its nesting; deleting it is refused', async () => {
    const region = await locationType({ name: `Campus ${next()}`, nestable: true });
    const other = await locationType({ name: `Area ${next()}` });
    const s = await site();
    const outer = await location({ name: `Outer ${next()}`, location_type: region.id, site: s.id });
    const inner = await location({ name: `Inner ${next()}`, location_type: region.id, parent: outer.id });
    const moved = await app.patch(`/api/dcim/location-types/${region.id}/`, { parent: other.id });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({ parent: ['This LocationType currently has Locations using it, therefore its parent cannot be changed at this time.'] });
    const flat = await app.patch(`/api/dcim/location-types/${region.id}/`, { nestable: false });
    expect(flat.status).toBe(400);
    expect(Object.keys(flat.body)).toEqual(['nestable']);
    const del = await app.delete(`/api/dcim/location-types/${region.id}/`);
    expect(del.status).toBe(409);
    expect(del.body.detail).toMatch(/^Unable to delete object\. 2 dependent objects were found: /);
    expect(del.body.detail).toContain(`(${inner.id})`);
    expect(del.body.detail).toContain(`(${outer.id})`);
  });
});

describe('dcim.location', () => {
  test('hierarchy rules with their messages; slug from the parent; display; tree depth', async () => {
    const building = await locationType({ name: `Bldg ${next()}`, content_types: ['dcim.rack', 'dcim.device'] });
    const floor = await locationType({ name: `Flr ${next()}`, parent: building.id, content_types: ['dcim.rack', 'dcim.device', 'dcim.rackgroup'] });
    const s = await site();
    const noSite = await app.post('/api/dcim/locations/', { name: 'B1', status: 'active', location_type: building.id });
    expect(noSite.status).toBe(400);
    expect(noSite.body).toEqual({ site: [`A Location of type ${building.name} must have a Site.`] });
    const b1 = await location({ name: 'B1', location_type: building.id, site: s.id });
    expect(b1).toMatchObject({ slug: 'b1', display: 'B1' });
    const noParent = await app.post('/api/dcim/locations/', { name: 'F1', status: 'active', location_type: floor.id, site: s.id });
    expect(noParent.body).toEqual({ parent: [`A Location of type ${floor.name} must have a parent Location.`] });
    const withSite = await app.post('/api/dcim/locations/', { name: 'F1', status: 'active', location_type: floor.id, parent: b1.id, site: s.id });
    expect(withSite.body).toEqual({ site: [`A Location of type ${floor.name} must not have a Site, as it is a child of another Location.`] });
    const f1 = await location({ name: 'F1', location_type: floor.id, parent: b1.id });
    expect(f1).toMatchObject({ slug: 'b1-f1', display: 'B1 → F1', site: null });
    // Embedded locations carry no depth, as in Nautobot.
    expect(f1.parent).toEqual({ id: b1.id, display: 'B1', url: b1.url, name: 'B1', slug: 'b1', tree_depth: null });
    expect(names(await app.get(`/api/dcim/locations/?subtree=b1`))).toEqual(['B1', 'F1']);
    expect(names(await app.get(`/api/dcim/locations/?subtree=${f1.id}`))).toEqual(['F1']);
    expect(names(await app.get(`/api/dcim/locations/?child_location_type=${floor.slug}`))).toEqual(['B1']);
    expect(names(await app.get(`/api/dcim/locations/?base_site=${s.slug}`))).toEqual(['B1', 'F1']);
    expect(names(await app.get(`/api/dcim/locations/?base_site=${s.id}&name=F1`))).toEqual(['F1']);
    expect((await app.get(`/api/dcim/locations/${f1.id}/`)).body.tree_depth).toBe(1);
    const wrongParent = await app.post('/api/dcim/locations/', { name: 'F2', status: 'active', location_type: floor.id, parent: f1.id });
    expect(wrongParent.body).toEqual({ parent: [`A Location of type ${floor.name} can only have a Location of type ${building.name} as its parent.`] });
    const rootTwin = await app.post('/api/dcim/locations/', { name: 'B1', status: 'active', location_type: building.id, site: (await site()).id, slug: 'other-b1' });
    expect(rootTwin.body).toEqual({ name: ['A root-level location with this name already exists.'] });
    const childTwin = await app.post('/api/dcim/locations/', { name: 'F1', status: 'active', location_type: floor.id, parent: b1.id, slug: 'twin' });
    expect(childTwin.body).toEqual({ non_field_errors: ['The fields parent, name must make a unique set.'] });
    const retype = await app.patch(`/api/dcim/locations/${b1.id}/`, { location_type: floor.id });
    expect(retype.status).toBe(400);
    expect(Object.keys(retype.body)).toEqual(['location_type']);
    expect(names(await app.get(`/api/dcim/locations/?parent=b1`))).toEqual(['F1']);
    expect(names(await app.get(`/api/dcim/locations/?location_type=${floor.slug}&site=${s.slug}`))).toEqual([]);
    expect(names(await app.get(`/api/dcim/locations/?site=${s.slug}`))).toEqual(['B1']);
    expect(names(await app.get(`/api/dcim/locations/?content_type=dcim.rackgroup&parent_id=${b1.id}`))).toEqual(['F1']);
    expect(names(await app.get(`/api/dcim/sites/?has_locations=true&id=${s.id}`))).toEqual([s.name]);
  });

  test('location on racks, devices and prefixes: site and content types checked; the filter takes in descendants', async () => {
    const building = await locationType({ name: `Tower ${next()}`, content_types: ['dcim.rack', 'dcim.device', 'ipam.prefix'] });
    const room = await locationType({ name: `Room ${next()}`, parent: building.id, content_types: ['dcim.rack'] });
    const s = await site();
    const elsewhere = await site();
    const tower = await location({ name: `T${next()}`, location_type: building.id, site: s.id });
    const r1 = await location({ name: 'R1', location_type: room.id, parent: tower.id });
    const rack = await created(await app.post('/api/dcim/racks/', { name: 'In room', site: s.id, location: r1.id, status: 'active' }));
    expect(rack.location).toMatchObject({ id: r1.id, display: `${tower.name} → R1` });
    const away = await app.post('/api/dcim/racks/', { name: 'Away', site: elsewhere.id, location: r1.id, status: 'active' });
    expect(away.status).toBe(400);
    expect(away.body).toEqual({ location: [`Location "R1" does not belong to site "${elsewhere.name}".`] });
    const prefix = await app.post('/api/ipam/prefixes/', { prefix: '10.99.0.0/16', status: 'active', location: r1.id });
    expect(prefix.body).toEqual({ location: [`Prefixes may not associate to locations of type "${room.name}".`] });
    const p = await created(await app.post('/api/ipam/prefixes/', { prefix: '10.99.0.0/16', status: 'active', location: tower.id }));
    expect(p.location.id).toBe(tower.id);
    expect((await app.get(`/api/dcim/racks/?location=${tower.slug}`)).body.results.map((r: Obj) => r.name)).toEqual(['In room']);
    expect((await app.get(`/api/dcim/racks/?location_id=${tower.id}`)).body.count).toBe(1);
    expect((await app.get(`/api/dcim/racks/?location=${r1.slug}`)).body.count).toBe(1);
    expect((await app.get(`/api/ipam/prefixes/?location=${r1.slug}`)).body.count).toBe(0);
  });

  test('display of a deep tree: every ancestor however deep; a rename or a move rewrites the subtree, embedded too', async () => {
    const level = await locationType({ name: `Level ${next()}`, nestable: true, content_types: ['dcim.rack'] });
    const s = await site();
    const chain: Obj[] = [await location({ name: 'L0', location_type: level.id, site: s.id })];
    for (let i = 1; i < 11; i++) chain.push(await location({ name: `L${i}`, location_type: level.id, parent: chain[i - 1].id }));
    const path = (from: number, to: number, root = 'L0') => [root, ...Array.from({ length: to - from }, (_, i) => `L${from + i + 1}`)].join(' → ');
    expect(chain[10].display).toBe(path(0, 10));
    const rack = await created(await app.post('/api/dcim/racks/', { name: `Deep ${next()}`, site: s.id, location: chain[10].id, status: 'active' }));
    expect(rack.location.display).toBe(path(0, 10));

    // Renaming the root renames every display below it.
    expect((await app.patch(`/api/dcim/locations/${chain[0].id}/`, { name: 'Root' })).status).toBe(200);
    expect((await app.get(`/api/dcim/locations/${chain[10].id}/`)).body.display).toBe(path(0, 10, 'Root'));
    expect((await app.get(`/api/dcim/racks/${rack.id}/`)).body.location.display).toBe(path(0, 10, 'Root'));
    const listed = (await app.get(`/api/dcim/locations/?subtree=${chain[8].id}`)).body.results.map((r: Obj) => r.display);
    expect(listed).toEqual([path(0, 8, 'Root'), path(0, 9, 'Root'), path(0, 10, 'Root')]);

    // Moving L5 under a new root: L5's subtree takes the new ancestors, the rest keeps its own.
    const other = await location({ name: `Other ${next()}`, location_type: level.id, site: s.id });
    expect((await app.patch(`/api/dcim/locations/${chain[5].id}/`, { parent: other.id })).status).toBe(200);
    expect((await app.get(`/api/dcim/locations/${chain[10].id}/`)).body.display).toBe(`${other.name} → ${path(5, 10, 'L5')}`);
    expect((await app.get(`/api/dcim/locations/${chain[4].id}/`)).body.display).toBe(path(0, 4, 'Root'));
    expect((await app.get(`/api/dcim/racks/${rack.id}/`)).body.location.display).toBe(`${other.name} → ${path(5, 10, 'L5')}`);

    // Location types keep theirs the same way.
    const top = await locationType({ name: `Top ${next()}` });
    const mid = await locationType({ name: `Mid ${next()}`, parent: top.id });
    const low = await locationType({ name: `Low ${next()}`, parent: mid.id });
    expect(low.display).toBe(`${top.name} → ${mid.name} → ${low.name}`);
    expect((await app.patch(`/api/dcim/location-types/${mid.id}/`, { name: 'Middle' })).status).toBe(200);
    expect((await app.get(`/api/dcim/location-types/${low.id}/`)).body.display).toBe(`${top.name} → Middle → ${low.name}`);
    expect((await app.get(`/api/dcim/location-types/${low.id}/`)).body.parent.display).toBe(`${top.name} → Middle`);
  });

  test('deleting: a site with racks is refused naming them; its locations go with it; a location holding racks is refused', async () => {
    const type = await locationType({ name: `Wing ${next()}`, nestable: true, content_types: ['dcim.rack', 'dcim.rackgroup'] });
    const s = await site();
    const wing = await location({ name: `W${next()}`, location_type: type.id, site: s.id });
    const sub = await location({ name: `W-sub ${next()}`, location_type: type.id, parent: wing.id });
    const group = await created(await app.post('/api/dcim/rack-groups/', { name: 'Hall', site: s.id, location: wing.id }));
    const rack = await created(await app.post('/api/dcim/racks/', { name: 'R-del', site: s.id, location: sub.id, status: 'active' }));
    const byLocation = await app.delete(`/api/dcim/locations/${wing.id}/`);
    expect(byLocation.status).toBe(409);
    expect(byLocation.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: R-del (${rack.id})` });
    const bySite = await app.delete(`/api/dcim/sites/${s.id}/`);
    expect(bySite.status).toBe(409);
    expect(bySite.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: R-del (${rack.id})` });
    expect((await app.delete(`/api/dcim/racks/${rack.id}/`)).status).toBe(204);
    expect((await app.delete(`/api/dcim/sites/${s.id}/`)).status).toBe(204);
    for (const path of [`locations/${wing.id}`, `locations/${sub.id}`, `rack-groups/${group.id}`]) {
      expect((await app.get(`/api/dcim/${path}/`)).status).toBe(404);
    }
  });

  test('the device set-up of the Ansible integration fixture', async () => {
    const parentType = await locationType({ name: 'My Parent Location Type', slug: 'my-parent-location-type', nestable: true });
    await locationType({ name: 'My Child Location Type', slug: 'my-child-location-type', nestable: true, parent: parentType.id });
    const testSite = await site('Test Site');
    const site2 = await site('Test Site2');
    const groups = await app.post('/api/dcim/rack-groups/', [
      { name: 'Test Rack Group', slug: 'test-rack-group', site: testSite.id },
      { name: 'Parent Rack Group', slug: 'parent-rack-group', site: testSite.id },
    ]);
    expect(groups.status).toBe(201);
    const [g1, g2] = groups.body as Obj[];
    expect((await app.patch(`/api/dcim/rack-groups/${g1.id}/`, { parent: g2.id })).status).toBe(200);
    const role = await created(await app.post('/api/dcim/rack-roles/', { name: 'Test Rack Role', slug: 'test-rack-role', color: '4287f5' }));
    const racks = await app.post('/api/dcim/racks/', [
      { name: 'Test Rack Site 2', site: site2.id, role: role.id, status: 'active' },
      { name: 'Test Rack', site: testSite.id, group: g1.id, status: 'active' },
    ]);
    expect(racks.status).toBe(201);
    const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' }));
    const ciscoTest = await created(await app.post('/api/dcim/device-types/', { model: 'Cisco Test', slug: 'cisco-test', manufacturer: manufacturer.id }));
    const parent = await created(await app.post('/api/dcim/device-types/', { model: 'Nexus Parent', slug: 'nexus-parent', u_height: 0, manufacturer: manufacturer.id, subdevice_role: 'parent' }));
    const child = await created(await app.post('/api/dcim/device-types/', { model: 'Nexus Child', slug: 'nexus-child', u_height: 0, manufacturer: manufacturer.id, subdevice_role: 'child' }));
    const coreSwitch = await created(await app.post('/api/dcim/device-roles/', { name: 'Core Switch', slug: 'core-switch', color: 'aa1409', vm_role: false }));
    const testRack = (await app.get('/api/dcim/racks/?name=Test%20Rack')).body.results[0] as Obj;
    const rackSite2 = (await app.get('/api/dcim/racks/?name=Test%20Rack%20Site%202')).body.results[0] as Obj;
    const devices = await app.post('/api/dcim/devices/', [
      { name: 'test100', device_type: ciscoTest.id, device_role: coreSwitch.id, site: testSite.id, local_context_data: { ntp_servers: ['pool.ntp.org'] }, status: 'active' },
      { name: 'TestDeviceR1', device_type: ciscoTest.id, device_role: coreSwitch.id, site: testSite.id, rack: testRack.id, status: 'active' },
      { name: 'R1-Device', device_type: ciscoTest.id, device_role: coreSwitch.id, site: site2.id, rack: rackSite2.id, status: 'active' },
      { name: 'Test Nexus One', device_type: parent.id, device_role: coreSwitch.id, site: testSite.id, status: 'active' },
      { name: 'Test Nexus Child One', device_type: child.id, device_role: coreSwitch.id, site: testSite.id, status: 'active' },
    ]);
    expect(devices.status).toBe(201);
    const r1 = (devices.body as Obj[])[1];
    expect(r1).toMatchObject({ location: null, position: null, face: null });
    expect(r1.rack).toMatchObject({ id: testRack.id, name: 'Test Rack', display: 'Test Rack' });
    expect(Object.keys(r1).slice(0, 14)).toEqual([
      'id', 'display', 'url', 'name', 'device_type', 'device_role', 'tenant', 'platform', 'serial', 'asset_tag', 'site', 'location', 'rack', 'position',
    ]);
    expect((await app.get(`/api/dcim/racks/${testRack.id}/`)).body.device_count).toBe(1);
    expect((await app.get(`/api/dcim/rack-groups/${g2.id}/`)).body).toMatchObject({ rack_count: 1, _depth: 0 });
    expect((await app.get(`/api/dcim/rack-groups/${g1.id}/`)).body).toMatchObject({ rack_count: 1, _depth: 1 });
    expect((await app.get(`/api/dcim/devices/?rack_group_id=${g2.id}`)).body.results.map((d: Obj) => d.name)).toEqual(['TestDeviceR1']);
    expect((await app.get(`/api/dcim/devices/?rack_id=${rackSite2.id}`)).body.results.map((d: Obj) => d.name)).toEqual(['R1-Device']);
  });
});
