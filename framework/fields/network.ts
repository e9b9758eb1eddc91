import { Index } from 'typeorm';
import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { FieldOptions } from '../metadata/types';
import {
  BITS, formatAddress, fromHex, hostText, IPParseError, makeNetwork, networkText, parseNetwork, toHex, type Family, type IPNetwork,
} from '../network/ip';
import { applyColumn, baseInfo, textFilterValue } from './common';
import { FilterValueError, type FieldKind } from './kind';
import { integerFilterValue } from './integer';

/**
 * `network`: a prefix; host bits are cleared on write. `host`: an interface address; the host is
 * kept. Both store family, the first (or host) address, the last address and the prefix length
 * in fixed-width hex, plus the canonical text for string lookups.
 */
export type NetworkRole = 'network' | 'host';

export interface NetworkOptions extends FieldOptions {
  role: NetworkRole;
  /** Model name in the `/0` message (`Cannot create prefix with /0 mask.`). */
  noun: string;
}

export const FAMILY_COLUMN = 'family';
export const BROADCAST_COLUMN = 'broadcast';
export const LENGTH_COLUMN = 'prefix_length';

/** Column of the address: `network` for prefixes, `host` for interface addresses. */
export function addressColumn(role: NetworkRole): string {
  return role === 'network' ? 'network' : 'host';
}

function opts(field: FieldMeta): NetworkOptions {
  return field.opts<NetworkOptions>();
}

/** Lookups offered as `<field>__<lookup>` parameters (the plain name is left to the model's own filter). */
export const NETWORK_LOOKUPS = [
  'net_equals', 'net_contained', 'net_contained_or_equal', 'net_contains', 'net_contains_or_equals',
  'net_host', 'net_host_contained', 'net_in', 'family',
  'exact', 'iexact', 'startswith', 'istartswith', 'endswith', 'iendswith', 'regex', 'iregex',
] as const;

/** ORM-only lookups on the prefix length (named filters such as `mask_length__gte`). */
export const LENGTH_LOOKUPS: ReadonlySet<string> = new Set(['mask_length', 'mask_length_gte', 'mask_length_lte']);

/** Lookups comparing networks (containment, equality, hosts). */
export const NET_LOOKUPS: ReadonlySet<string> = new Set<string>(NETWORK_LOOKUPS.filter((l) => l.startsWith('net_')));

export function filterNetwork(raw: string): IPNetwork {
  try {
    return parseNetwork(raw);
  } catch (err) {
    if (err instanceof IPParseError) throw new FilterValueError(err.message);
    throw err;
  }
}

export const networkKind: FieldKind = {
  name: 'network',
  sameInJson: true,
  textual: true,
  decorate(proto, property, options: NetworkOptions) {
    const address = addressColumn(options.role);
    applyColumn(proto, property, { name: property, type: 'varchar', length: 43, nullable: false });
    applyColumn(proto, address, { name: address, type: 'varchar', length: 32, nullable: false });
    applyColumn(proto, BROADCAST_COLUMN, { name: BROADCAST_COLUMN, type: 'varchar', length: 32, nullable: false });
    applyColumn(proto, LENGTH_COLUMN, { name: LENGTH_COLUMN, type: 'integer', nullable: false });
    const cls = (proto as { constructor: Function }).constructor;
    // Containment and ordering are range scans on these.
    Index([FAMILY_COLUMN, address, LENGTH_COLUMN])(cls);
    Index([FAMILY_COLUMN, BROADCAST_COLUMN])(cls);
  },
  column: (field) => field.name,
  loadColumns: (field) => [field.name],
  // The address column holds fixed-width lower-case hex, which every collation orders as bytes do:
  // ordered as it is, it matches the index above (a COLLATE would keep PostgreSQL from using it).
  orderColumns: (field) => [
    { column: FAMILY_COLUMN, text: false },
    { column: addressColumn(opts(field).role), text: false },
    { column: LENGTH_COLUMN, text: false },
  ],
  reader(field, scope) {
    const i = scope.column(field.name);
    return (row) => (row[i] ?? null) as string | null;
  },
  parse(field, input) {
    if (input === null) throw new FieldError('This field may not be null.');
    if (typeof input !== 'string') throw new FieldError(`Invalid IP address format: ${JSON.stringify(input)}`);
    let n: IPNetwork;
    try {
      n = parseNetwork(input);
    } catch (err) {
      if (err instanceof IPParseError) throw new FieldError(err.message);
      throw err;
    }
    const o = opts(field);
    if (n.length === 0) throw new FieldError(`Cannot create ${o.noun} with /0 mask.`);
    return o.role === 'network' ? makeNetwork(n.family, n.first, n.length) : n;
  },
  load(field, row) {
    const text = row[field.name];
    return typeof text === 'string' ? parseNetwork(text) : null;
  },
  store(field, value) {
    const n = value as IPNetwork;
    const role = opts(field).role;
    return {
      [field.name]: role === 'network' ? networkText(n) : hostText(n),
      [FAMILY_COLUMN]: n.family,
      [addressColumn(role)]: toHex(role === 'network' ? n.first : n.host),
      [BROADCAST_COLUMN]: toHex(n.last),
      [LENGTH_COLUMN]: n.length,
    };
  },
  lookups: () => NETWORK_LOOKUPS,
  // Nautobot's permission constraints name the stored address column of IPAM models.
  namedColumns: (field) => [addressColumn(opts(field).role)],
  // As Nautobot stores them: the address (`network` or `host`), `broadcast` and `prefix_length`.
  databaseColumns(field, value) {
    const role = opts(field).role;
    const n = value as IPNetwork | null | undefined;
    const address = addressColumn(role);
    if (!n) return { [address]: null, broadcast: null, prefix_length: null };
    return {
      [address]: formatAddress(n.family, role === 'host' ? n.host : n.first),
      broadcast: formatAddress(n.family, n.last),
      prefix_length: n.length,
    };
  },
  filterValue(_field, raw, lookup) {
    if (NET_LOOKUPS.has(lookup)) return filterNetwork(raw);
    if (LENGTH_LOOKUPS.has(lookup)) return integerFilterValue(raw);
    if (lookup === 'family') return ipFamilyKind.filterValue?.(_field, raw, lookup);
    return textFilterValue(raw, lookup);
  },
  lookupValues: (_field, lookup) => (lookup === 'family' ? { type: 'integer' } : undefined),
  comparison: 'network',
  info: (field) => baseInfo(field, 'string'),
  schema: () => ({ type: 'string' }),
};

/** Decoded network of a stored row (used by allocation). */
export function rowNetwork(family: number, addressHex: string, length: number): IPNetwork {
  return makeNetwork(family as Family, fromHex(addressHex), length);
}

/** `family`: 4 or 6, read as `{value, label}` (a plain integer in brief forms), never written. */
export const ipFamilyKind: FieldKind = {
  name: 'ip-family',
  sameInJson: true,
  // Derived from the network: the database form shows the network's own columns.
  databaseForm: 'omitted',
  decorate(proto, property) {
    applyColumn(proto, property, { name: FAMILY_COLUMN, type: 'integer', nullable: false });
  },
  column: () => FAMILY_COLUMN,
  reader(_field, scope, mode) {
    const i = scope.column(FAMILY_COLUMN);
    if (mode.brief || mode.nested) return (row) => (row[i] === null ? null : Number(row[i]));
    return (row) => (row[i] === null ? null : { value: Number(row[i]), label: `IPv${Number(row[i])}` });
  },
  load: (_field, row) => (row[FAMILY_COLUMN] === null ? null : Number(row[FAMILY_COLUMN])),
  lookups: () => [''],
  filterValue(_field, raw) {
    const t = raw.trim();
    if (t !== '4' && t !== '6') throw new FilterValueError('Must be 4 or 6.');
    return Number(t);
  },
  comparison: 'equality',
  info: (field) => ({ ...baseInfo(field, 'field'), read_only: true }),
  schema: (_field, mode) =>
    mode !== 'read'
      ? { type: 'integer', enum: [4, 6] }
      : { type: 'object', properties: { value: { type: 'integer', enum: [4, 6] }, label: { type: 'string', enum: ['IPv4', 'IPv6'] } } },
};

export { BITS };
