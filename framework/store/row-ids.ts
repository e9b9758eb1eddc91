import { randomFillSync } from 'node:crypto';

/**
 * Keys for new rows: UUIDs of version 7 (RFC 9562), whose first 48 bits are the creation time in
 * milliseconds and the next 12 a counter within that millisecond, the other 62 random.
 *
 * A random (version 4) key lands on a random page of the primary-key index, so a transaction that
 * creates a hundred objects (and their change records) dirties a hundred pages of each key index,
 * all written out at commit; InnoDB, which clusters the whole row on its primary key, splits pages
 * all over the table. Time-ordered keys append to the right edge of those indexes, a few pages per
 * commit. Clients see an ordinary UUID: Nautobot's API only asks for one.
 */

const POOL_BYTES = 8192;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

let lastMs = 0;
let counter = 0;

function randomBytes8(): Buffer {
  if (poolOffset + 8 > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + 8);
  poolOffset += 8;
  return bytes;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The time and counter of the next key: strictly increasing within the process, even when the clock steps back. */
function nextStamp(): { ms: number; seq: number } {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xfff) {
    // 4,096 keys in one millisecond: borrow the next millisecond rather than repeat a counter.
    lastMs += 1;
    counter = 0;
  }
  return { ms: lastMs, seq: counter };
}

/** A new time-ordered UUID in canonical lower-case hyphenated form. */
export function newRowId(): string {
  const { ms, seq } = nextStamp();
  const r = randomBytes8();
  const high = Math.floor(ms / 0x10000);
  const low = ms % 0x10000;
  const t = high.toString(16).padStart(8, '0') + HEX[low >> 8] + HEX[low & 0xff];
  const versionAndSeq = (0x7000 | seq).toString(16);
  const variant = HEX[0x80 | (r[0] & 0x3f)] + HEX[r[1]];
  const rest = HEX[r[2]] + HEX[r[3]] + HEX[r[4]] + HEX[r[5]] + HEX[r[6]] + HEX[r[7]];
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-${versionAndSeq}-${variant}-${rest}`;
}
