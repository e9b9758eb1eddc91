import { FilterValueError } from '../../errors';
import { addressColumn, BROADCAST_COLUMN, FAMILY_COLUMN, LENGTH_COLUMN, NET_LOOKUPS, type NetworkOptions, type NetworkRole } from '../../fields/network';
import type { FieldMeta } from '../../metadata/model-meta';
import { toHex, type IPNetwork } from '../../network/ip';
import type { Params } from '../params';
import { compareText, inList, orJoin } from './values';

/** ORM-only lookups on the prefix length (named filters such as `mask_length__gte`). */
const LENGTH_OPS: Record<string, string> = { mask_length: '=', mask_length_gte: '>=', mask_length_lte: '<=' };

/** Rows of a network column set `col` relative to network `n` (always guarded by family). */
export function networkCondition(col: (name: string) => string, role: NetworkRole, lookup: string, n: IPNetwork, params: Params): string {
  const fam = `${col(FAMILY_COLUMN)} = ${params.add(n.family)}`;
  const addr = col(addressColumn(role));
  const bcast = col(BROADCAST_COLUMN);
  const len = col(LENGTH_COLUMN);
  const F = () => params.add(toHex(n.first));
  const L = () => params.add(toHex(n.last));
  const P = () => params.add(n.length);
  switch (lookup) {
    case 'net_equals':
      return `(${fam} AND ${len} = ${P()} AND ${addr} = ${F()})`;
    case 'net_contained':
      return `(${fam} AND ${len} > ${P()} AND ${addr} >= ${F()} AND ${addr} <= ${L()})`;
    case 'net_contained_or_equal':
      return `(${fam} AND ${len} >= ${P()} AND ${addr} >= ${F()} AND ${addr} <= ${L()})`;
    case 'net_contains':
      return `(${fam} AND ${len} < ${P()} AND ${addr} <= ${F()} AND ${bcast} >= ${F()})`;
    case 'net_contains_or_equals':
      return `(${fam} AND ${len} <= ${P()} AND ${addr} <= ${F()} AND ${bcast} >= ${F()})`;
    case 'net_host':
      return `(${fam} AND ${addr} = ${params.add(toHex(n.host))})`;
    case 'net_host_contained':
    case 'net_in':
      return `(${fam} AND ${addr} >= ${F()} AND ${addr} <= ${L()})`;
    default:
      throw new FilterValueError(`Unsupported lookup ${lookup}`);
  }
}

/**
 * Lookups of a network field over its stored columns: containment and equality of networks, the
 * prefix length and the family, and text lookups on the canonical text.
 */
export function compareNetwork(field: FieldMeta, col: (column: string) => string, lookup: string, values: unknown[], params: Params): string {
  const role = field.opts<NetworkOptions>().role;
  if (NET_LOOKUPS.has(lookup)) {
    return orJoin(values.map((v) => networkCondition(col, role, lookup, v as IPNetwork, params)));
  }
  const lengthOp = LENGTH_OPS[lookup];
  if (lengthOp) return orJoin(values.map((v) => `${col(LENGTH_COLUMN)} ${lengthOp} ${params.add(v)}`));
  if (lookup === 'family') return inList(col(FAMILY_COLUMN), values, params);
  const text = col(field.name);
  if (lookup === 'exact' || lookup === 'in') return inList(text, values, params);
  return compareText(params.dialect, text, lookup, values, params);
}
