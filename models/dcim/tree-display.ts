/**
 * `display` of location types and locations: the names from the root down joined by ` → `.
 * The chain is read through a fixed number of parent hops, enough for any hierarchy in practice.
 */
const DEPTH = 8;

export const ANCESTOR_NAMES: string[] = Array.from({ length: DEPTH }, (_, i) => `${'parent.'.repeat(i)}name`);

export function ancestry(values: Record<string, unknown>): string {
  const names: string[] = [];
  for (const path of ANCESTOR_NAMES) {
    const name = values[path];
    if (name === null || name === undefined) break;
    names.push(String(name));
  }
  return names.reverse().join(' → ');
}
