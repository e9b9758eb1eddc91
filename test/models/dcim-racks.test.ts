/**
 * Racks, rack groups, rack roles and reservations, device placement and rack elevations
 * (models/dcim.md, behaviour-dcim.md §2.1, §2.3, §2.4, §5, §6), with Nautobot's exact 400 bodies.
 */
import { Browser, chromiumPath } from '../helpers/chromium';
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';
import { allElements, parseXml } from '../helpers/xml';

const app = appForThisFile();

let seq = 0;
const next = () => ++seq;

async function site(): Promise<Obj> {
  return created(await app.post('/api/dcim/sites/', { name: `Rack site ${next()}`, status: 'active' }));
}

async function rack(body: Obj): Promise<Obj> {
  return created(await app.post('/api/dcim/racks/', { name: `Rack ${next()}`, status: 'active', ...body }));
}

interface Kit { site: Obj; rack: Obj; role: Obj; type2u: Obj; half1u: Obj; zero: Obj; child: Obj }

/** A site, a 42U rack and device types: 2U full depth, 1U half depth, 0U, child. */
async function kit(rackBody: Obj = {}): Promise<Kit> {
  const s = await site();
  const r = await rack({ site: s.id, ...rackBody });
  const m = await created(await app.post('/api/dcim/manufacturers/', { name: `Rack vendor ${next()}` }));
  const type2u = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: `Big ${next()}`, u_height: 2 }));
  const half1u = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: `Half ${next()}`, u_height: 1, is_full_depth: false }));
  const zero = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: `Zero ${next()}`, u_height: 0 }));
  const child = await created(await app.post('/api/dcim/device-types/', { manufacturer: m.id, model: `Blade ${next()}`, u_height: 0, subdevice_role: 'child' }));
  const role = await created(await app.post('/api/dcim/device-roles/', { name: `Rack role ${next()}`, color: '2196f3' }));
  return { site: s, rack: r, role, type2u, half1u, zero, child };
}

const place = (k: Kit, body: Obj) =>
  app.post('/api/dcim/devices/', { device_role: k.role.id, site: k.site.id, status: 'active', device_type: k.type2u.id, ...body });

describe('dcim.rack', () => {
  test('fields, defaults, display and choices as the Ansible rack module writes them', async () => {
    const s = await site();
    const r = await rack({ name: 'Test rack one', site: s.id, status: 'available' });
    expect(r).toMatchObject({
      display: 'Test rack one', facility_id: null, location: null, group: null, tenant: null, role: null, serial: '', asset_tag: null,
      type: null, width: { value: 19, label: '19 inches' }, u_height: 42, desc_units: false, outer_width: null, outer_depth: null,
      outer_unit: null, comments: '', device_count: 0, powerfeed_count: 0, status: { value: 'available', label: 'Available' },
    });
    expect(Object.keys(r)).toEqual([
      'id', 'display', 'url', 'name', 'facility_id', 'site', 'location', 'group', 'tenant', 'status', 'role', 'serial', 'asset_tag', 'type', 'width',
      'u_height', 'desc_units', 'outer_width', 'outer_depth', 'outer_unit', 'comments', 'device_count', 'powerfeed_count',
      'created', 'last_updated', 'tags', 'notes_url', 'custom_fields', 'computed_fields', 'relationships',
    ]);
    const group = await created(await app.post('/api/dcim/rack-groups/', { name: 'Test Rack Group', site: s.id }));
    const role = await created(await app.post('/api/dcim/rack-roles/', { name: `Test Rack Role ${next()}`, color: '4287f5' }));
    const changed = await app.patch(`/api/dcim/racks/${r.id}/`, {
      group: group.id, role: role.id, facility_id: 'EQUI10291', serial: 'FXS10001', asset_tag: '1234', width: 23, u_height: 48,
      type: '2-post-frame', outer_width: 32, outer_depth: 24, outer_unit: 'in', comments: 'Just testing rack module',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      display: 'Test rack one (EQUI10291)', width: { value: 23, label: '23 inches' }, type: { value: '2-post-frame', label: '2-post frame' },
      outer_unit: { value: 'in', label: 'Inches' }, u_height: 48,
    });
    expect(Object.keys((await app.get(`/api/dcim/racks/${r.id}/?brief=1`)).body)).toEqual(['id', 'display', 'url', 'name', 'device_count']);
    const twin = await app.post('/api/dcim/racks/', { name: 'Test rack two', site: s.id, serial: 'FXS10001', asset_tag: '1234', status: 'available' });
    expect(twin.status).toBe(400);
    expect(twin.body).toEqual({ asset_tag: ['rack with this Asset tag already exists.'] });
    const sameName = await app.post('/api/dcim/racks/', { name: 'Test rack one', site: s.id, group: group.id, status: 'active' });
    expect(sameName.body).toEqual({ non_field_errors: ['The fields group, name must make a unique set.'] });
    // Racks without a group may share names, even in one site.
    await rack({ name: 'Test rack one', site: s.id });
    const options = (await app.options('/api/dcim/racks/')).body.actions.POST;
    expect(options.type.choices.map((c: Obj) => c.display)).toContain('2-post frame');
    expect(options.outer_unit.choices).toEqual([{ value: 'mm', display: 'Millimeters' }, { value: 'in', display: 'Inches' }]);
    expect((await app.get(`/api/dcim/racks/?role=${role.slug}`)).body.results.map((x: Obj) => x.id)).toEqual([r.id]);
    expect((await app.get(`/api/dcim/racks/?serial=fxs10001`)).body.count).toBe(1);
    expect((await app.get(`/api/dcim/racks/?q=EQUI102`)).body.count).toBe(1);
  });

  test('group and site, outer dimensions, height limits', async () => {
    const a = await site();
    const b = await site();
    const group = await created(await app.post('/api/dcim/rack-groups/', { name: 'Row', site: a.id }));
    const wrong = await app.post('/api/dcim/racks/', { name: 'X', site: b.id, group: group.id, status: 'active' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ __all__: [`Assigned rack group must belong to parent site (${b.name}).`] });
    const noUnit = await app.post('/api/dcim/racks/', { name: 'X', site: a.id, outer_width: 600, status: 'active' });
    expect(noUnit.body).toEqual({ __all__: ['Must specify a unit when setting an outer width/depth'] });
    const tall = await app.post('/api/dcim/racks/', { name: 'X', site: a.id, u_height: 101, status: 'active' });
    expect(tall.body).toEqual({ u_height: ['Ensure this value is less than or equal to 100.'] });
    const unitOnly = await rack({ site: a.id, outer_unit: 'mm' });
    expect(unitOnly.outer_unit).toEqual({ value: 'mm', label: 'Millimeters' });
    expect((await app.patch(`/api/dcim/racks/${unitOnly.id}/`, { comments: 'x' })).body.outer_unit).toBeNull();
    const resent = await app.patch(`/api/dcim/racks/${unitOnly.id}/`, { outer_unit: 'in' });
    expect(resent.body.outer_unit).toEqual({ value: 'in', label: 'Inches' });
  });

  test('a rack cannot shrink below its highest device; deleting it is refused while devices sit in it, reservations go with it', async () => {
    const k = await kit();
    const d = await created(await place(k, { name: `high ${next()}`, rack: k.rack.id, position: 30, face: 'front' }));
    const shrink = await app.patch(`/api/dcim/racks/${k.rack.id}/`, { u_height: 30 });
    expect(shrink.status).toBe(400);
    expect(shrink.body).toEqual({ u_height: ['Rack must be at least 31U tall to house currently installed devices.'] });
    expect((await app.patch(`/api/dcim/racks/${k.rack.id}/`, { u_height: 31 })).status).toBe(200);
    const reservation = await created(await app.post('/api/dcim/rack-reservations/', { rack: k.rack.id, units: [1, 2], user: app.adminId, description: 'spare' }));
    const refused = await app.delete(`/api/dcim/racks/${k.rack.id}/`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: ${d.name} (${d.id})` });
    expect((await app.delete(`/api/dcim/devices/${d.id}/`)).status).toBe(204);
    expect((await app.delete(`/api/dcim/racks/${k.rack.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/rack-reservations/${reservation.id}/`)).status).toBe(404);
  });
});

describe('moving racks and groups', () => {
  test('devices follow their rack, racks and child groups follow their group, to the new site and location', async () => {
    const k = await kit();
    const d = await created(await place(k, { name: `mover ${next()}`, rack: k.rack.id, position: 1, face: 'front' }));
    const target = await site();
    const type = await created(await app.post('/api/dcim/location-types/', { name: `Suite ${next()}`, content_types: ['dcim.rack', 'dcim.rackgroup'] }));
    const suite = await created(await app.post('/api/dcim/locations/', { name: `S${next()}`, status: 'active', location_type: type.id, site: target.id }));
    expect((await app.patch(`/api/dcim/racks/${k.rack.id}/`, { site: target.id, location: suite.id })).status).toBe(200);
    // Devices may not sit at locations of this type: they keep no location.
    expect((await app.get(`/api/dcim/devices/${d.id}/`)).body).toMatchObject({ site: { id: target.id }, location: null });
    const logged = (await app.get(`/api/extras/object-changes/?changed_object_id=${d.id}`)).body.results as Obj[];
    expect(logged.map((c) => c.action.value)).toEqual(['update', 'create']);
    expect(logged[0].object_data.site).toBe(target.id);
    const hall = await created(await app.post('/api/dcim/rack-groups/', { name: `Hall ${next()}`, site: k.site.id }));
    const row = await created(await app.post('/api/dcim/rack-groups/', { name: `Row ${next()}`, site: k.site.id, parent: hall.id }));
    const r = await rack({ site: k.site.id, group: row.id });
    const d2 = await created(await place(k, { name: `rowdev ${next()}`, rack: r.id }));
    expect((await app.patch(`/api/dcim/rack-groups/${hall.id}/`, { site: target.id, location: suite.id })).status).toBe(200);
    expect((await app.get(`/api/dcim/rack-groups/${row.id}/`)).body).toMatchObject({ site: { id: target.id }, location: null });
    expect((await app.get(`/api/dcim/racks/${r.id}/`)).body).toMatchObject({ site: { id: target.id }, location: null });
    expect((await app.get(`/api/dcim/devices/${d2.id}/`)).body.site.id).toBe(target.id);
  });
});

describe('dcim.rackgroup and dcim.rackrole', () => {
  test('groups: slug, parent in the same site, cumulative rack count, tree order; deleting a group ungroups its racks', async () => {
    const s = await site();
    const other = await site();
    const hall = await created(await app.post('/api/dcim/rack-groups/', { name: 'Rack Group', site: s.id }));
    expect(hall).toMatchObject({ slug: 'rack-group', parent: null, rack_count: 0, _depth: 0, location: null });
    const row = await created(await app.post('/api/dcim/rack-groups/', { name: 'A Row', site: s.id, parent: hall.id }));
    expect(row.parent).toMatchObject({ id: hall.id, _depth: 0 });
    const away = await app.post('/api/dcim/rack-groups/', { name: 'Away', site: other.id, parent: hall.id });
    expect(away.status).toBe(400);
    expect(away.body).toEqual({ __all__: [`Parent rack group (Rack Group) must belong to the same site (${other.name})`] });
    const r = await rack({ site: s.id, group: row.id });
    expect((await app.get(`/api/dcim/rack-groups/${hall.id}/`)).body.rack_count).toBe(1);
    const list = (await app.get(`/api/dcim/rack-groups/?site_id=${s.id}`)).body.results.map((g: Obj) => g.name);
    expect(list).toEqual(['Rack Group', 'A Row']);
    expect((await app.get(`/api/dcim/racks/?group=${hall.slug}`)).body.results.map((x: Obj) => x.id)).toEqual([r.id]);
    await created(await app.post('/api/dcim/rack-groups/', { name: 'Shelf', site: s.id, parent: row.id }));
    // `parent` names the parent itself; `children` the groups right below.
    expect((await app.get(`/api/dcim/rack-groups/?parent=${hall.slug}`)).body.results.map((g: Obj) => g.name)).toEqual(['A Row']);
    expect((await app.get(`/api/dcim/rack-groups/?children=${row.slug}`)).body.results.map((g: Obj) => g.name)).toEqual(['Rack Group']);
    expect((await app.delete(`/api/dcim/rack-groups/${hall.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/rack-groups/${row.id}/`)).status).toBe(404);
    expect((await app.get(`/api/dcim/racks/${r.id}/`)).body.group).toBeNull();
  });

  test('roles: colour, count, protection', async () => {
    const role = await created(await app.post('/api/dcim/rack-roles/', { name: 'Rack Role', color: 'ffffff' }));
    expect(role).toMatchObject({ slug: 'rack-role', color: 'ffffff', description: '', rack_count: 0 });
    const bad = await app.patch(`/api/dcim/rack-roles/${role.id}/`, { color: '003EFF' });
    expect(bad.body).toEqual({ color: ['Enter a valid hexadecimal RGB color code.'] });
    const r = await rack({ site: (await site()).id, role: role.id });
    expect((await app.get(`/api/dcim/rack-roles/${role.id}/`)).body.rack_count).toBe(1);
    const del = await app.delete(`/api/dcim/rack-roles/${role.id}/`);
    expect(del.status).toBe(409);
    expect(del.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: ${r.name} (${r.id})` });
  });
});

describe('dcim.rackreservation', () => {
  test('units inside the rack and not reserved twice; the creator is the requesting user', async () => {
    const k = await kit({ u_height: 10 });
    const other = await app.createUser(`reserver${next()}`);
    const first = await created(await app.post('/api/dcim/rack-reservations/', { rack: k.rack.id, units: [1, 2, 3], user: other, description: 'first' }));
    expect(first.user.id).toBe(app.adminId);
    expect(first).toMatchObject({ units: [1, 2, 3], display: `Reservation for rack ${k.rack.name}`, tenant: null });
    const outside = await app.post('/api/dcim/rack-reservations/', { rack: k.rack.id, units: [9, 11, 12], user: app.adminId, description: 'x' });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ units: ['Invalid unit(s) for 10U rack: 11, 12'] });
    const overlap = await app.post('/api/dcim/rack-reservations/', { rack: k.rack.id, units: [3, 4, 1], user: app.adminId, description: 'x' });
    expect(overlap.body).toEqual({ units: ['The following units have already been reserved: 3, 1'] });
    const blank = await app.post('/api/dcim/rack-reservations/', { rack: k.rack.id, units: [5], user: app.adminId, description: '' });
    expect(blank.body).toEqual({ description: ['This field may not be blank.'] });
    expect((await app.patch(`/api/dcim/rack-reservations/${first.id}/`, { units: [1, 2, 3, 4] })).status).toBe(200);
    expect((await app.get(`/api/dcim/rack-reservations/?site=${k.site.slug}`)).body.count).toBe(1);
    expect((await app.get(`/api/dcim/rack-reservations/?user=admin&rack_id=${k.rack.id}`)).body.count).toBe(1);
  });
});

describe('device placement', () => {
  test('rules in Nautobot order with their messages', async () => {
    const k = await kit();
    const elsewhere = await site();
    const cases: Array<[Obj, Obj]> = [
      [{ rack: k.rack.id, site: elsewhere.id }, { rack: [`Rack ${k.rack.name} does not belong to site ${elsewhere.name}.`] }],
      [{ face: 'front' }, { face: ['Cannot select a rack face without assigning a rack.'] }],
      [{ position: 5 }, { position: ['Cannot select a rack position without assigning a rack.'] }],
      [{ rack: k.rack.id, position: 5 }, { face: ['Must specify rack face when defining rack position.'] }],
      [{ rack: k.rack.id, position: 5, face: 'front', device_type: k.zero.id }, { position: [`A U0 device type (${k.zero.model}) cannot be assigned to a rack position.`] }],
      [{ rack: k.rack.id, face: 'front', device_type: k.child.id }, { face: ['Child device types cannot be assigned to a rack face. This is an attribute of the parent device.'] }],
      [{ rack: k.rack.id, position: 5, face: 'front', device_type: k.child.id }, { position: [`A U0 device type (${k.child.model}) cannot be assigned to a rack position.`] }],
      [{ rack: k.rack.id, position: 42, face: 'front' }, { position: [`U42 is already occupied or does not have sufficient space to accommodate this device type: ${k.type2u.model} (2U)`] }],
      [{ rack: k.rack.id, position: 0, face: 'front' }, { position: ['Ensure this value is greater than or equal to 1.'] }],
      [{ rack: k.rack.id, position: 5, face: 'side' }, { face: ['side is not a valid choice.', 'Valid choices are: front, rear.'] }],
    ];
    for (const [body, error] of cases) {
      const res = await place(k, body);
      expect({ body, status: res.status, error: res.body }).toEqual({ body, status: 400, error });
    }
    // A face without a position is allowed, and so is a rack-less child device.
    expect((await place(k, { rack: k.rack.id, face: 'rear' })).status).toBe(201);
    expect((await place(k, { rack: k.rack.id, device_type: k.child.id })).status).toBe(201);
  });

  test('overlap is face-aware: full-depth devices take both faces; the slot twin answers non_field_errors', async () => {
    const k = await kit();
    const full = await created(await place(k, { name: `full ${next()}`, rack: k.rack.id, position: 10, face: 'front' }));
    expect(full).toMatchObject({ position: 10, face: { value: 'front', label: 'Front' } });
    const twin = await place(k, { rack: k.rack.id, position: 10, face: 'front' });
    expect(twin.body).toEqual({ non_field_errors: ['The position and face is already occupied on this rack. The fields rack, position, face must make a unique set.'] });
    const behind = await place(k, { rack: k.rack.id, position: 11, face: 'rear', device_type: k.half1u.id });
    expect(behind.body).toEqual({ position: [`U11 is already occupied or does not have sufficient space to accommodate this device type: ${k.half1u.model} (1U)`] });
    const below = await place(k, { rack: k.rack.id, position: 9, face: 'front' });
    expect(below.body).toEqual({ position: [`U9 is already occupied or does not have sufficient space to accommodate this device type: ${k.type2u.model} (2U)`] });
    await created(await place(k, { rack: k.rack.id, position: 20, face: 'front', device_type: k.half1u.id }));
    await created(await place(k, { rack: k.rack.id, position: 20, face: 'rear', device_type: k.half1u.id }));
    // Moving a device within its own units is no overlap with itself.
    expect((await app.patch(`/api/dcim/devices/${full.id}/`, { position: 11 })).status).toBe(200);
    const unrack = await app.patch(`/api/dcim/devices/${full.id}/`, { rack: null });
    expect(unrack.body).toEqual({ face: ['Cannot select a rack face without assigning a rack.'] });
    const cleared = await app.patch(`/api/dcim/devices/${full.id}/`, { rack: null, position: null, face: '' });
    expect(cleared.body).toMatchObject({ rack: null, position: null, face: null });
    expect((await app.get(`/api/dcim/devices/?rack_id=${k.rack.id}&face=rear`)).body.count).toBe(1);
    expect((await app.get(`/api/dcim/devices/?rack_id=${k.rack.id}&position__gte=20`)).body.count).toBe(2);
  });

  test('a taller device type must still fit every racked instance; 0U refused while racked', async () => {
    const k = await kit();
    await created(await place(k, { name: `low ${next()}`, rack: k.rack.id, position: 1, face: 'front' }));
    const upper = await created(await place(k, { name: `up ${next()}`, rack: k.rack.id, position: 3, face: 'front', device_type: k.half1u.id }));
    const grow = await app.patch(`/api/dcim/device-types/${k.type2u.id}/`, { u_height: 3 });
    expect(grow.status).toBe(400);
    const low = (await app.get(`/api/dcim/devices/?rack_id=${k.rack.id}&position=1`)).body.results[0] as Obj;
    expect(grow.body).toEqual({ u_height: [`Device ${low.name} in rack ${k.rack.name} does not have sufficient space to accommodate a height of 3U`] });
    const zero = await app.patch(`/api/dcim/device-types/${k.type2u.id}/`, { u_height: 0 });
    expect(zero.body).toEqual({
      u_height: [`Unable to set 0U height: Found <a href="/dcim/devices/?manufacturer_id=${k.type2u.manufacturer.id}&amp;device_type_id=${k.type2u.id}">1 instances</a> already mounted within racks.`],
    });
    expect((await app.delete(`/api/dcim/devices/${upper.id}/`)).status).toBe(204);
    expect((await app.patch(`/api/dcim/device-types/${k.type2u.id}/`, { u_height: 3 })).status).toBe(200);
  });

  test('a device location must be in its site, match the rack location and allow devices', async () => {
    const k = await kit();
    const roomType = await created(await app.post('/api/dcim/location-types/', { name: `Cage ${next()}`, content_types: ['dcim.rack', 'dcim.device'] }));
    const bareType = await created(await app.post('/api/dcim/location-types/', { name: `Yard ${next()}`, content_types: ['dcim.rack'] }));
    const cage = await created(await app.post('/api/dcim/locations/', { name: `C${next()}`, status: 'active', location_type: roomType.id, site: k.site.id }));
    const yard = await created(await app.post('/api/dcim/locations/', { name: `Y${next()}`, status: 'active', location_type: bareType.id, site: k.site.id }));
    const caged = await rack({ site: k.site.id, location: cage.id });
    const mismatch = await place(k, { rack: caged.id, location: yard.id });
    expect(mismatch.body).toEqual({ rack: [`Rack "${caged.name}" does not belong to location "${yard.name}".`] });
    const noDevices = await place(k, { location: yard.id });
    expect(noDevices.body).toEqual({ location: [`Devices may not associate to locations of type "${bareType.name}".`] });
    const ok = await created(await place(k, { rack: caged.id, location: cage.id, position: 1, face: 'front' }));
    expect(ok.location).toMatchObject({ id: cage.id, name: cage.name });
    expect((await app.get(`/api/dcim/devices/?location=${cage.slug}`)).body.count).toBe(1);
  });
});

describe('rack elevation', () => {
  async function elevated(): Promise<{ k: Kit; big: Obj; half: Obj }> {
    const k = await kit({ u_height: 10 });
    const big = await created(await place(k, { name: 'sw1', rack: k.rack.id, position: 8, face: 'front' }));
    const half = await created(await place(k, { name: 'patch<&>', rack: k.rack.id, position: 2, face: 'rear', device_type: k.half1u.id }));
    await created(await app.post('/api/dcim/rack-reservations/', { rack: k.rack.id, units: [5], user: app.adminId, description: 'future "core"' }));
    return { k, big, half };
  }

  test('JSON: units top-down with the device in each, faces, exclude, expand_devices, q, pagination', async () => {
    const { k, big } = await elevated();
    const path = `/api/dcim/racks/${k.rack.id}/elevation/`;
    const front = await app.get(`${path}?limit=3`);
    expect(front.status).toBe(200);
    expect(front.body.count).toBe(10);
    expect(front.body.next).toBe(`${app.baseUrl}${path}?limit=3&offset=3`);
    expect(front.body.results).toEqual([
      { id: 10, name: 'U10', face: { value: 'front', label: 'Front' }, device: null, occupied: false },
      { id: 9, name: 'U9', face: { value: 'front', label: 'Front' }, device: { id: big.id, display: 'sw1', url: big.url, name: 'sw1' }, occupied: true },
      { id: 8, name: 'U8', face: { value: 'front', label: 'Front' }, device: { id: big.id, display: 'sw1', url: big.url, name: 'sw1' }, occupied: true },
    ]);
    const rear = (await app.get(`${path}?face=rear&limit=0`)).body.results as Obj[];
    expect(rear.filter((u) => u.occupied).map((u) => [u.id, u.device.name])).toEqual([[9, 'sw1'], [8, 'sw1'], [2, 'patch<&>']]);
    const frontAll = (await app.get(`${path}?limit=0`)).body.results as Obj[];
    expect(frontAll.filter((u) => u.occupied).map((u) => u.id)).toEqual([9, 8]);
    const excluded = (await app.get(`${path}?exclude=${big.id}`)).body.results as Obj[];
    expect(excluded.some((u) => u.occupied)).toBe(false);
    const collapsed = (await app.get(`${path}?expand_devices=false`)).body;
    expect(collapsed.count).toBe(9);
    expect(collapsed.results.find((u: Obj) => u.id === 8).device.name).toBe('sw1');
    expect((await app.get(`${path}?q=U1`)).body.results.map((u: Obj) => u.id)).toEqual([10, 1]);
    const bad = await app.get(`${path}?face=side&expand_devices=maybe&exclude=nope`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ face: ['"side" is not a valid choice.'], exclude: ['Must be a valid UUID.'], expand_devices: ['Must be a valid boolean.'] });
    await app.patch(`/api/dcim/racks/${k.rack.id}/`, { desc_units: true });
    expect((await app.get(`${path}?limit=2`)).body.results.map((u: Obj) => u.id)).toEqual([1, 2]);
  });

  test('JSON: devices the caller may not view occupy their units without being shown', async () => {
    const { k } = await elevated();
    const userId = await app.createUser(`viewer${next()}`);
    const token = await app.createToken(userId);
    const perm = await app.post('/api/users/permissions/', { name: `racks ${next()}`, object_types: ['dcim.rack'], actions: ['view'], users: [userId] });
    expect(perm.status).toBe(201);
    const res = await app.get(`/api/dcim/racks/${k.rack.id}/elevation/?limit=0`, token);
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    const units = res.body.results as Obj[];
    expect(units.filter((u) => u.occupied).map((u) => [u.id, u.device])).toEqual([[9, null], [8, null]]);
  });

  test('SVG: a well-formed drawing of the face, served as image/svg+xml', async () => {
    const { k, big, half } = await elevated();
    const res = await app.get(`/api/dcim/racks/${k.rack.id}/elevation/?render=svg`).buffer(true).parse((r, done) => {
      let text = '';
      r.setEncoding('utf8');
      r.on('data', (c: string) => (text += c));
      r.on('end', () => done(null, text));
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const svg = res.body as string;
    expect(svg).toContain('class="slot" height="22" width="230"');
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attributes).toMatchObject({ xmlns: 'http://www.w3.org/2000/svg', width: String(230 + 30 + 4), height: String(22 * 10 + 4) });
    const elements = allElements(root);
    const links = elements.filter((e) => e.name === 'a');
    const device = links.find((a) => a.attributes.href === `/dcim/devices/${big.id}/`);
    expect(device).toBeDefined();
    const rect = (device as (typeof elements)[number]).children.find((c) => c.name === 'rect');
    expect(rect?.attributes).toMatchObject({ class: 'slot', height: '44', style: `fill: #${k.role.color}` });
    expect((device as (typeof elements)[number]).children.find((c) => c.name === 'text')?.text).toBe('sw1');
    // The rear half-depth device is not drawn on the front, but its unit is marked.
    expect(links.some((a) => a.attributes.href === `/dcim/devices/${half.id}/`)).toBe(false);
    expect(elements.filter((e) => e.attributes.class === 'slot blocked_partial')).toHaveLength(1);
    const reserved = elements.filter((e) => e.attributes.class === 'slot reserved');
    expect(reserved).toHaveLength(1);
    const units = elements.filter((e) => e.attributes.class === 'unit').map((e) => e.text);
    expect(units).toEqual(['10', '9', '8', '7', '6', '5', '4', '3', '2', '1']);
    const addLinks = links.filter((a) => a.attributes.href.startsWith('/dcim/devices/add/'));
    expect(addLinks).toHaveLength(8);
    expect(addLinks[0].attributes.href).toBe(`/dcim/devices/add/?site=${k.site.id}&rack=${k.rack.id}&face=front&position=10`);
    const rear = parseXml((await app.get(`/api/dcim/racks/${k.rack.id}/elevation/?render=svg&face=rear&unit_height=30&display_fullname=false`)
      .buffer(true).parse((r, done) => { let t = ''; r.setEncoding('utf8'); r.on('data', (c: string) => (t += c)); r.on('end', () => done(null, t)); })).body as string);
    const rearElements = allElements(rear);
    expect(rear.attributes.height).toBe(String(30 * 10 + 4));
    expect(rearElements.filter((e) => e.attributes.class === 'slot blocked')).toHaveLength(1);
    expect(rearElements.some((e) => e.name === 'text' && e.text === 'patch<&>')).toBe(true);
  });
});

const executable = chromiumPath();
const withChromium = executable ? describe : describe.skip;

withChromium('rack elevation in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await Browser.launch(executable as string);
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('the SVG renders: device slots in their role colour with their names, free and reserved units', async () => {
    const k = await kit({ u_height: 12 });
    await created(await place(k, { name: 'core-sw-01', rack: k.rack.id, position: 10, face: 'front' }));
    await created(await app.post('/api/dcim/rack-reservations/', { rack: k.rack.id, units: [3, 4], user: app.adminId, description: 'future' }));
    const page = await browser.newPage({ Authorization: `Token ${app.token}` });
    await page.goto(`${app.baseUrl}/api/dcim/racks/${k.rack.id}/elevation/?render=svg`);
    const drawn = await page.evaluate<{ ns: string; width: number; height: number; slots: number; reserved: number; fill: string; label: string; labelWidth: number }>(`(() => {
      const svg = document.documentElement;
      const device = document.querySelector('a.device rect');
      const label = document.querySelector('a.device text');
      const box = svg.getBoundingClientRect();
      return {
        ns: svg.namespaceURI, width: Math.round(box.width), height: Math.round(box.height),
        slots: document.querySelectorAll('rect.slot').length, reserved: document.querySelectorAll('rect.reserved').length,
        fill: getComputedStyle(device).fill, label: label.textContent, labelWidth: label.getBBox().width,
      };
    })()`);
    expect(drawn).toMatchObject({ ns: 'http://www.w3.org/2000/svg', width: 264, height: 12 * 22 + 4, slots: 11, reserved: 2, fill: 'rgb(33, 150, 243)', label: 'core-sw-01' });
    expect(drawn.labelWidth).toBeGreaterThan(20);
  });
});
