import { ProtectedError, ValidationError, displayOf, type Id, type Values, type WriteContext } from '../../framework';
import { Device } from './device';
import { Interface } from './interface';
import { VirtualChassis } from './virtual-chassis';

/** On update the master must already be a member (on create it joins, see masterJoins). */
export async function checkMaster(values: Values, wc: WriteContext): Promise<void> {
  if (wc.creating || !values.master) return;
  const master = await wc.store.get(Device, values.master as string);
  if (master && master.virtual_chassis !== wc.id) {
    throw ValidationError.field('master', `The selected master (${await displayOf(wc, Device, master.id as string)}) is not assigned to this virtual chassis.`);
  }
}

/** A new chassis' master joins it, at position 1 when it had none (taken from another chassis, it just moves). */
export async function masterJoins(values: Values, wc: WriteContext): Promise<void> {
  if (!values.master) return;
  const master = await wc.store.get(Device, values.master as string);
  if (!master) return;
  await wc.store.update(Device, master.id as string, { virtual_chassis: wc.id, vc_position: master.vc_position ?? 1 });
}

/**
 * Members of deleted chassis lose their position and priority with the chassis. A LAG spanning
 * members would end up across devices: such a chassis is not deleted (409 naming the interfaces).
 */
export async function releaseMembers(ids: Id[], wc: WriteContext): Promise<void> {
  const members = await wc.store.find(Device, { virtual_chassis__in: ids });
  const deviceOf = new Map(members.map((m) => [m.id as string, m.virtual_chassis as string]));
  const interfaces = members.length ? await wc.store.find(Interface, { device__in: [...deviceOf.keys()], lag__isnull: false }) : [];
  const lags = interfaces.length ? await wc.store.find(Interface, { id__in: [...new Set(interfaces.map((i) => i.lag as string))] }) : [];
  const lagDevice = new Map(lags.map((l) => [l.id as string, l.device as string]));
  const spanning = interfaces.filter((i) => lagDevice.get(i.lag as string) !== i.device && deviceOf.has(lagDevice.get(i.lag as string) as string));
  if (spanning.length) {
    throw new ProtectedError(await Promise.all(spanning.map(async (i) => ({ display: await displayOf(wc, Interface, i.id as string), id: i.id as string }))));
  }
  await wc.store.updateWhere(Device, { virtual_chassis__in: ids }, { virtual_chassis: null, vc_position: null, vc_priority: null });
}

/** Nautobot's Device.clean rules on chassis membership: a member has a position, the master never leaves its chassis. */
export async function checkChassisMembership(values: Values, wc: WriteContext): Promise<void> {
  const chassis = values.virtual_chassis as string | null | undefined;
  if (chassis && (values.vc_position === null || values.vc_position === undefined)) {
    throw ValidationError.field('vc_position', 'A device assigned to a virtual chassis must have its position defined.');
  }
  if (!wc.creating && wc.current?.virtual_chassis && wc.current.virtual_chassis !== chassis) {
    const left = await wc.store.get(VirtualChassis, wc.current.virtual_chassis as string);
    if (left?.master === wc.id) {
      throw ValidationError.field('virtual_chassis', `The master device for the virtual chassis (${String(left.name)}) may not be removed`);
    }
  }
}

/** (virtual_chassis, vc_position) is unique, with Django's model-level message. */
export async function checkChassisPosition(values: Values, wc: WriteContext): Promise<void> {
  if (!values.virtual_chassis || values.vc_position == null) return;
  if (await wc.store.count(Device, { virtual_chassis: values.virtual_chassis, vc_position: values.vc_position }, { exceptId: wc.id })) {
    throw ValidationError.model('Device with this Virtual chassis and Vc position already exists.');
  }
}

/** Whether an interface of another device counts as the device's own: a member of its chassis. */
export async function sameChassis(wc: WriteContext, device: string, other: string): Promise<{ chassis: Values | null; shared: boolean }> {
  const [mine, theirs] = await Promise.all([wc.store.get(Device, device), wc.store.get(Device, other)]);
  const chassis = mine?.virtual_chassis ? await wc.store.get(VirtualChassis, mine.virtual_chassis as string) : null;
  return { chassis, shared: !!chassis && theirs?.virtual_chassis === chassis.id };
}

/** A chassis master may take its primary IPs from the non-management interfaces of the other members. */
export async function masterMayUse(wc: WriteContext): Promise<(iface: Values) => Promise<boolean>> {
  const [chassis] = wc.creating ? [] : await wc.store.find(VirtualChassis, { master: wc.id });
  if (!chassis) return async () => false;
  return async (iface) => {
    if (iface.mgmt_only) return false;
    const owner = await wc.store.get(Device, iface.device as string);
    return owner?.virtual_chassis === chassis.id;
  };
}
