import type { RequestContext } from '../http/context';

/** Python's int(): surrounding whitespace and a sign allowed, nothing else. */
function pyInt(text: string | undefined): number | null {
  if (text === undefined) return null;
  const m = /^\s*([+-]?\d+)\s*$/.exec(text);
  return m ? Number(m[1]) : null;
}

export interface Page {
  /** null: every remaining row (MAX_PAGE_SIZE is 0 and limit=0). */
  limit: number | null;
  offset: number;
}

/** Nautobot's OptionalLimitOffsetPagination: bad values never error, they fall back. */
export function pageOf(ctx: RequestContext): Page {
  const { paginateCount, maxPageSize } = ctx.config;
  const requested = pyInt(ctx.param('limit'));
  let limit: number | null;
  if (requested === null || requested < 0) limit = paginateCount;
  else if (requested === 0) limit = maxPageSize > 0 ? maxPageSize : null;
  else limit = maxPageSize > 0 ? Math.min(requested, maxPageSize) : requested;
  const off = pyInt(ctx.param('offset'));
  return { limit, offset: off !== null && off > 0 ? off : 0 };
}

/** Python's quote_plus: only letters, digits and `_.-~` stay as they are; space becomes `+`. */
function quotePlus(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** The current URL with `limit`/`offset` replaced and keys sorted, as DRF builds page links. */
export function pageUrl(ctx: RequestContext, limit: number, offset: number | null): string {
  const query = new Map(ctx.query);
  query.set('limit', [String(limit)]);
  if (offset === null) query.delete('offset');
  else query.set('offset', [String(offset)]);
  const parts: string[] = [];
  for (const key of [...query.keys()].sort()) {
    for (const value of query.get(key) as string[]) parts.push(`${quotePlus(key)}=${quotePlus(value)}`);
  }
  return `${ctx.baseUrl}${ctx.req.baseUrl}${ctx.req.path}?${parts.join('&')}`;
}

export function pageLinks(ctx: RequestContext, page: Page, count: number): { next: string | null; previous: string | null } {
  if (page.limit === null) return { next: null, previous: null };
  const { limit, offset } = page;
  const next = offset + limit >= count ? null : pageUrl(ctx, limit, offset + limit);
  let previous: string | null = null;
  if (offset > 0) previous = offset - limit <= 0 ? pageUrl(ctx, limit, null) : pageUrl(ctx, limit, offset - limit);
  return { next, previous };
}
