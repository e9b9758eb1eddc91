import { once } from 'node:events';
import type { RequestContext } from './context';

/** What a handler returns; turned into the HTTP response in one place. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A body already rendered (schema documents, the documentation page), sent as is. */
  raw?: { contentType: string; text: string };
  /**
   * A JSON body produced piece by piece (long lists): each piece is written as it comes, waiting
   * for the client to drain the socket, so the whole response is never held in memory.
   */
  pieces?: AsyncIterable<string>;
}

const SECURITY_HEADERS: Record<string, string> = {
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

/** Responses shorter than this (in UTF-16 units) are sent as text. */
const ENCODE_ABOVE = 16_384;

/** U+2028 and U+2029 in UTF-8: both start with the byte E2, which most responses never hold. */
const SEPARATOR_LEAD = 0xe2;
const LINE_SEPARATOR = Buffer.from('\u2028');
const PARAGRAPH_SEPARATOR = Buffer.from('\u2029');

/**
 * Compact JSON as DRF renders it, U+2028/U+2029 escaped so the output is valid JavaScript too, in
 * the form it is sent: a long text is encoded once, its length is the encoding's, and the
 * separators are looked for among the bytes: every pass over a freshly written response costs
 * about a third of JSON.stringify (a regular expression, Buffer.byteLength, and the encoding
 * res.end does with a string each scanned W2's 900 KB again), whereas a search for one byte
 * runs at memory speed.
 */
export function jsonBody(body: unknown): Buffer | string {
  const text = JSON.stringify(body);
  // A short text is cheaper to scan than to copy, and Node writes it in one piece with the headers.
  if (text.length < ENCODE_ABOVE) return escapeSeparators(text);
  const bytes = Buffer.from(text);
  if (bytes.indexOf(SEPARATOR_LEAD) < 0 || (!bytes.includes(LINE_SEPARATOR) && !bytes.includes(PARAGRAPH_SEPARATOR))) return bytes;
  return Buffer.from(escapeSeparators(text));
}

/** Renders a reply as the browsable HTML page (browsable/ provides it; the router passes it in). */
export type HtmlRenderer = (ctx: RequestContext, reply: Reply, versionHeader: boolean) => string;

export interface SendOptions {
  /** API-Version is sent unless the route opts out (default true). */
  versionHeader?: boolean;
  /** For requests negotiated to HTML; without it they get the JSON. */
  html?: HtmlRenderer;
}

export async function send(ctx: RequestContext, reply: Reply, options: SendOptions = {}): Promise<void> {
  const res = ctx.res;
  if (res.headersSent) return;
  const versionHeader = options.versionHeader !== false && ctx.version !== null;
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
  res.setHeader('Vary', 'Accept, Cookie');
  if (versionHeader) res.setHeader('API-Version', String(ctx.version));
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  res.status(reply.status);
  if (reply.raw) {
    res.setHeader('Content-Type', reply.raw.contentType);
    res.setHeader('Content-Length', Buffer.byteLength(reply.raw.text));
    res.end(ctx.method === 'HEAD' ? undefined : reply.raw.text);
    return;
  }
  if (reply.body === undefined || reply.status === 204 || reply.status === 304) {
    res.end();
    return;
  }
  if (ctx.renderer === 'html' && options.html) {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.end(ctx.method === 'HEAD' ? undefined : options.html(ctx, reply, versionHeader));
    return;
  }
  res.setHeader('Content-Type', ctx.contentType);
  if (reply.pieces) {
    await sendPieces(ctx, reply.pieces);
    return;
  }
  const json = jsonBody(reply.body);
  res.setHeader('Content-Length', typeof json === 'string' ? Buffer.byteLength(json) : json.length);
  res.end(ctx.method === 'HEAD' ? undefined : json);
}

/**
 * The line and paragraph separators escaped. Looked for with indexOf: a regular expression's
 * scan of a response holding any character beyond Latin-1 (a location's "→") cost half as much
 * as writing the JSON, indexOf a fourteenth of that.
 */
function escapeSeparators(text: string): string {
  if (text.indexOf('\u2028') < 0 && text.indexOf('\u2029') < 0) return text;
  return text.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

async function sendPieces(ctx: RequestContext, pieces: AsyncIterable<string>): Promise<void> {
  const res = ctx.res;
  if (ctx.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    for await (const piece of pieces) {
      if (res.destroyed) return;
      if (!res.write(escapeSeparators(piece))) await once(res, 'drain');
    }
    res.end();
  } catch (err) {
    // The status line is gone: all that is left is to cut the response short, visibly.
    ctx.logger.error('response cut short', { error: err });
    res.destroy(err as Error);
  }
}
