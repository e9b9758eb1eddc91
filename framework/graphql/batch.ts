import type { Id } from '../query/id';

/**
 * Collects the keys every resolver of one level asks for and loads them in one call. GraphQL
 * resolves all items of a list before any of their results arrive, so keys gathered until the
 * next turn of the event loop are the whole level: one load per level and field, not per object.
 */
export class Batch<R> {
  private readonly cache = new Map<Id, Promise<R | undefined>>();
  private pending: { keys: Set<Id>; result: Promise<Map<Id, R>> } | null = null;

  constructor(private readonly loadMany: (keys: Id[]) => Promise<Map<Id, R>>) {}

  load(key: Id): Promise<R | undefined> {
    const cached = this.cache.get(key);
    if (cached) return cached;
    if (!this.pending) {
      const keys = new Set<Id>();
      const result = new Promise<Map<Id, R>>((resolve, reject) => {
        setImmediate(() => {
          this.pending = null;
          this.loadMany([...keys]).then(resolve, reject);
        });
      });
      this.pending = { keys, result };
    }
    this.pending.keys.add(key);
    const value = this.pending.result.then((map) => map.get(key));
    this.cache.set(key, value);
    return value;
  }
}

/** Keys per statement: far below the bound parameters every database accepts. */
export const KEYS_PER_STATEMENT = 5000;

export function chunks<T>(items: readonly T[], size = KEYS_PER_STATEMENT): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
