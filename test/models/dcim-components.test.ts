/**
 * Component templates of device types, the components a new device gets from them, and the rules
 * of components and device bays, with Nautobot's exact 400 bodies.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

let seq = 0;
async function fixtures(typeBody: Obj = {}): Promise<{ site: Obj; role: Obj; type: Obj; manufacturer: Obj }> {
  seq += 1;
  const manufacturer = await created(await app.post('/api/dcim/manufacturers/', { name: `Components vendor ${seq}` }));
  const type = await created(await app.post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: `Components model ${seq}`, ...typeBody }));
  const role = await created(await app.post('/api/dcim/device-roles/', { name: `Components role ${seq}` }));
  const site = await created(await app.post('/api/dcim/sites/', { name: `Components site ${seq}`, status: 'active' }));
  return { site, role, type, manufacturer };
}

function deviceBody(f: { site: Obj; role: Obj; type: Obj }, body: Obj = {}): Obj {
  return { device_type: f.type.id, device_role: f.role.id, site: f.site.id, status: 'active', ...body };
}

async function list(path: string): Promise<Obj[]> {
  const res = await app.get(path);
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.results as Obj[];
}

/** A device type with one template of every kind, an outlet fed by the power port and two front ports on a rear port. */
async function fullyTemplatedType(): Promise<{ site: Obj; role: Obj; type: Obj; manufacturer: Obj }> {
  const f = await fixtures({ subdevice_role: 'parent' });
  const dt = f.type.id;
  await created(await app.post('/api/dcim/console-port-templates/', { device_type: dt, name: 'Console', label: 'con0', type: 'rj-45', description: 'serial' }));
  await created(await app.post('/api/dcim/console-server-port-templates/', { device_type: dt, name: 'CS1', type: 'usb-a' }));
  const psu = await created(await app.post('/api/dcim/power-port-templates/', { device_type: dt, name: 'PSU1', type: 'iec-60320-c14', maximum_draw: 400, allocated_draw: 200 }));
  await created(await app.post('/api/dcim/power-outlet-templates/', { device_type: dt, name: 'Out1', type: 'iec-60320-c13', power_port: psu.id, feed_leg: 'B' }));
  await created(await app.post('/api/dcim/power-outlet-templates/', { device_type: dt, name: 'Out2', type: 'iec-60320-c13' }));
  await created(await app.post('/api/dcim/interface-templates/', [
    { device_type: dt, name: 'eth0', type: '1000base-t', mgmt_only: true, label: 'mgmt' },
    { device_type: dt, name: 'eth1', type: '10gbase-x-sfpp', description: 'uplink' },
  ]));
  const rear = await created(await app.post('/api/dcim/rear-port-templates/', { device_type: dt, name: 'Rear', type: 'lc', positions: 2 }));
  await created(await app.post('/api/dcim/front-port-templates/', { device_type: dt, name: 'Front1', type: 'lc', rear_port: rear.id, rear_port_position: 1 }));
  await created(await app.post('/api/dcim/front-port-templates/', { device_type: dt, name: 'Front2', type: 'lc', rear_port: rear.id, rear_port_position: 2 }));
  await created(await app.post('/api/dcim/device-bay-templates/', { device_type: dt, name: 'Bay 1', label: 'slot' }));
  return f;
}

describe('component templates', () => {
  test('representation, brief form and unique names per device type', async () => {
    const f = await fixtures();
    const t = await created(await app.post('/api/dcim/interface-templates/', { device_type: f.type.id, name: 'ge-0/0/0', type: '1000base-t', label: 'uplink' }));
    expect(t).toMatchObject({ display: 'ge-0/0/0 (uplink)', name: 'ge-0/0/0', mgmt_only: false, type: { value: '1000base-t', label: '1000BASE-T (1GE)' }, description: '' });
    expect(t.device_type.id).toBe(f.type.id);
    expect(t).not.toHaveProperty('tags');
    expect(t).not.toHaveProperty('notes_url');
    expect(Object.keys((await app.get(`/api/dcim/interface-templates/${t.id}/?brief=1`)).body)).toEqual(['id', 'display', 'url', 'name']);
    const dup = await app.post('/api/dcim/interface-templates/', { device_type: f.type.id, name: 'ge-0/0/0', type: '1000base-t' });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ non_field_errors: ['The fields device_type, name must make a unique set.'] });
    const other = await fixtures();
    await created(await app.post('/api/dcim/interface-templates/', { device_type: other.type.id, name: 'ge-0/0/0', type: '1000base-t' }));
    expect((await list(`/api/dcim/interface-templates/?devicetype_id=${f.type.id}`)).map((r) => r.id)).toEqual([t.id]);
    expect((await list(`/api/dcim/device-types/?interfaces=true&manufacturer=${f.manufacturer.slug}`)).map((r) => r.id)).toEqual([f.type.id]);
    expect((await app.get(`/api/dcim/interface-templates/${t.id}/notes/`)).status).toBe(404);
  });

  test('console, power port and power outlet templates: blank types, draws, feed legs, the power port of the same type', async () => {
    const f = await fixtures();
    const con = await created(await app.post('/api/dcim/console-port-templates/', { device_type: f.type.id, name: 'Console' }));
    expect(con.type).toBeNull();
    const over = await app.post('/api/dcim/power-port-templates/', { device_type: f.type.id, name: 'PSU', maximum_draw: 100, allocated_draw: 200 });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ allocated_draw: ['Allocated draw cannot exceed the maximum draw (100W).'] });
    const psu = await created(await app.post('/api/dcim/power-port-templates/', { device_type: f.type.id, name: 'PSU', maximum_draw: 100 }));
    expect(psu).toMatchObject({ maximum_draw: 100, allocated_draw: null, type: null });
    const other = await fixtures();
    const foreign = await app.post('/api/dcim/power-outlet-templates/', { device_type: other.type.id, name: 'Out', power_port: psu.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ __all__: ['Parent power port (PSU) must belong to the same device type'] });
    const out = await created(await app.post('/api/dcim/power-outlet-templates/', { device_type: f.type.id, name: 'Out', power_port: psu.id, feed_leg: 'A' }));
    expect(out.feed_leg).toEqual({ value: 'A', label: 'A' });
    expect(out.power_port).toMatchObject({ id: psu.id, name: 'PSU' });
    expect((await list(`/api/dcim/power-outlet-templates/?power_port_template=${psu.id}`)).map((r) => r.id)).toEqual([out.id]);
    expect((await app.post('/api/dcim/power-outlet-templates/', { device_type: f.type.id, name: 'Out2', feed_leg: 'D' })).body).toEqual({
      feed_leg: ['D is not a valid choice.', 'Valid choices are: A, B, C.'],
    });
    // Deleting the power port template leaves the outlet template without one.
    expect((await app.delete(`/api/dcim/power-port-templates/${psu.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/power-outlet-templates/${out.id}/`)).body.power_port).toBeNull();
  });

  test('front port templates: the rear port of the same type, a position it has, each position once', async () => {
    const f = await fixtures();
    const rear = await created(await app.post('/api/dcim/rear-port-templates/', { device_type: f.type.id, name: 'Rear', type: '8p8c', positions: 2 }));
    expect(rear.positions).toBe(2);
    const other = await fixtures();
    const foreign = await app.post('/api/dcim/front-port-templates/', { device_type: other.type.id, name: 'F', type: '8p8c', rear_port: rear.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ __all__: ['Rear port (Rear) must belong to the same device type'] });
    const beyond = await app.post('/api/dcim/front-port-templates/', { device_type: f.type.id, name: 'F', type: '8p8c', rear_port: rear.id, rear_port_position: 3 });
    expect(beyond.status).toBe(400);
    expect(beyond.body).toEqual({ __all__: ['Invalid rear port position (3); rear port Rear has only 2 positions'] });
    const front = await created(await app.post('/api/dcim/front-port-templates/', { device_type: f.type.id, name: 'F1', type: '8p8c', rear_port: rear.id }));
    expect(front.rear_port_position).toBe(1);
    const twin = await app.post('/api/dcim/front-port-templates/', { device_type: f.type.id, name: 'F2', type: '8p8c', rear_port: rear.id, rear_port_position: 1 });
    expect(twin.body).toEqual({ non_field_errors: ['The fields rear_port, rear_port_position must make a unique set.'] });
    expect((await app.post('/api/dcim/front-port-templates/', { device_type: f.type.id, name: 'F3', rear_port: rear.id })).body).toEqual({ type: ['This field is required.'] });
    // Deleting the rear port template deletes its front port templates.
    expect((await app.delete(`/api/dcim/rear-port-templates/${rear.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/front-port-templates/${front.id}/`)).status).toBe(404);
  });

  test('device bay templates only on parent device types', async () => {
    const f = await fixtures();
    const res = await app.post('/api/dcim/device-bay-templates/', { device_type: f.type.id, name: 'Bay' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ __all__: [`Subdevice role of device type (${f.type.model}) must be set to "parent" to allow device bays.`] });
    const parent = await fixtures({ subdevice_role: 'parent' });
    await created(await app.post('/api/dcim/device-bay-templates/', { device_type: parent.type.id, name: 'Bay' }));
    expect((await list(`/api/dcim/device-types/?has_device_bay_templates=true&manufacturer=${parent.manufacturer.slug}`)).length).toBe(1);
  });

  test('deleting a device type deletes its templates, front port templates before their rear ports', async () => {
    const f = await fullyTemplatedType();
    const fronts = await list(`/api/dcim/front-port-templates/?devicetype_id=${f.type.id}`);
    const rears = await list(`/api/dcim/rear-port-templates/?devicetype_id=${f.type.id}`);
    expect(fronts).toHaveLength(2);
    expect((await app.delete(`/api/dcim/device-types/${f.type.id}/`)).status).toBe(204);
    for (const t of fronts) expect((await app.get(`/api/dcim/front-port-templates/${t.id}/`)).status).toBe(404);
    for (const t of rears) expect((await app.get(`/api/dcim/rear-port-templates/${t.id}/`)).status).toBe(404);
  });
});

describe('components from templates', () => {
  test('a new device gets one component per template, with names, labels, types, links and active interfaces', async () => {
    const f = await fullyTemplatedType();
    const device = await created(await app.post('/api/dcim/devices/', deviceBody(f, { name: 'pdu1' })));
    const d = device.id;
    const consoles = await list(`/api/dcim/console-ports/?device_id=${d}`);
    expect(consoles).toHaveLength(1);
    expect(consoles[0]).toMatchObject({ name: 'Console', label: 'con0', description: 'serial', type: { value: 'rj-45' }, cable: null, cable_peer: null, connected_endpoint: null });
    expect((await list(`/api/dcim/console-server-ports/?device_id=${d}`)).map((p) => p.type.value)).toEqual(['usb-a']);
    const [psu] = await list(`/api/dcim/power-ports/?device_id=${d}`);
    expect(psu).toMatchObject({ name: 'PSU1', maximum_draw: 400, allocated_draw: 200 });
    const outlets = await list(`/api/dcim/power-outlets/?device_id=${d}`);
    expect(outlets.map((o) => [o.name, o.power_port?.id ?? null, o.feed_leg?.value ?? null])).toEqual([
      ['Out1', psu.id, 'B'],
      ['Out2', null, null],
    ]);
    const interfaces = await app.get(`/api/dcim/interfaces/?device_id=${d}&api_version=1.6`);
    expect(interfaces.body.results.map((i: Obj) => [i.name, i.type.value, i.mgmt_only, i.label, i.description, i.status.value, i.enabled])).toEqual([
      ['eth0', '1000base-t', true, 'mgmt', '', 'active', true],
      ['eth1', '10gbase-x-sfpp', false, '', 'uplink', 'active', true],
    ]);
    const [rear] = await list(`/api/dcim/rear-ports/?device_id=${d}`);
    expect(rear).toMatchObject({ name: 'Rear', positions: 2 });
    const fronts = await list(`/api/dcim/front-ports/?device_id=${d}`);
    expect(fronts.map((p) => [p.name, p.rear_port.id, p.rear_port_position])).toEqual([
      ['Front1', rear.id, 1],
      ['Front2', rear.id, 2],
    ]);
    expect(fronts[0]).not.toHaveProperty('connected_endpoint');
    expect((await list(`/api/dcim/device-bays/?device_id=${d}`)).map((b) => [b.name, b.label, b.installed_device])).toEqual([['Bay 1', 'slot', null]]);
    // Only the device is logged: the copies come with it.
    const changes = await list(`/api/extras/object-changes/?changed_object_id=${d}`);
    expect(changes.map((c) => c.action.value)).toEqual(['create']);
    for (const type of ['dcim.consoleport', 'dcim.interface', 'dcim.frontport', 'dcim.devicebay']) {
      const component = (await list(`/api/dcim/${type === 'dcim.consoleport' ? 'console-ports' : type === 'dcim.interface' ? 'interfaces' : type === 'dcim.frontport' ? 'front-ports' : 'device-bays'}/?device_id=${d}`))[0];
      expect(await list(`/api/extras/object-changes/?changed_object_id=${component.id}`)).toEqual([]);
    }
    expect((await list(`/api/dcim/devices/?id=${d}&has_front_ports=true&console_ports=true&device_bays=true&pass_through_ports=true`)).length).toBe(1);
    expect(await list(`/api/dcim/devices/?id=${d}&pass_through_ports=false`)).toEqual([]);
    expect((await list(`/api/dcim/device-types/?id=${f.type.id}&pass_through_ports=true`)).length).toBe(1);
    // Deleting the device deletes its components, front ports before the rear port they map to.
    expect((await app.delete(`/api/dcim/devices/${d}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/rear-ports/${rear.id}/`)).status).toBe(404);
  });

  test('bulk creation gives every device its components', async () => {
    const f = await fullyTemplatedType();
    const res = await app.post('/api/dcim/devices/', [deviceBody(f, { name: 'bulk-a' }), deviceBody(f, { name: 'bulk-b' })]);
    expect(res.status).toBe(201);
    for (const device of res.body as Obj[]) {
      expect((await list(`/api/dcim/interfaces/?device_id=${device.id}`)).map((i) => i.name)).toEqual(['eth0', 'eth1']);
      const [rear] = await list(`/api/dcim/rear-ports/?device_id=${device.id}`);
      expect((await list(`/api/dcim/front-ports/?device_id=${device.id}`)).map((p) => p.rear_port.id)).toEqual([rear.id, rear.id]);
    }
  });

  test('a failing component rolls the device back', async () => {
    const f = await fixtures();
    await created(await app.post('/api/dcim/interface-templates/', { device_type: f.type.id, name: 'eth0', type: '1000base-t' }));
    const res = await app.post('/api/dcim/devices/', [deviceBody(f, { name: 'ok-1' }), deviceBody(f, { name: 'ok-2', device_role: null })]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual([{}, { device_role: ['This field may not be null.'] }]);
    expect(await list(`/api/dcim/devices/?name=ok-1`)).toEqual([]);
    expect(await list(`/api/dcim/interfaces/?device=ok-1`)).toEqual([]);
  });

  test('later template changes and a new device type change no existing device', async () => {
    const f = await fixtures();
    const t = await created(await app.post('/api/dcim/interface-templates/', { device_type: f.type.id, name: 'eth0', type: '1000base-t' }));
    const device = await created(await app.post('/api/dcim/devices/', deviceBody(f, { name: 'stable' })));
    await created(await app.post('/api/dcim/interface-templates/', { device_type: f.type.id, name: 'eth1', type: '1000base-t' }));
    expect((await app.patch(`/api/dcim/interface-templates/${t.id}/`, { name: 'renamed', type: 'virtual' })).status).toBe(200);
    const other = await fixtures();
    await created(await app.post('/api/dcim/console-port-templates/', { device_type: other.type.id, name: 'Console' }));
    await created(await app.post('/api/dcim/interface-templates/', { device_type: other.type.id, name: 'xe-0', type: '1000base-t' }));
    expect((await app.patch(`/api/dcim/devices/${device.id}/`, { device_type: other.type.id })).status).toBe(200);
    expect((await list(`/api/dcim/interfaces/?device_id=${device.id}`)).map((i) => [i.name, i.type.value])).toEqual([['eth0', '1000base-t']]);
    expect(await list(`/api/dcim/console-ports/?device_id=${device.id}`)).toEqual([]);
    expect((await app.delete(`/api/dcim/interface-templates/${t.id}/`)).status).toBe(204);
    expect((await list(`/api/dcim/interfaces/?device_id=${device.id}`)).map((i) => i.name)).toEqual(['eth0']);
  });
});

describe('device components', () => {
  async function twoDevices(): Promise<[Obj, Obj]> {
    const f = await fixtures({ subdevice_role: 'parent' });
    const a = await created(await app.post('/api/dcim/devices/', deviceBody(f)));
    const b = await created(await app.post('/api/dcim/devices/', deviceBody(f)));
    return [a, b];
  }

  test('front ports: the rear port of the same device, a position it has; rear ports keep enough positions', async () => {
    const [a, b] = await twoDevices();
    const rear = await created(await app.post('/api/dcim/rear-ports/', { device: a.id, name: 'R1', type: 'lc', positions: 2 }));
    expect(rear).toMatchObject({ cable: null, cable_peer: null, cable_peer_type: null });
    expect(rear).not.toHaveProperty('connected_endpoint');
    const foreign = await app.post('/api/dcim/front-ports/', { device: b.id, name: 'F1', type: 'lc', rear_port: rear.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ rear_port: ['Rear port (R1) must belong to the same device'] });
    const beyond = await app.post('/api/dcim/front-ports/', { device: a.id, name: 'F1', type: 'lc', rear_port: rear.id, rear_port_position: 3 });
    expect(beyond.body).toEqual({ rear_port_position: ['Invalid rear port position (3): Rear port R1 has only 2 positions'] });
    await created(await app.post('/api/dcim/front-ports/', { device: a.id, name: 'F1', type: 'lc', rear_port: rear.id, rear_port_position: 1 }));
    await created(await app.post('/api/dcim/front-ports/', { device: a.id, name: 'F2', type: 'lc', rear_port: rear.id, rear_port_position: 2 }));
    const shrink = await app.patch(`/api/dcim/rear-ports/${rear.id}/`, { positions: 1 });
    expect(shrink.status).toBe(400);
    expect(shrink.body).toEqual({ positions: ['The number of positions cannot be less than the number of mapped front ports (2)'] });
    expect((await app.get(`/api/dcim/rear-ports/${rear.id}/`)).body.positions).toBe(2);
    expect((await list(`/api/dcim/front-ports/?rear_port=${rear.id}&cabled=false`)).length).toBe(2);
    expect(await list(`/api/dcim/front-ports/?rear_port=${rear.id}&cabled=true`)).toEqual([]);
  });

  test('an outlet on another device\'s power port is refused; power port draws', async () => {
    const [a, b] = await twoDevices();
    const psu = await created(await app.post('/api/dcim/power-ports/', { device: a.id, name: 'PSU1', maximum_draw: 300 }));
    expect(psu).toMatchObject({ connected_endpoint: null, connected_endpoint_type: null, connected_endpoint_reachable: null });
    const res = await app.post('/api/dcim/power-outlets/', { device: b.id, name: 'O1', power_port: psu.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ __all__: ['Parent power port (PSU1) must belong to the same device'] });
    const outlet = await created(await app.post('/api/dcim/power-outlets/', { device: a.id, name: 'O1', power_port: psu.id }));
    expect((await list(`/api/dcim/power-ports/?power_outlets=${outlet.id}`)).map((p) => p.id)).toEqual([psu.id]);
    const over = await app.patch(`/api/dcim/power-ports/${psu.id}/`, { allocated_draw: 301 });
    expect(over.body).toEqual({ allocated_draw: ['Allocated draw cannot exceed the maximum draw (300W).'] });
    const brief = await app.get(`/api/dcim/power-outlets/${outlet.id}/?brief=1`);
    expect(Object.keys(brief.body)).toEqual(['id', 'display', 'url', 'device', 'name', 'cable']);
    // Deleting the device deletes its components.
    expect((await app.delete(`/api/dcim/devices/${a.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/power-outlets/${outlet.id}/`)).status).toBe(404);
  });

  test('device bays: parent devices only, never the device itself, a device in one bay at most', async () => {
    const plain = await fixtures();
    const leaf = await created(await app.post('/api/dcim/devices/', deviceBody(plain)));
    expect((await list(`/api/dcim/devices/?id=${leaf.id}&pass_through_ports=false`)).length).toBe(1);
    expect((await list(`/api/dcim/device-types/?id=${plain.type.id}&pass_through_ports=false`)).length).toBe(1);
    const refused = await app.post('/api/dcim/device-bays/', { device: leaf.id, name: 'Bay' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ __all__: [`This type of device (${plain.type.model}) does not support device bays.`] });
    const [chassis, other] = await twoDevices();
    const self = await app.post('/api/dcim/device-bays/', { device: chassis.id, name: 'Bay 1', installed_device: chassis.id });
    expect(self.body).toEqual({ __all__: ['Cannot install a device into itself.'] });
    const bay1 = await created(await app.post('/api/dcim/device-bays/', { device: chassis.id, name: 'Bay 1', installed_device: leaf.id }));
    expect(bay1.installed_device.id).toBe(leaf.id);
    const child = (await app.get(`/api/dcim/devices/${leaf.id}/`)).body;
    expect(child.parent_device).toEqual({
      id: chassis.id,
      display: chassis.display,
      url: chassis.url,
      name: chassis.name,
      device_bay: { id: bay1.id, display: 'Bay 1', url: bay1.url, device: { id: chassis.id, display: chassis.display, url: chassis.url, name: chassis.name }, name: 'Bay 1' },
    });
    expect((await app.get(`/api/dcim/devices/${chassis.id}/`)).body.parent_device).toBeNull();
    expect((await app.get(`/api/dcim/devices/?id=${leaf.id}&id=${chassis.id}`)).body.results.map((d: Obj) => d.parent_device?.id ?? null).sort()).toEqual(
      [chassis.id, null].sort(),
    );
    const twice = await app.post('/api/dcim/device-bays/', { device: other.id, name: 'Bay 1', installed_device: leaf.id });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ installed_device: ['Cannot install the specified device; device is already installed in Bay 1'] });
    // Saving the bay again with its own device is fine.
    expect((await app.patch(`/api/dcim/device-bays/${bay1.id}/`, { installed_device: leaf.id, description: 'x' })).status).toBe(200);
    expect((await list(`/api/dcim/device-bays/?installed_device=${leaf.id}`)).map((b) => b.id)).toEqual([bay1.id]);
    // Deleting the child empties the bay.
    expect((await app.delete(`/api/dcim/devices/${leaf.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/device-bays/${bay1.id}/`)).body.installed_device).toBeNull();
  });

  test('inventory items: a tree under a device, unique asset tags, names unique per parent', async () => {
    const [a, b] = await twoDevices();
    const m = await created(await app.post('/api/dcim/manufacturers/', { name: `Optics ${seq}` }));
    const root = await created(await app.post('/api/dcim/inventory-items/', { device: a.id, name: 'Linecard', manufacturer: m.id, part_id: 'LC-1', serial: 'abc', asset_tag: `tag-${seq}` }));
    expect(root).toMatchObject({ _depth: 0, discovered: false, part_id: 'LC-1' });
    const child = await created(await app.post('/api/dcim/inventory-items/', { device: a.id, parent: root.id, name: 'SFP 1' }));
    expect(child._depth).toBe(1);
    expect(child.parent).toBe(root.id);
    expect(root.parent).toBeNull();
    const dupTag = await app.post('/api/dcim/inventory-items/', { device: b.id, name: 'Other', asset_tag: `tag-${seq}` });
    expect(dupTag.body).toEqual({ asset_tag: ['inventory item with this asset tag already exists.'] });
    const dupName = await app.post('/api/dcim/inventory-items/', { device: a.id, parent: root.id, name: 'SFP 1' });
    expect(dupName.body).toEqual({ non_field_errors: ['The fields device, parent, name must make a unique set.'] });
    // Top-level items may share names.
    await created(await app.post('/api/dcim/inventory-items/', { device: a.id, name: 'Linecard' }));
    expect((await list(`/api/dcim/inventory-items/?device_id=${a.id}&serial=ABC`)).map((i) => i.id)).toEqual([root.id]);
    expect((await list(`/api/dcim/inventory-items/?parent_id=${root.id}`)).map((i) => i.id)).toEqual([child.id]);
    expect((await app.delete(`/api/dcim/inventory-items/${root.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/inventory-items/${child.id}/`)).status).toBe(404);
  });
});

describe('device types and devices', () => {
  test('a device type stays a parent while it has bay templates', async () => {
    const f = await fixtures({ subdevice_role: 'parent' });
    const bay = await created(await app.post('/api/dcim/device-bay-templates/', { device_type: f.type.id, name: 'Bay' }));
    const res = await app.patch(`/api/dcim/device-types/${f.type.id}/`, { subdevice_role: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ subdevice_role: ['Must delete all device bay templates associated with this device before declassifying it as a parent device.'] });
    expect((await app.delete(`/api/dcim/device-bay-templates/${bay.id}/`)).status).toBe(204);
    expect((await app.patch(`/api/dcim/device-types/${f.type.id}/`, { subdevice_role: '' })).status).toBe(200);
  });

  test('a device type written as a device-type library file: unknown keys are ignored, templates follow', async () => {
    const m = await created(await app.post('/api/dcim/manufacturers/', { name: `Library vendor ${seq}`, slug: `library-vendor-${seq}` }));
    const type = await created(await app.post('/api/dcim/device-types/', {
      manufacturer: { name: m.name },
      model: 'DCS-7010T-48',
      slug: `dcs-7010t-48-${seq}`,
      part_number: 'DCS-7010T-48',
      u_height: 1,
      is_full_depth: false,
      airflow: 'front-to-rear',
      weight: 4.5,
      'console-ports': [{ name: 'Console', type: 'rj-45' }],
      interfaces: [{ name: 'Ethernet1', type: '1000base-t' }],
    }));
    expect(type).not.toHaveProperty('airflow');
    await created(await app.post('/api/dcim/console-port-templates/', { device_type: type.id, name: 'Console', type: 'rj-45' }));
    await created(await app.post('/api/dcim/power-port-templates/', { device_type: type.id, name: `Library PSU ${seq}`, type: 'iec-60320-c14', maximum_draw: 180, allocated_draw: 90 }));
    // Attributes naming the power port template match exactly one object.
    const outlet = await created(await app.post('/api/dcim/power-outlet-templates/', { device_type: type.id, name: 'Out', type: 'iec-60320-c13', power_port: { name: `Library PSU ${seq}` }, feed_leg: 'A' }));
    expect(outlet.power_port.name).toBe(`Library PSU ${seq}`);
  });

  test('napalm: Nautobot 1.6 without NAPALM, never a 500', async () => {
    const f = await fixtures();
    const unnamed = await created(await app.post('/api/dcim/devices/', deviceBody(f)));
    expect((await app.get(`/api/dcim/devices/00000000-0000-4000-8000-000000000000/napalm/?method=get_facts`)).status).toBe(404);
    let res = await app.get(`/api/dcim/devices/${unnamed.id}/napalm/?method=get_facts`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: 'No platform is configured for this device.' });
    const bare = await created(await app.post('/api/dcim/platforms/', { name: `Bare OS ${seq}` }));
    await app.patch(`/api/dcim/devices/${unnamed.id}/`, { platform: bare.id });
    res = await app.get(`/api/dcim/devices/${unnamed.id}/napalm/?method=get_facts`);
    expect(res.body).toEqual({ detail: `No NAPALM driver is configured for this device's platform: Bare OS ${seq}.` });
    const eos = await created(await app.post('/api/dcim/platforms/', { name: `EOS ${seq}`, napalm_driver: 'eos' }));
    await app.patch(`/api/dcim/devices/${unnamed.id}/`, { platform: eos.id });
    res = await app.get(`/api/dcim/devices/${unnamed.id}/napalm/?method=get_facts`);
    expect(res.body).toEqual({ detail: 'This device does not have a primary IP address or device name to lookup configured.' });
    await app.patch(`/api/dcim/devices/${unnamed.id}/`, { name: 'no-such-host.invalid' });
    res = await app.get(`/api/dcim/devices/${unnamed.id}/napalm/?method=get_facts`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: 'Name lookup failure, unable to resolve IP address for no-such-host.invalid. Please set Primary IP or setup name resolution.' });
    await app.patch(`/api/dcim/devices/${unnamed.id}/`, { name: 'localhost' });
    res = await app.get(`/api/dcim/devices/${unnamed.id}/napalm/?method=get_facts`);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ detail: 'NAPALM is not installed. Please see the documentation for instructions.' });
  });
});
