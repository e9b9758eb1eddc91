import type { Dialect } from './dialect/types';
import type { OrderKey } from './ordering';
import type { Params } from './params';

/**
 * The rows that come after a given row in an ordering: how a long list reads on chunk by chunk
 * from where the last chunk ended. An index serving the ordering then starts each chunk where the
 * previous one stopped, so every chunk costs the same however far into the list it is (OFFSET
 * would walk every row before it again), and nothing but the current chunk is held.
 *
 * `last` holds the values of `keys` on the last row read; the keys end with the primary key, so
 * no two rows compare equal. A NULL value can only follow a key that orders the NULLs (see
 * ordering.ts), and is then equal only to NULL.
 */
export function afterRow(dialect: Dialect, keys: readonly OrderKey[], last: readonly unknown[], params: Params): string {
  // The leading keys that share a direction and have values: one row-value comparison over them
  // is what PostgreSQL and SQLite read as a range of an index.
  let lead = 0;
  while (lead < keys.length && keys[lead].desc === keys[0].desc && last[lead] !== null) lead++;
  if (dialect.rowValueRanges && lead === keys.length) {
    // The keys but the last (the primary key) as well, as `>=`: PostgreSQL reads a row-value
    // comparison as an index range only over the columns of one index, and the index serving an
    // ordering rarely ends with the primary key.
    if (keys.length === 1) return rowCompare(keys, last, params, '>');
    return `${rowCompare(keys.slice(0, -1), last, params, '>=')} AND ${rowCompare(keys, last, params, '>')}`;
  }
  const bound = dialect.rowValueRanges && lead > 0 ? `${rowCompare(keys.slice(0, lead), last, params, '>=')} AND ` : '';
  // key1 after v1, or key1 = v1 and key2 after v2, or …; each placeholder written where its value
  // is added, as `?` placeholders bind in the order of the text.
  const alternatives: string[] = [];
  keys.forEach((key, i) => {
    if (last[i] === null) return;
    const equal = keys.slice(0, i).map((k, j) => (last[j] === null ? `${k.expr} IS NULL` : `${k.expr} = ${params.add(last[j])}`));
    alternatives.push([...equal, `${key.expr} ${key.desc ? '<' : '>'} ${params.add(last[i])}`].join(' AND '));
  });
  return alternatives.length ? `${bound}(${alternatives.map((a) => `(${a})`).join(' OR ')})` : '1 = 0';
}

/** `(k1, k2, …) > (v1, v2, …)` in the keys' direction (`>` becomes `<` for descending keys). */
function rowCompare(keys: readonly OrderKey[], last: readonly unknown[], params: Params, op: '>' | '>='): string {
  const flipped = keys[0].desc ? op.replace('>', '<') : op;
  if (keys.length === 1) return `${keys[0].expr} ${flipped} ${params.add(last[0])}`;
  return `(${keys.map((k) => k.expr).join(', ')}) ${flipped} (${keys.map((_, i) => params.add(last[i])).join(', ')})`;
}
