import ipaddr from 'ipaddr.js';

export type Family = 4 | 6;

/**
 * An IPv4 or IPv6 network or interface address: the address as given (`host`), its prefix
 * length, and the first and last address of the network it lies in. Addresses are bigints.
 */
export interface IPNetwork {
  readonly family: Family;
  readonly host: bigint;
  readonly length: number;
  readonly first: bigint;
  readonly last: bigint;
}

export class IPParseError extends Error {}

export const BITS: Record<Family, number> = { 4: 32, 6: 128 };

function toBigInt(addr: ipaddr.IPv4 | ipaddr.IPv6): bigint {
  let n = 0n;
  for (const byte of addr.toByteArray()) n = (n << 8n) | BigInt(byte);
  return n;
}

export function makeNetwork(family: Family, host: bigint, length: number): IPNetwork {
  const bits = BigInt(BITS[family]);
  const hostBits = bits - BigInt(length);
  const all = (1n << bits) - 1n;
  const hostMask = (1n << hostBits) - 1n;
  const first = host & (all ^ hostMask);
  return { family, host, length, first, last: first | hostMask };
}

/**
 * Parses `10.0.0.1`, `10.0.0.0/8`, `2001:db8::/32`. A missing mask means a single address.
 * Addresses with a zone or an IPv4-mapped form are taken as ipaddr.js reads them.
 */
/**
 * An IPv6 text whose last 32 bits are written as a dotted quad, with them in hex instead:
 * ipaddr.js reads every such address (`::5.6.7.8`, IPv4-compatible) as IPv4-mapped
 * (`::ffff:5.6.7.8`), a different address.
 */
function withHexTail(text: string): string {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return text;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number);
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

export function parseNetwork(text: string): IPNetwork {
  const raw = text.trim();
  const slash = raw.indexOf('/');
  const addrText = slash < 0 ? raw : raw.slice(0, slash);
  const lenText = slash < 0 ? null : raw.slice(slash + 1);
  // A zone (`fe80::1%eth0`) is not part of an address netaddr stores: refused, not dropped.
  if (addrText.includes('%') || !ipaddr.isValid(addrText) || (addrText.includes(':') ? false : !ipaddr.IPv4.isValidFourPartDecimal(addrText))) {
    throw new IPParseError(`Invalid IP address format: ${text}`);
  }
  const addr = ipaddr.parse(withHexTail(addrText));
  const family: Family = addr.kind() === 'ipv4' ? 4 : 6;
  let length = BITS[family];
  if (lenText !== null) {
    if (!/^\d{1,3}$/.test(lenText) || Number(lenText) > BITS[family]) throw new IPParseError(`Invalid IP address format: ${text}`);
    length = Number(lenText);
  }
  return makeNetwork(family, toBigInt(addr), length);
}

export function formatAddress(family: Family, value: bigint): string {
  const bytes: number[] = [];
  const count = family === 4 ? 4 : 16;
  for (let i = count - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(i * 8)) & 0xffn));
  return ipaddr.fromByteArray(bytes).toString();
}

/** `10.0.0.0/8`: the network form (host bits cleared). */
export function networkText(n: IPNetwork): string {
  return `${formatAddress(n.family, n.first)}/${n.length}`;
}

/** `10.0.0.1/24`: the interface form (host kept). */
export function hostText(n: IPNetwork): string {
  return `${formatAddress(n.family, n.host)}/${n.length}`;
}

/**
 * Fixed-width lowercase hex (32 digits for both families): string order is numeric order on
 * every database, so containment is a range comparison on an index.
 */
export function toHex(value: bigint): string {
  return value.toString(16).padStart(32, '0');
}

export function fromHex(hex: string): bigint {
  return BigInt(`0x${hex}`);
}

/** The largest aligned blocks covering [from, to] (inclusive), in ascending order. */
export function blocksBetween(family: Family, from: bigint, to: bigint): IPNetwork[] {
  const bits = BITS[family];
  const out: IPNetwork[] = [];
  let cur = from;
  while (cur <= to) {
    // The largest block starting at `cur` (alignment) that does not pass `to`.
    let size = 0;
    while (size < bits) {
      const next = size + 1;
      const blockSize = 1n << BigInt(next);
      if (cur % blockSize !== 0n || cur + blockSize - 1n > to) break;
      size = next;
    }
    out.push(makeNetwork(family, cur, bits - size));
    cur += 1n << BigInt(size);
  }
  return out;
}
