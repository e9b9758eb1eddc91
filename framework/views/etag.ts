import { PreconditionFailed } from '../errors';
import type { RequestContext } from '../http/context';
import type { Id } from '../query/id';

/**
 * Entity tags of objects, for optimistic concurrency: a strong tag made of the object's id and
 * the version of its row, which every write of the row increments (framework/metadata/registry.ts
 * VERSION_COLUMN). It changes exactly when the stored object does, not with a clock; objects
 * shown nested in it (a site's region) have tags of their own.
 */
export function entityTag(id: Id, version: unknown): string {
  return `"${String(id)}-${Number(version)}"`;
}

interface TagList {
  any: boolean;
  tags: Array<{ weak: boolean; opaque: string }>;
}

/** `*` or a comma-separated list of entity tags (`"x"`, `W/"x"`); a malformed member matches nothing. */
function parseTags(header: string): TagList {
  const list: TagList = { any: false, tags: [] };
  const re = /\s*(?:(\*)|(W\/)?("[^"]*"))\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  while (re.lastIndex < header.length && (m = re.exec(header)) !== null) {
    if (m[1]) list.any = true;
    else list.tags.push({ weak: !!m[2], opaque: m[3] });
    if (m[0] === '') break;
  }
  return list;
}

function header(ctx: RequestContext, name: string): string | undefined {
  const raw = ctx.req.headers[name];
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * If-Match of an update or delete, checked against the object's current tag inside the
 * transaction that holds its row: no header or `*` pass, a list passes when one of its strong tags
 * equals the current one (RFC 9110 strong comparison); otherwise 412 with the current tag.
 */
export function checkIfMatch(ctx: RequestContext, current: string): void {
  const value = header(ctx, 'if-match');
  if (value === undefined) return;
  const list = parseTags(value);
  if (list.any || list.tags.some((t) => !t.weak && t.opaque === current)) return;
  throw new PreconditionFailed('Precondition failed: the object has changed since the entity tag in If-Match was issued.', current);
}

/** If-None-Match of a read: true (answer 304) when `*` or one of its tags weakly equals the current one. */
export function notModified(ctx: RequestContext, current: string): boolean {
  const value = header(ctx, 'if-none-match');
  if (value === undefined) return false;
  const list = parseTags(value);
  return list.any || list.tags.some((t) => t.opaque === current);
}
