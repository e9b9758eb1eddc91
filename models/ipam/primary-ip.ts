import { hostText, ValidationError, type IPNetwork, type Values, type WriteContext } from '../../framework';
import { IPAddress } from './ip-address';

/**
 * `primary_ip4` / `primary_ip6` of a device or virtual machine: of the right family and assigned
 * to one of its interfaces (`interfaceType` objects whose `ownerField` is this object), or the
 * NAT-outside address of such an address. `alsoEligible` admits interfaces of other objects (a
 * chassis master's members).
 */
export async function checkPrimaryIps(
  values: Values,
  wc: WriteContext,
  interfaceType: string,
  ownerField: string,
  alsoEligible: (iface: Values) => boolean | Promise<boolean> = () => false,
): Promise<void> {
  for (const [field, family] of [['primary_ip4', 4], ['primary_ip6', 6]] as const) {
    const id = values[field] as string | null | undefined;
    if (!id) continue;
    const ip = await wc.store.get(IPAddress, id);
    if (!ip) continue;
    const address = ip.address as IPNetwork;
    if (address.family !== family) throw ValidationError.field(field, `${hostText(address)} is not an IPv${family} address.`);
    const assignedHere = async (candidate: Values): Promise<boolean> => {
      if (candidate.assigned_object_type !== interfaceType || !candidate.assigned_object_id) return false;
      const iface = await wc.store.get(wc.registry.get(interfaceType)?.cls as typeof IPAddress, candidate.assigned_object_id as string);
      return !!iface && (iface[ownerField] === wc.id || (await alsoEligible(iface)));
    };
    const inside = ip.nat_inside ? await wc.store.get(IPAddress, ip.nat_inside as string) : null;
    if (!(await assignedHere(ip)) && !(inside && (await assignedHere(inside)))) {
      throw ValidationError.field(field, `The specified IP address (${hostText(address)}) is not assigned to this ${ownerField === 'device' ? 'device' : 'virtual machine'}.`);
    }
  }
}
