import { limitClause } from './dialect/types';
import type { Executor } from './executor';
import { Params } from './params';
import { addressColumn, FAMILY_COLUMN, LENGTH_COLUMN, type NetworkOptions } from '../fields/network';
import { type Predicate } from '../query/predicate';
import { compilePredicate } from './compile-predicate';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import { blocksBetween, fromHex, makeNetwork, toHex, type Family, type IPNetwork } from '../network/ip';

/** A stored network (or address) read back as numbers. */
interface Occupied {
  first: bigint;
  last: bigint;
}

/**
 * How many rows the first seek reads; each further seek reads twice as many as the one before, up
 * to MAX_SEEK_BATCH. Nested rows inside a batch are skipped without another query. A round trip
 * costs about as much as reading a few hundred of these two-column rows, so the first seek reads
 * enough for a /16 of /24s filled by a third in one statement.
 */
const SEEK_BATCH = 256;
const MAX_SEEK_BATCH = 4096;

/**
 * Rows of `field` (a network field of `model`) of one family whose address lies in [from, to],
 * in address order, the widest first at equal addresses; `where` narrows them (VRF).
 */
async function seek(tx: Executor, model: ModelMeta, field: FieldMeta, family: number, from: bigint, to: bigint, where: Predicate, batch: number): Promise<Occupied[]> {
  const q = tx.dialect.quote;
  const role = field.opts<NetworkOptions>().role;
  const address = `${q('t0')}.${q(addressColumn(role))}`;
  const params = new Params(tx.dialect);
  const conditions = [
    `${q('t0')}.${q(FAMILY_COLUMN)} = ${params.add(family)}`,
    `${address} >= ${params.add(toHex(from))}`,
    `${address} <= ${params.add(toHex(to))}`,
    compilePredicate(where, model, 't0', params),
  ];
  const length = `${q('t0')}.${q(LENGTH_COLUMN)}`;
  // A host occupies one address whatever its mask; a network its whole range, whose end follows
  // from its start and length: reading the length rather than the broadcast column keeps the
  // seek inside the (family, address, length) index, without a lookup of each row's table entry.
  const sql = `SELECT ${address}, ${length} FROM ${q(model.table)} ${q('t0')} WHERE ${conditions.join(' AND ')}`
    + ` ORDER BY ${tx.dialect.orderText(address)}, ${length} ${limitClause(tx.dialect, params.add(batch))}`;
  const rows = await tx.rows(sql, params.values);
  if (role === 'host') return rows.map((r) => { const at = fromHex(String(r[0])); return { first: at, last: at }; });
  return rows.map((r) => makeNetwork(family as Family, fromHex(String(r[0])), Number(r[1])));
}

/**
 * The free ranges inside [from, to] not covered by any matching row, in ascending order. Each
 * step seeks past the range just found occupied, so rows nested inside it are never read and the
 * cost follows the number of top-level neighbours visited, not the size of the space.
 */
export async function* freeRanges(
  tx: Executor, model: ModelMeta, field: FieldMeta, family: number, from: bigint, to: bigint, where: Predicate,
): AsyncGenerator<[bigint, bigint]> {
  let cursor = from;
  let size = SEEK_BATCH;
  while (cursor <= to) {
    const batch = await seek(tx, model, field, family, cursor, to, where, size);
    for (const row of batch) {
      if (row.last < cursor) continue; // nested in a range already passed
      if (row.first > cursor) yield [cursor, row.first - 1n];
      cursor = row.last + 1n;
      if (cursor > to) return;
    }
    // A short batch held every row left in the range: what follows the last one is free.
    if (batch.length < size) {
      yield [cursor, to];
      return;
    }
    size = Math.min(size * 2, MAX_SEEK_BATCH);
  }
}

/** Free space inside `parent` as the fewest CIDR blocks, ascending. */
export async function freeBlocks(tx: Executor, model: ModelMeta, field: FieldMeta, parent: IPNetwork, where: Predicate): Promise<IPNetwork[]> {
  const out: IPNetwork[] = [];
  for await (const [a, b] of freeRanges(tx, model, field, parent.family, parent.first, parent.last, where)) {
    out.push(...blocksBetween(parent.family, a, b));
  }
  return out;
}

/**
 * First fit, as Nautobot allocates: for each requested length in order, the first free block
 * long enough gives `<its start>/<length>`; the rest of it stays free. Null when one does not fit.
 */
export function allocateBlocks(free: IPNetwork[], lengths: number[]): IPNetwork[] | null {
  const pool = [...free];
  const out: IPNetwork[] = [];
  for (const length of lengths) {
    const i = pool.findIndex((b) => b.length <= length);
    if (i < 0) return null;
    const block = pool[i];
    const taken = makeNetwork(block.family, block.first, length);
    out.push(taken);
    // What is left of the block after the allocated piece, as CIDR blocks, in place.
    const rest = taken.last < block.last ? blocksBetween(block.family, taken.last + 1n, block.last) : [];
    pool.splice(i, 1, ...rest);
  }
  return out;
}

/** The lowest `count` free addresses in [from, to]; fewer when space runs out. */
export async function freeAddresses(
  tx: Executor, model: ModelMeta, field: FieldMeta, family: number, from: bigint, to: bigint, where: Predicate, count: number,
): Promise<bigint[]> {
  const out: bigint[] = [];
  if (count <= 0) return out;
  for await (const [a, b] of freeRanges(tx, model, field, family, from, to, where)) {
    for (let x = a; x <= b && out.length < count; x++) out.push(x);
    if (out.length >= count) break;
  }
  return out;
}
