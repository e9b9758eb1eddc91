import { FieldError, parseNetwork, type IPNetwork, type Predicate, type Predicates } from '../../framework';

/** The network a filter value names, or null when it names none (such filters match nothing). */
export function optionalNetwork(raw: string): IPNetwork | null {
  try {
    return parseNetwork(raw);
  } catch {
    return null;
  }
}

const HEXTET = /^[0-9a-f]{1,4}$/i;

/**
 * Networks a partial address typed into `q` stands for, as Nautobot reads it: `10.10` is
 * 10.10.0.0/16, `2001:db8` is 2001:db8::/32, a bare number below 256 is both 10.0.0.0/8 and
 * 10::/16, `fe80` is fe80::/16; the mask part is ignored.
 */
export function searchNetworks(q: string): string[] {
  const text = q.trim().split('/')[0];
  if (text.includes(':')) {
    if (text.includes('::')) return optionalNetwork(text) ? [`${text}/128`] : [];
    const parts = text.split(':').filter((p) => p !== '');
    if (parts.length === 0 || parts.length > 8 || !parts.every((p) => HEXTET.test(p))) return [];
    const full = parts.length === 8 ? parts.join(':') : `${parts.join(':')}::`;
    return [`${full}/${parts.length * 16}`];
  }
  if (text.includes('.')) {
    const octets = text.split('.').filter((p) => p !== '');
    if (octets.length === 0 || octets.length > 4 || !octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255)) return [];
    const padded = [...octets.map(Number), 0, 0, 0].slice(0, 4);
    return [`${padded.join('.')}/${octets.length * 8}`];
  }
  const out: string[] = [];
  if (/^\d+$/.test(text) && Number(text) < 256) out.push(`${Number(text)}.0.0.0/8`);
  if (HEXTET.test(text)) out.push(`${text}::/16`);
  return out;
}

/** `q` of prefixes and aggregates: description, or networks inside or around the typed one. */
export function networkSearch(q: string, p: Predicates, field: string): Predicate {
  if (!q.trim()) return p.and([]);
  const parts: Predicate[] = [p.lookup('description', 'icontains', q)];
  for (const n of searchNetworks(q)) {
    parts.push(p.lookup(field, 'net_contained_or_equal', n), p.lookup(field, 'net_contains_or_equals', n));
  }
  return p.or(parts);
}

/** `q` of IP addresses: DNS name, description, or hosts inside the typed network. */
export function addressSearch(q: string, p: Predicates): Predicate {
  if (!q.trim()) return p.and([]);
  const parts: Predicate[] = [p.lookup('dns_name', 'icontains', q), p.lookup('description', 'icontains', q)];
  for (const n of searchNetworks(q)) parts.push(p.lookup('address', 'net_host_contained', n));
  return p.or(parts);
}

/**
 * Objects present in a VRF: in it, or in a VRF exporting a route target that it imports.
 * `by` is `id` for `present_in_vrf_id`, `rd` for `present_in_vrf`.
 */
export function presentInVrf(value: string, p: Predicates, by: 'id' | 'rd'): Predicate {
  return p.or([p.lookup(`vrf__${by}`, 'exact', value), p.lookup(`vrf__export_targets__importing_vrfs__${by}`, 'exact', value)]);
}

const UUID_TEXT = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * Attributes of the IP addresses a filter value names: an id, or an address string matched as
 * Nautobot's `filter_address_or_pk_in` does (host and mask length with a mask, the host alone
 * without). `prefix` reaches the address through a relation (`primary_ip4__`).
 */
export function addressOrIdAttributes(value: string, prefix = ''): Record<string, unknown> {
  const text = value.trim();
  if (UUID_TEXT.test(text)) return { [`${prefix}id`]: text };
  let network: IPNetwork;
  try {
    network = parseNetwork(text);
  } catch (err) {
    throw new FieldError((err as Error).message);
  }
  const host = { [`${prefix}address__net_host`]: text };
  return text.includes('/') ? { ...host, [`${prefix}address__mask_length`]: network.length } : host;
}
