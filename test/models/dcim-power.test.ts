/**
 * Power panels and power feeds (models/dcim.md, behaviour-dcim.md §2.3, §5, §6, §7), with Nautobot's
 * exact 400 and 409 bodies, as the Ansible power_panel and power_feed modules use them.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

let seq = 0;
const next = () => ++seq;

async function site(): Promise<Obj> {
  return created(await app.post('/api/dcim/sites/', { name: `Power site ${next()}`, status: 'active' }));
}

async function panel(body: Obj): Promise<Obj> {
  return created(await app.post('/api/dcim/power-panels/', { name: `Panel ${next()}`, ...body }));
}

async function feed(body: Obj): Promise<Obj> {
  return created(await app.post('/api/dcim/power-feeds/', { name: `Feed ${next()}`, status: 'active', ...body }));
}

async function locationType(contentTypes: string[], extra: Obj = {}): Promise<Obj> {
  return created(await app.post('/api/dcim/location-types/', { name: `Hall type ${next()}`, content_types: contentTypes, ...extra }));
}

async function location(type: Obj, body: Obj): Promise<Obj> {
  return created(await app.post('/api/dcim/locations/', { name: `Hall ${next()}`, status: 'active', location_type: type.id, ...body }));
}

const ids = (res: { body: { results: Obj[] } }) => res.body.results.map((o) => o.id).sort();

describe('dcim.powerpanel', () => {
  test('fields, brief form and the Ansible module\'s create, duplicate and rack group update', async () => {
    const s = await site();
    const p = await panel({ name: 'Power Panel', site: s.id });
    expect(Object.keys(p)).toEqual([
      'id', 'display', 'url', 'site', 'location', 'rack_group', 'name', 'powerfeed_count',
      'created', 'last_updated', 'tags', 'notes_url', 'custom_fields', 'computed_fields', 'relationships',
    ]);
    expect(p).toMatchObject({ display: 'Power Panel', location: null, rack_group: null, powerfeed_count: 0, site: { id: s.id } });
    const brief = await app.get(`/api/dcim/power-panels/${p.id}/?brief=1`);
    expect(brief.body).toEqual({ id: p.id, display: 'Power Panel', url: p.url, name: 'Power Panel', powerfeed_count: 0 });

    const found = await app.get(`/api/dcim/power-panels/?name=Power Panel&site=${s.id}`);
    expect(ids(found)).toEqual([p.id]);
    const twin = await app.post('/api/dcim/power-panels/', { name: 'Power Panel', site: s.id });
    expect(twin.status).toBe(400);
    expect(twin.body).toEqual({ non_field_errors: ['The fields site, name must make a unique set.'] });

    const group = await created(await app.post('/api/dcim/rack-groups/', { name: 'Test Rack Group', site: s.id }));
    const updated = await app.patch(`/api/dcim/power-panels/${p.id}/`, { rack_group: group.id });
    expect(updated.status).toBe(200);
    expect((await app.get(`/api/dcim/power-panels/${p.id}/`)).body.rack_group).toMatchObject({ id: group.id, name: 'Test Rack Group' });
    const other = await site();
    expect((await app.post('/api/dcim/power-panels/', { name: 'Power Panel', site: other.id })).status).toBe(201);
  });

  test('location in the site and of a type that holds power panels; rack group in the site and location', async () => {
    const s = await site();
    const other = await site();
    const holds = await locationType(['dcim.powerpanel', 'dcim.rackgroup'], { nestable: true });
    const bare = await locationType(['dcim.rack']);
    const hall = await location(holds, { site: s.id });
    const room = await location(holds, { parent: hall.id });
    const away = await location(holds, { site: other.id });
    const plain = await location(bare, { site: s.id });

    const outside = await app.post('/api/dcim/power-panels/', { name: 'P', site: s.id, location: away.id });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ location: [`Location "${away.name}" does not belong to site "${s.name}".`] });
    const wrongType = await app.post('/api/dcim/power-panels/', { name: 'P', site: s.id, location: plain.id });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ location: [`Power panels may not associate to locations of type "${bare.name}".`] });

    const foreignGroup = await created(await app.post('/api/dcim/rack-groups/', { name: 'Far group', site: other.id }));
    const groupAway = await app.post('/api/dcim/power-panels/', { name: 'P', site: s.id, rack_group: foreignGroup.id });
    expect(groupAway.status).toBe(400);
    expect(groupAway.body).toEqual({ __all__: [`Rack group Far group (${other.name}) is in a different site than ${s.name}`] });

    const roomGroup = await created(await app.post('/api/dcim/rack-groups/', { name: 'Room group', site: s.id, location: room.id }));
    const groupBelow = await app.post('/api/dcim/power-panels/', { name: 'P', site: s.id, location: hall.id, rack_group: roomGroup.id });
    expect(groupBelow.status).toBe(400);
    expect(groupBelow.body).toEqual({ rack_group: [`Rack group "Room group" belongs to a location ("${room.name}") that does not contain "${hall.name}".`] });

    // A panel in a location below its group's location is fine, and a descendant counts for `location`.
    const hallGroup = await created(await app.post('/api/dcim/rack-groups/', { name: 'Hall group', site: s.id, location: hall.id }));
    const inRoom = await panel({ site: s.id, location: room.id, rack_group: hallGroup.id });
    expect(ids(await app.get(`/api/dcim/power-panels/?location=${hall.slug}`))).toEqual([inRoom.id]);
    expect(ids(await app.get(`/api/dcim/power-panels/?rack_group=${hallGroup.slug}`))).toEqual([inRoom.id]);
    expect(ids(await app.get(`/api/dcim/power-panels/?rack_group_id=${hallGroup.slug}`))).toEqual([inRoom.id]);
    expect(ids(await app.get(`/api/dcim/power-panels/?rack_group_id=${hallGroup.id}`))).toEqual([inRoom.id]);
    expect((await app.get(`/api/dcim/power-panels/?id=${inRoom.id}&location__n=${hall.slug}`)).body.count).toBe(0);
  });

  test('moving its rack group to another site takes the panel along', async () => {
    const s = await site();
    const target = await site();
    const group = await created(await app.post('/api/dcim/rack-groups/', { name: 'Moving group', site: s.id }));
    const child = await created(await app.post('/api/dcim/rack-groups/', { name: 'Moving child', site: s.id, parent: group.id }));
    const p = await panel({ site: s.id, rack_group: group.id });
    const q = await panel({ site: s.id, rack_group: child.id });
    // The group filters take in the panels of its descendants.
    expect(ids(await app.get(`/api/dcim/power-panels/?rack_group_id=${group.id}`))).toEqual([p.id, q.id].sort());
    const moved = await app.patch(`/api/dcim/rack-groups/${group.id}/`, { site: target.id });
    expect(moved.status).toBe(200);
    expect((await app.get(`/api/dcim/power-panels/${p.id}/`)).body.site.id).toBe(target.id);
    expect((await app.get(`/api/dcim/power-panels/${q.id}/`)).body.site.id).toBe(target.id);
  });

  test('counts, feed filters and deletion protection', async () => {
    const s = await site();
    const group = await created(await app.post('/api/dcim/rack-groups/', { name: 'Protected group', site: s.id }));
    const p = await panel({ site: s.id, rack_group: group.id });
    const empty = await panel({ site: s.id });
    const f = await feed({ name: 'Only feed', power_panel: p.id });
    expect((await app.get(`/api/dcim/power-panels/${p.id}/`)).body.powerfeed_count).toBe(1);
    expect((await app.get(`/api/dcim/power-panels/?site_id=${s.id}`)).body.results.map((o: Obj) => [o.name, o.powerfeed_count]))
      .toEqual([[p.name, 1], [empty.name, 0]].sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
    expect(ids(await app.get(`/api/dcim/power-panels/?site_id=${s.id}&has_power_feeds=true`))).toEqual([p.id]);
    expect(ids(await app.get(`/api/dcim/power-panels/?site_id=${s.id}&has_power_feeds=false`))).toEqual([empty.id]);
    expect(ids(await app.get(`/api/dcim/power-panels/?power_feeds=Only feed`))).toEqual([p.id]);
    expect(ids(await app.get(`/api/dcim/power-panels/?site_id=${s.id}&power_feeds__n=${f.id}`))).toEqual([empty.id]);

    const refused = await app.delete(`/api/dcim/power-panels/${p.id}/`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: Only feed (${f.id})` });
    const groupRefused = await app.delete(`/api/dcim/rack-groups/${group.id}/`);
    expect(groupRefused.status).toBe(409);
    expect(groupRefused.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: ${p.name} (${p.id})` });
    expect((await app.get(`/api/dcim/power-panels/${p.id}/`)).status).toBe(200);

    expect((await app.delete(`/api/dcim/power-feeds/${f.id}/`)).status).toBe(204);
    expect((await app.delete(`/api/dcim/power-panels/${p.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/power-panels/${p.id}/`)).status).toBe(404);
  });
});

describe('dcim.powerfeed', () => {
  test('fields, defaults, brief form and the Ansible module\'s create and update', async () => {
    const s = await site();
    const p = await panel({ name: 'Test Power Panel', site: s.id });
    const f = await feed({ name: 'Power Feed', power_panel: p.id });
    expect(Object.keys(f)).toEqual([
      'id', 'display', 'url', 'power_panel', 'rack', 'name', 'status', 'type', 'supply', 'phase', 'voltage', 'amperage', 'max_utilization',
      'comments', 'cable', 'cable_peer', 'cable_peer_type', 'connected_endpoint', 'connected_endpoint_type', 'connected_endpoint_reachable',
      'created', 'last_updated', 'tags', 'notes_url', 'custom_fields', 'computed_fields', 'relationships',
    ]);
    expect(f).toMatchObject({
      display: 'Power Feed', rack: null, status: { value: 'active', label: 'Active' }, type: { value: 'primary', label: 'Primary' },
      supply: { value: 'ac', label: 'AC' }, phase: { value: 'single-phase', label: 'Single phase' }, voltage: 120, amperage: 20,
      max_utilization: 80, comments: '', cable: null, cable_peer: null, cable_peer_type: null, connected_endpoint: null,
      connected_endpoint_type: null, connected_endpoint_reachable: null,
      power_panel: { id: p.id, name: 'Test Power Panel' },
    });
    expect(f).not.toHaveProperty('available_power');
    // The count is annotated on the panels' own endpoint only: embedded panels leave it out.
    expect(f.power_panel).not.toHaveProperty('powerfeed_count');
    const brief = await app.get(`/api/dcim/power-feeds/${f.id}/?brief=1`);
    expect(brief.body).toEqual({ id: f.id, display: 'Power Feed', url: f.url, name: 'Power Feed', cable: null });

    expect(ids(await app.get(`/api/dcim/power-feeds/?name=Power Feed&power_panel_id=${p.id}`))).toEqual([f.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?power_panel=Test Power Panel&site=${s.slug}`))).toEqual([f.id]);
    // The Ansible module looks a feed up by name and panel id, after mapping choice labels through OPTIONS.
    expect(ids(await app.get(`/api/dcim/power-feeds/?name=Power Feed&power_panel=${p.id}`))).toEqual([f.id]);
    const post = (await app.options('/api/dcim/power-feeds/')).body.actions.POST;
    expect(post.status.choices).toEqual(expect.arrayContaining([{ value: 'active', display: 'Active' }, { value: 'offline', display: 'Offline' }]));
    expect(post.phase.choices).toEqual([{ value: 'single-phase', display: 'Single phase' }, { value: 'three-phase', display: 'Three-phase' }]);
    expect(post.type.choices).toEqual([{ value: 'primary', display: 'Primary' }, { value: 'redundant', display: 'Redundant' }]);
    expect(post.supply.choices).toEqual([{ value: 'ac', display: 'AC' }, { value: 'dc', display: 'DC' }]);
    expect(post).not.toHaveProperty('available_power');

    const updated = await app.patch(`/api/dcim/power-feeds/${f.id}/`, {
      status: 'offline', type: 'redundant', supply: 'dc', phase: 'three-phase', voltage: 400, amperage: 32, max_utilization: 25,
      comments: 'totally normal power feed',
    });
    expect(updated.status).toBe(200);
    expect((await app.get(`/api/dcim/power-feeds/${f.id}/`)).body).toMatchObject({
      status: { value: 'offline', label: 'Offline' }, type: { value: 'redundant', label: 'Redundant' }, supply: { value: 'dc', label: 'DC' },
      phase: { value: 'three-phase', label: 'Three-phase' }, voltage: 400, amperage: 32, max_utilization: 25, comments: 'totally normal power feed',
    });

    const twin = await app.post('/api/dcim/power-feeds/', { name: 'Power Feed', power_panel: p.id, status: 'active' });
    expect(twin.status).toBe(400);
    expect(twin.body).toEqual({ non_field_errors: ['The fields power_panel, name must make a unique set.'] });
    const noStatus = await app.post('/api/dcim/power-feeds/', { name: 'Power Feed 2', power_panel: p.id });
    expect(noStatus.status).toBe(400);
    expect(noStatus.body).toEqual({ status: ['This field is required.'] });
  });

  test('rack in the panel\'s site, voltage rules and ranges', async () => {
    const s = await site();
    const other = await site();
    const p = await panel({ site: s.id });
    const farRack = await created(await app.post('/api/dcim/racks/', { name: 'Far rack', facility_id: 'F1', site: other.id, status: 'active' }));
    const away = await app.post('/api/dcim/power-feeds/', { name: 'F', power_panel: p.id, rack: farRack.id, status: 'active' });
    expect(away.status).toBe(400);
    expect(away.body).toEqual({ __all__: [`Rack Far rack (F1) (${other.name}) and power panel ${p.name} (${s.name}) are in different sites`] });

    const zero = await app.post('/api/dcim/power-feeds/', { name: 'F', power_panel: p.id, voltage: 0, status: 'active' });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ voltage: ['This value may not be 0.'] });
    const negativeAc = await app.post('/api/dcim/power-feeds/', { name: 'F', power_panel: p.id, voltage: -48, status: 'active' });
    expect(negativeAc.status).toBe(400);
    expect(negativeAc.body).toEqual({ voltage: ['Voltage cannot be negative for AC supply'] });
    const dc = await feed({ power_panel: p.id, voltage: -48, supply: 'dc' });
    expect(dc.voltage).toBe(-48);
    const toAc = await app.patch(`/api/dcim/power-feeds/${dc.id}/`, { supply: 'ac' });
    expect(toAc.status).toBe(400);
    expect(toAc.body).toEqual({ voltage: ['Voltage cannot be negative for AC supply'] });

    const ranges = await app.post('/api/dcim/power-feeds/', { name: 'F', power_panel: p.id, amperage: 0, max_utilization: 101, status: 'active' });
    expect(ranges.status).toBe(400);
    expect(ranges.body).toEqual({
      amperage: ['Ensure this value is greater than or equal to 1.'],
      max_utilization: ['Ensure this value is less than or equal to 100.'],
    });
    const badChoice = await app.post('/api/dcim/power-feeds/', { name: 'F', power_panel: p.id, phase: 'two-phase', status: 'active' });
    expect(badChoice.status).toBe(400);
    expect(badChoice.body).toEqual({ phase: ['two-phase is not a valid choice.', 'Valid choices are: single-phase, three-phase.'] });
    expect((await app.get(`/api/dcim/power-feeds/?power_panel_id=${p.id}`)).body.count).toBe(1);
  });

  test('available power is stored on every save and filtered on', async () => {
    const s = await site();
    const p = await panel({ site: s.id });
    const single = await feed({ power_panel: p.id });
    const three = await feed({ power_panel: p.id, voltage: 208, amperage: 30, phase: 'three-phase' });
    const scope = `power_panel_id=${p.id}`;
    expect(ids(await app.get(`/api/dcim/power-feeds/?${scope}&available_power=1920`))).toEqual([single.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?${scope}&available_power=8646`))).toEqual([three.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?${scope}&available_power__gt=1920`))).toEqual([three.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?${scope}&available_power__n=1920`))).toEqual([three.id]);

    // 230 V × 16 A × 50 % = 1840; halves round to even as Python's round() does (5 V × 1 A × 50 % = 2.5 → 2).
    expect((await app.patch(`/api/dcim/power-feeds/${single.id}/`, { voltage: 230, amperage: 16, max_utilization: 50 })).status).toBe(200);
    expect(ids(await app.get(`/api/dcim/power-feeds/?${scope}&available_power=1840`))).toEqual([single.id]);
    const half = await feed({ power_panel: p.id, voltage: 5, amperage: 1, max_utilization: 50 });
    expect(ids(await app.get(`/api/dcim/power-feeds/?${scope}&available_power=2`))).toEqual([half.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?${scope}&available_power__lte=2`))).toEqual([half.id]);
  });

  test('racks count their feeds and cannot be deleted while fed; feeds filter by rack, site and cable state', async () => {
    const s = await site();
    const p = await panel({ site: s.id });
    const r = await created(await app.post('/api/dcim/racks/', { name: `Fed rack ${next()}`, site: s.id, status: 'active' }));
    expect(r.powerfeed_count).toBe(0);
    const a = await feed({ name: 'Feed A', power_panel: p.id, rack: r.id });
    const b = await feed({ name: 'Feed B', power_panel: p.id, rack: r.id, type: 'redundant' });
    const loose = await feed({ name: 'Loose', power_panel: p.id });
    expect((await app.get(`/api/dcim/racks/${r.id}/`)).body.powerfeed_count).toBe(2);
    expect((await app.get(`/api/dcim/racks/?id=${r.id}`)).body.results[0].powerfeed_count).toBe(2);

    expect(ids(await app.get(`/api/dcim/power-feeds/?rack=${r.name}`))).toEqual([a.id, b.id].sort());
    expect(ids(await app.get(`/api/dcim/power-feeds/?rack_id=${r.id}&type=redundant`))).toEqual([b.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?site_id=${s.id}&rack_id__n=${r.id}`))).toEqual([loose.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?site_id=${s.id}&cabled=false`))).toEqual([a.id, b.id, loose.id].sort());
    expect((await app.get(`/api/dcim/power-feeds/?site_id=${s.id}&connected=true`)).body.count).toBe(0);
    expect(ids(await app.get(`/api/dcim/power-feeds/?site_id=${s.id}&q=loo`))).toEqual([loose.id]);

    const refused = await app.delete(`/api/dcim/racks/${r.id}/`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/^Unable to delete object\. 2 dependent objects were found: /);
    expect(refused.body.detail).toContain(`Feed A (${a.id})`);
    expect(refused.body.detail).toContain(`Feed B (${b.id})`);
    expect((await app.get(`/api/dcim/racks/${r.id}/`)).status).toBe(200);
    expect((await app.patch(`/api/dcim/power-feeds/${a.id}/`, { rack: null })).status).toBe(200);
    expect((await app.get(`/api/dcim/racks/${r.id}/`)).body.powerfeed_count).toBe(1);
  });
});

describe('power feeds and cables', () => {
  test('a feed cabled to a device power port: cable, peer, connected endpoint and trace on both ends', async () => {
    const s = await site();
    const p = await panel({ site: s.id });
    const f = await feed({ power_panel: p.id });
    const n = next();
    const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: `PSU vendor ${n}` }));
    const type = await created(await app.post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `PSU box ${n}` }));
    const role = await created(await app.post('/api/dcim/device-roles/', { name: `PSU role ${n}` }));
    const device = await created(await app.post('/api/dcim/devices/', { name: `psu-${n}`, device_type: type.id, device_role: role.id, site: s.id, status: 'active' }));
    const port = await created(await app.post('/api/dcim/power-ports/', { device: device.id, name: 'PSU1' }));
    const outlet = await created(await app.post('/api/dcim/power-outlets/', { device: device.id, name: 'Out1' }));
    const refused = await app.post('/api/dcim/cables/', { termination_a_type: 'dcim.powerfeed', termination_a_id: f.id, termination_b_type: 'dcim.poweroutlet', termination_b_id: outlet.id, status: 'connected' });
    expect(refused.status).toBe(400);
    const cable = await created(await app.post('/api/dcim/cables/', { termination_a_type: 'dcim.powerfeed', termination_a_id: f.id, termination_b_type: 'dcim.powerport', termination_b_id: port.id, status: 'connected' }));
    const feedNow = (await app.get(`/api/dcim/power-feeds/${f.id}/`)).body;
    expect(feedNow).toMatchObject({
      cable: { id: cable.id },
      cable_peer: { id: port.id, name: 'PSU1' },
      cable_peer_type: 'dcim.powerport',
      connected_endpoint: { id: port.id },
      connected_endpoint_type: 'dcim.powerport',
      connected_endpoint_reachable: true,
    });
    const portNow = (await app.get(`/api/dcim/power-ports/${port.id}/`)).body;
    expect(portNow).toMatchObject({ cable_peer: { id: f.id }, cable_peer_type: 'dcim.powerfeed', connected_endpoint: { id: f.id }, connected_endpoint_type: 'dcim.powerfeed', connected_endpoint_reachable: true });
    const trace = await app.get(`/api/dcim/power-feeds/${f.id}/trace/`);
    expect(trace.status).toBe(200);
    expect(trace.body).toHaveLength(1);
    expect(trace.body[0][0]).toMatchObject({ id: f.id });
    expect(trace.body[0][1]).toMatchObject({ id: cable.id });
    expect(trace.body[0][2]).toMatchObject({ id: port.id });
    expect(ids(await app.get(`/api/dcim/power-feeds/?cabled=true&power_panel_id=${p.id}`))).toEqual([f.id]);
    expect(ids(await app.get(`/api/dcim/power-feeds/?connected=true&power_panel_id=${p.id}`))).toEqual([f.id]);
    expect((await app.delete(`/api/dcim/cables/${cable.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/power-feeds/${f.id}/`)).body).toMatchObject({ cable: null, cable_peer: null, connected_endpoint: null, connected_endpoint_reachable: null });
  });
});
