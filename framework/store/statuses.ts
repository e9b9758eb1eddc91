import type { StoredChoice } from '../fields/kind';
import { statusKind } from '../fields/status';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { Id } from '../query/id';
import { CachedConfig, cachedConfig } from './config-cache';
import type { Executor } from './executor';

/** A status as writes and OPTIONS look it up: its content types as the stored JSON text. */
interface StatusEntry {
  id: Id;
  slug: string;
  name: string;
  contentTypes: string;
}

/** The statuses of each statuses table, cached between requests (every write of an object with a status looks one up). */
const CACHES = new Map<string, CachedConfig<StatusEntry[]>>();

/**
 * Declares the cache of every statuses model the registry's status fields point at. At start-up,
 * in every process: a process that writes a status before it has read one must still tell the
 * other instances that their copies are out of date.
 */
export function declareStatusCaches(registry: Registry): void {
  for (const model of registry.models) for (const field of model.fields) if (field.kind === statusKind && field.target) statusCacheOf(field.target);
}

/** The cache of a statuses model's rows. */
function statusCacheOf(statuses: ModelMeta): CachedConfig<StatusEntry[]> {
  let cache = CACHES.get(statuses.table);
  if (!cache) CACHES.set(statuses.table, (cache = new CachedConfig<StatusEntry[]>(`statuses:${statuses.table}`, [statuses.table])));
  return cache;
}

/** Every status, ordered by name as OPTIONS lists them. */
function allStatuses(db: Executor, statuses: ModelMeta): Promise<StatusEntry[]> {
  return cachedConfig(db, statusCacheOf(statuses), async () => {
    const q = db.dialect.quote;
    const rows = await db.rows(`SELECT ${q('id')}, ${q('slug')}, ${q('name')}, ${q('content_types')} FROM ${q(statuses.table)} ORDER BY ${db.dialect.orderText(q('name'))}, ${q('id')}`);
    return rows.map((r) => ({ id: r[0] as Id, slug: String(r[1]), name: String(r[2]), contentTypes: String(r[3] ?? '') }));
  });
}

/** Whether a content-type list (JSON text) names `label`: the test the list filters make in SQL. */
function enables(status: StatusEntry, label: string): boolean {
  return status.contentTypes.includes(`"${label}"`);
}

/** The status with this slug, when its content types include `label`; null otherwise. */
export async function statusFor(db: Executor, statuses: ModelMeta, slug: string, label: string): Promise<Id | null> {
  const found = (await allStatuses(db, statuses)).filter((s) => s.slug === slug && enables(s, label));
  return found.length === 1 ? found[0].id : null;
}

/** Statuses whose content types include `label`, ordered by name, as OPTIONS lists them. */
export async function statusesFor(db: Executor, statuses: ModelMeta, label: string): Promise<StoredChoice[]> {
  return (await allStatuses(db, statuses)).filter((s) => enables(s, label)).map((s) => ({ value: s.slug, display: s.name }));
}

/** The slug of a status by id (null when there is none), from the cache. */
export async function statusSlug(db: Executor, statuses: ModelMeta, id: Id): Promise<string | null> {
  return (await allStatuses(db, statuses)).find((s) => s.id === id)?.slug ?? null;
}
