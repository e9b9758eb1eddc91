import { NotAcceptable, NotFound } from '../errors';

export type Renderer = 'json' | 'html';

export interface Negotiated {
  renderer: Renderer;
  /** `version` parameter of the accepted media type, if any. */
  version?: string;
  /** Response Content-Type. */
  contentType: string;
}

interface MediaRange {
  /** The client's text for this range, echoed as Content-Type on an exact match (as DRF does). */
  raw: string;
  type: string;
  subtype: string;
  params: Map<string, string>;
}

function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mediaType, ...rawParams] = part.split(';');
    const [type, subtype] = mediaType.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    const params = new Map<string, string>();
    for (const p of rawParams) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      params.set(p.slice(0, eq).trim().toLowerCase(), p.slice(eq + 1).trim().replace(/^"|"$/g, ''));
    }
    out.push({ raw: part.trim(), type, subtype, params });
  }
  return out;
}

/** DRF's precedence: entries with parameters, then exact types, then subtype wildcards, then `*\/*`. */
function precedence(m: MediaRange): number {
  const extra = [...m.params.keys()].some((k) => k !== 'q') ? 1 : 0;
  if (m.type === '*') return 0;
  if (m.subtype === '*') return 1;
  return 2 + extra;
}

function matches(m: MediaRange, type: string, subtype: string): boolean {
  return (m.type === '*' || m.type === type) && (m.subtype === '*' || m.subtype === subtype);
}

/** An exact match echoes the client's media type; a wildcard gets ours with the client's parameters. */
function jsonContentType(m: MediaRange): string {
  if (m.type === 'application' && m.subtype === 'json') return m.raw;
  const params = [...m.params].filter(([k]) => k !== 'q').map(([k, v]) => `;${k}=${v}`).join('');
  return `application/json${params}`;
}

/** Picks JSON or the browsable HTML page from `?format=` and `Accept`, as DRF does. */
export function negotiate(accept: string | undefined, format: string | undefined): Negotiated {
  if (format !== undefined) {
    if (format === 'json') return { renderer: 'json', contentType: 'application/json' };
    if (format === 'api') return { renderer: 'html', contentType: 'text/html; charset=utf-8' };
    throw new NotFound();
  }
  if (!accept || !accept.trim()) return { renderer: 'json', contentType: 'application/json' };
  const ranges = parseAccept(accept);
  if (ranges.length === 0) return { renderer: 'json', contentType: 'application/json' };
  const ordered = ranges.map((m, i) => ({ m, i })).sort((a, b) => precedence(b.m) - precedence(a.m) || a.i - b.i);
  for (const { m } of ordered) {
    const version = m.params.get('version');
    if (matches(m, 'application', 'json')) {
      return { renderer: 'json', version, contentType: jsonContentType(m) };
    }
    if (matches(m, 'text', 'html')) return { renderer: 'html', version, contentType: 'text/html; charset=utf-8' };
  }
  throw new NotAcceptable();
}
