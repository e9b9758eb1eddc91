import type { Predicate, Predicates } from '../../framework';

/**
 * Interfaces of the devices named by `key` (`name` or `id`), and for a chassis master also the
 * non-management interfaces of the other members (Nautobot's `Device.vc_interfaces`).
 * `p` builds over interfaces: the interface filters use it directly, the IP address filters
 * through their generic relation to interfaces.
 */
export function withChassisMembers(p: Predicates, key: 'name' | 'id', values: string[]): Predicate {
  const own = key === 'id' ? p.lookup('device', 'in', values) : p.lookup('device__name', 'in', values);
  const master = key === 'id' ? 'device__virtual_chassis__master' : 'device__virtual_chassis__master__name';
  return p.or([own, p.and([p.lookup(master, 'in', values), p.lookup('mgmt_only', 'exact', false)])]);
}
