/**
 * Where a byte sequence stops being UTF-8: the offset of the first bad byte and Python's name for
 * the fault (as in `'utf-8' codec can't decode byte 0xff in position 10: invalid start byte`), or
 * null when all of it is UTF-8.
 */
export function utf8Fault(bytes: Uint8Array): { position: number; byte: number; reason: string } | null {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need: number;
    let min: number;
    if (b < 0x80) {
      i += 1;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return { position: i, byte: b, reason: 'invalid start byte' };
    let code = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length) return { position: i, byte: b, reason: 'unexpected end of data' };
      const c = bytes[i + k];
      if ((c & 0xc0) !== 0x80) return { position: i, byte: b, reason: 'invalid continuation byte' };
      code = (code << 6) | (c & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return { position: i, byte: b, reason: 'invalid continuation byte' };
    i += need + 1;
  }
  return null;
}
