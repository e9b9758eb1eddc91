/**
 * Where a device sits: site, location, rack, position and face (Nautobot's Device.clean rules for
 * them, in its order), the free units of a rack, and the device-type height change check.
 */
import { ValidationError, displayOf, type Id, type Values, type WriteContext } from '../../framework';
import { Device } from './device';
import { DeviceType } from './device-type';
import { LocationType } from './location-type';
import { baseSiteOf, lineageOf } from './location-rules';
import { Rack } from './rack';
import { Site } from './site';

/** A positioned device as the free-unit computation needs it. */
export interface MountedDevice {
  id: Id;
  position: number;
  face: string;
  height: number;
  fullDepth: boolean;
}

/** The positioned devices of a rack with their heights and depths. */
export async function mountedDevices(wc: Pick<WriteContext, 'store'>, rack: Id): Promise<MountedDevice[]> {
  const devices = await wc.store.find(Device, { rack, position__gte: 1 });
  const typeIds = [...new Set(devices.map((d) => d.device_type as Id))];
  const types = new Map((typeIds.length ? await wc.store.find(DeviceType, typeIds) : []).map((t) => [t.id as Id, t]));
  return devices.map((d) => {
    const type = types.get(d.device_type as Id);
    return {
      id: d.id as Id,
      position: d.position as number,
      face: String(d.face ?? ''),
      height: Number(type?.u_height ?? 0),
      fullDepth: Boolean(type?.is_full_depth),
    };
  });
}

/**
 * Nautobot's Rack.get_available_units: the start units from which `height` units are free. A
 * device blocks its units when it is full depth, on the asked face, or the placed one is full
 * depth (`face` null). Reservations do not count.
 */
export function availableUnits(rackHeight: number, height: number, face: string | null, devices: readonly MountedDevice[], exclude: readonly Id[] = []): number[] {
  const free = new Set<number>();
  for (let u = 1; u <= rackHeight; u++) free.add(u);
  for (const d of devices) {
    if (exclude.includes(d.id)) continue;
    if (face !== null && d.face !== face && !d.fullDepth) continue;
    for (let u = d.position; u < d.position + d.height; u++) free.delete(u);
  }
  const starts: number[] = [];
  for (let u = 1; u <= rackHeight; u++) {
    let fits = free.has(u);
    for (let k = u; fits && k < u + height; k++) fits = free.has(k);
    if (fits) starts.push(u);
  }
  return starts;
}

const present = (v: unknown): boolean => v !== null && v !== undefined && v !== '';

/** Device placement rules; the first failing one answers. */
export async function checkPlacement(values: Values, wc: WriteContext): Promise<void> {
  const rackId = present(values.rack) ? (values.rack as Id) : null;
  const position = present(values.position) ? (values.position as number) : null;
  const face = present(values.face) ? String(values.face) : null;
  // The (rack, position, face) twin check of the serializer runs before the model's rules.
  if (rackId && position !== null && face && (await wc.store.count(Device, { rack: rackId, position, face }, { exceptId: wc.id }))) {
    throw new ValidationError({ non_field_errors: ['The position and face is already occupied on this rack. The fields rack, position, face must make a unique set.'] });
  }
  const rack = rackId ? await wc.store.get(Rack, rackId) : null;
  if (rack && rack.site !== values.site) {
    const site = await wc.store.get(Site, values.site as Id);
    throw ValidationError.field('rack', `Rack ${await displayOf(wc, Rack, rack.id as Id)} does not belong to site ${String(site?.name)}.`);
  }
  if (present(values.location)) {
    const lineage = await lineageOf(wc, values.location as Id);
    const location = lineage[0];
    if (location) {
      if (baseSiteOf(lineage) !== values.site) {
        const site = await wc.store.get(Site, values.site as Id);
        throw ValidationError.field('location', `Location "${String(location.name)}" does not belong to site "${String(site?.name)}".`);
      }
      if (rack?.location && rack.location !== location.id) {
        throw ValidationError.field('rack', `Rack "${String(rack.name)}" does not belong to location "${String(location.name)}".`);
      }
      const type = await wc.store.get(LocationType, location.location_type as Id);
      if (!((type?.content_types as string[] | undefined) ?? []).includes(wc.model.label)) {
        throw ValidationError.field('location', `Devices may not associate to locations of type "${String(type?.name)}".`);
      }
    }
  }
  if (!rack && face) throw ValidationError.field('face', 'Cannot select a rack face without assigning a rack.');
  if (!rack && position !== null) throw ValidationError.field('position', 'Cannot select a rack position without assigning a rack.');
  if (position !== null && !face) throw ValidationError.field('face', 'Must specify rack face when defining rack position.');
  const type = await wc.store.get(DeviceType, values.device_type as Id);
  if (!type || !rack) return;
  const height = Number(type.u_height);
  if (position !== null && height === 0) {
    throw ValidationError.field('position', `A U0 device type (${String(type.model)}) cannot be assigned to a rack position.`);
  }
  if (type.subdevice_role === 'child' && face) {
    throw ValidationError.field('face', 'Child device types cannot be assigned to a rack face. This is an attribute of the parent device.');
  }
  if (type.subdevice_role === 'child' && position !== null) {
    throw ValidationError.field('position', 'Child device types cannot be assigned to a rack position. This is an attribute of the parent device.');
  }
  if (position === null) return;
  const free = availableUnits(rack.u_height as number, height, type.is_full_depth ? null : face, await mountedDevices(wc, rack.id as Id), [wc.id]);
  if (!free.includes(position)) {
    throw ValidationError.field(
      'position',
      `U${position} is already occupied or does not have sufficient space to accommodate this device type: ${String(type.model)} (${height}U)`,
    );
  }
}

/** A device type whose height changes must still fit every racked instance (Nautobot's DeviceType.clean). */
export async function checkTypeHeight(values: Values, wc: WriteContext): Promise<void> {
  if (wc.creating || !wc.current) return;
  const before = Number(wc.current.u_height);
  const after = Number(values.u_height);
  if (after === before) return;
  const racked = await wc.store.find(Device, { device_type: wc.id, position__isnull: false });
  if (after > before) {
    for (const d of racked) {
      if (!d.rack) continue;
      const rack = await wc.store.get(Rack, d.rack as Id);
      if (!rack) continue;
      const face = values.is_full_depth ? null : String(d.face ?? '');
      // As in Nautobot, the other devices keep the stored height of their type while this one is measured.
      const devices = await mountedDevices(wc, rack.id as Id);
      if (!availableUnits(rack.u_height as number, after, face, devices, [d.id as Id]).includes(d.position as number)) {
        const device = await displayOf(wc, Device, d.id as Id);
        const rackName = await displayOf(wc, Rack, rack.id as Id);
        throw ValidationError.field('u_height', `Device ${device} in rack ${rackName} does not have sufficient space to accommodate a height of ${after}U`);
      }
    }
  } else if (after === 0 && racked.length) {
    const url = `/dcim/devices/?manufacturer_id=${String(values.manufacturer)}&amp;device_type_id=${String(wc.id)}`;
    throw ValidationError.field('u_height', `Unable to set 0U height: Found <a href="${url}">${racked.length} instances</a> already mounted within racks.`);
  }
}


/** A cluster at a location hosts only devices at that location or below it (both set). */
export async function checkClusterLocation(values: Values, wc: WriteContext, cluster: Values | null): Promise<void> {
  if (!cluster?.location || !present(values.location)) return;
  const lineage = await lineageOf(wc, values.location as Id);
  if (!lineage.some((l) => l.id === cluster.location)) {
    throw ValidationError.field('cluster', `The assigned cluster belongs to a location that does not include ${String(lineage[0]?.name)}.`);
  }
}
