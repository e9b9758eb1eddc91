import { ValidationError, displayOf, type Predicate, type Predicates, type Values, type WriteContext } from '../../framework';
import { describeComponent } from './component-names';
import { Device } from './device';
import { sameChassis } from './virtual-chassis-rules';

/**
 * An interface's LAG, parent or bridge is on the interface's own device or on another member of
 * its virtual chassis (Nautobot's Interface.clean).
 */
export async function checkSameDeviceOrChassis(wc: WriteContext, device: string, target: Values, key: string, what: string): Promise<void> {
  if (target.device === device) return;
  const { chassis, shared } = await sameChassis(wc, device, target.device as string);
  if (shared) return;
  const owner = await displayOf(wc, Device, target.device as string);
  const selected = `The selected ${what} (${describeComponent(target)}) belongs to`;
  throw ValidationError.field(
    key,
    chassis ? `${selected} ${owner}, which is not part of virtual chassis ${String(chassis.name)}.` : `${selected} a different device (${owner}).`,
  );
}

/**
 * Interfaces of the devices named by `key` (`name` or `id`), and for a chassis master also the
 * non-management interfaces of the other members (Nautobot's `Device.vc_interfaces`).
 */
export function withChassisMembers(p: Predicates, key: 'name' | 'id', values: string[]): Predicate {
  const own = key === 'id' ? p.lookup('device', 'in', values) : p.lookup('device__name', 'in', values);
  const master = key === 'id' ? 'device__virtual_chassis__master' : 'device__virtual_chassis__master__name';
  return p.or([own, p.and([p.lookup(master, 'in', values), p.lookup('mgmt_only', 'exact', false)])]);
}
