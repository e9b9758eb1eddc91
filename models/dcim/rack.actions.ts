import {
  and,
  canonicalUuid,
  defineActions,
  ormFilter,
  PermissionDenied,
  Store,
  ValidationError,
  type ActionRequest,
  type Id,
  type Json,
  type Values,
} from '../../framework';
import { DeviceFaceChoices } from './choices';
import { Device } from './device';
import { DeviceRole } from './device-role';
import { DeviceType } from './device-type';
import { elevationSvg, rackUnits, type ElevationDevice, type ElevationRack } from './rack-elevation';
import { Rack } from './rack';
import { RackReservation } from './rack-reservation';

/** DRF's BooleanField spellings. */
const TRUE_VALUES = new Set(['t', 'T', 'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON', '1']);
const FALSE_VALUES = new Set(['f', 'F', 'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF', '0']);

interface ElevationParams {
  face: string;
  render: string;
  q: string;
  exclude: Id | null;
  expandDevices: boolean;
  displayFullname: boolean;
  unitWidth: number;
  unitHeight: number;
  legendWidth: number;
}

/** Nautobot's RackElevationDetailFilterSerializer: every bad parameter reported at once. */
function elevationParams(req: ActionRequest): ElevationParams {
  const errors: Record<string, string[]> = {};
  const param = (name: string) => req.ctx.param(name);
  const choice = (name: string, choices: string[], fallback: string): string => {
    const v = param(name);
    if (v === undefined) return fallback;
    if (!choices.includes(v)) errors[name] = [`"${v}" is not a valid choice.`];
    return v;
  };
  const integer = (name: string, fallback: number): number => {
    const v = param(name);
    if (v === undefined) return fallback;
    if (!/^\s*[+-]?\d+\s*$/.test(v)) {
      errors[name] = ['A valid integer is required.'];
      return fallback;
    }
    return Number(v);
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const v = param(name);
    if (v === undefined) return fallback;
    if (TRUE_VALUES.has(v)) return true;
    if (FALSE_VALUES.has(v)) return false;
    errors[name] = ['Must be a valid boolean.'];
    return fallback;
  };
  const face = choice('face', DeviceFaceChoices.values, 'front');
  const render = choice('render', ['json', 'svg'], 'json');
  let exclude: Id | null = null;
  const rawExclude = param('exclude');
  if (rawExclude !== undefined && rawExclude !== '') {
    exclude = canonicalUuid(rawExclude);
    if (exclude === null) errors.exclude = ['Must be a valid UUID.'];
  }
  const params: ElevationParams = {
    face,
    render,
    q: param('q') ?? '',
    exclude,
    expandDevices: bool('expand_devices', true),
    displayFullname: bool('display_fullname', true),
    unitWidth: integer('unit_width', 230),
    unitHeight: integer('unit_height', 22),
    legendWidth: integer('legend_width', 30),
  };
  bool('include_images', true);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return params;
}

/** The rack's positioned devices with what the elevation shows of them, in one read per model. */
async function elevationDevices(req: ActionRequest, rack: Values, exclude: Id | null): Promise<ElevationDevice[]> {
  const db = req.ctx.db.reader;
  const store = new Store(db, req.ctx.registry);
  const devices = (await store.find(Device, { rack: rack.id, position__gte: 1 })).filter((d) => d.id !== exclude);
  if (!devices.length) return [];
  const types = new Map((await store.find(DeviceType, [...new Set(devices.map((d) => d.device_type as Id))])).map((t) => [t.id as Id, t]));
  const roles = new Map((await store.find(DeviceRole, [...new Set(devices.map((d) => d.device_role as Id))])).map((r) => [r.id as Id, r]));
  const deviceMeta = req.meta(Device);
  const visible = new Set<Id>();
  try {
    const restrict = await req.restrict(Device, 'view');
    for (const id of await store.ids(deviceMeta, and([restrict, ormFilter(deviceMeta, { id__in: devices.map((d) => d.id) })]))) visible.add(id);
  } catch (err) {
    // No permission to view devices at all: the units are shown occupied, the devices not.
    if (!(err instanceof PermissionDenied)) throw err;
  }
  return devices.map((d) => {
    const type = types.get(d.device_type as Id);
    return {
      id: d.id as Id,
      name: d.name ? String(d.name) : `${String(type?.model ?? 'device')} (${String(d.id)})`,
      position: d.position as number,
      height: Number(type?.u_height ?? 0),
      face: String(d.face ?? ''),
      fullDepth: Boolean(type?.is_full_depth),
      color: String(roles.get(d.device_role as Id)?.color ?? '9e9e9e'),
      visible: visible.has(d.id as Id),
    };
  });
}

/** Reserved unit → the reservation's description. */
async function reservedUnits(req: ActionRequest, rack: Values): Promise<Map<number, string>> {
  const store = new Store(req.ctx.db.reader, req.ctx.registry);
  const out = new Map<number, string>();
  for (const r of await store.find(RackReservation, { rack: rack.id })) {
    for (const u of r.units as number[]) out.set(u, String(r.description));
  }
  return out;
}

/** `GET /api/dcim/racks/<id>/elevation/`: the units of one face as a paginated list, or its SVG drawing. */
async function elevation(req: ActionRequest) {
  const rack = await req.object(req.ctx.db.reader, await req.restrict(Rack, 'view'));
  const params = elevationParams(req);
  const shape: ElevationRack = {
    id: rack.id as Id,
    name: String(rack.name),
    site: rack.site as Id,
    u_height: rack.u_height as number,
    desc_units: Boolean(rack.desc_units),
  };
  const devices = await elevationDevices(req, rack, params.exclude);
  if (params.render === 'svg') {
    const svg = elevationSvg(shape, devices, {
      face: params.face,
      unitWidth: params.unitWidth,
      unitHeight: params.unitHeight,
      legendWidth: params.legendWidth,
      displayFullname: params.displayFullname,
      reserved: await reservedUnits(req, rack),
    });
    return { status: 200, raw: { contentType: 'image/svg+xml', text: svg }, headers: { 'X-Frame-Options': 'SAMEORIGIN' } };
  }
  let units = rackUnits(shape, params.face, devices, params.expandDevices);
  if (params.q) units = units.filter((u) => String(u.id).includes(params.q) || `U${u.id}`.includes(params.q));
  const shown = [...new Set(units.map((u) => u.device?.id).filter((id): id is Id => id !== undefined))];
  const nested = await req.nestedMany(Device, shown);
  const face = { value: params.face, label: DeviceFaceChoices.label(params.face as 'front' | 'rear') ?? params.face };
  const items: Json[] = units.map((u) => ({
    id: u.id,
    name: `U${u.id}`,
    face,
    device: u.device ? nested.get(u.device.id) ?? null : null,
    occupied: u.occupied,
  }));
  return req.paginate(items);
}

export const rackActions = defineActions(Rack, {
  elevation: { detail: true, GET: { action: 'view', handler: elevation } },
});
