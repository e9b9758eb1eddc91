import { AuthenticationFailed } from '../errors';
import type { RequestContext } from '../http/context';
import type { AuthBackend } from './types';

/** Parses a cookie header into name → value; a cookie whose value does not decode is ignored, as Django does. */
export function cookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    try {
      out.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // Malformed %-encoding: not a cookie this server set.
    }
  }
  return out;
}

export const SESSION_COOKIE = 'sessionid';

/**
 * Text no stored credential can hold: a NUL (which PostgreSQL refuses in a query, and no string field
 * stores) or, for keys this server generates, anything outside printable ASCII.
 */
const NUL = /\u0000/;
// eslint-disable-next-line no-control-regex
const NOT_A_KEY = /[^\x21-\x7e]/;

/**
 * Session cookie first, then `Authorization: Token <key>`, then HTTP Basic where the model allows
 * it (token provisioning). Every failure is a 403 with Nautobot's message; an absent or foreign
 * scheme leaves the request anonymous.
 */
export async function authenticate(ctx: RequestContext, backend: AuthBackend, allowBasic: boolean): Promise<void> {
  const db = ctx.db.reader;
  const sessionKey = cookies(ctx.req.headers.cookie).get(SESSION_COOKIE);
  // A key this server could not have set is no session, as Django treats an invalid session key.
  if (sessionKey && !NOT_A_KEY.test(sessionKey) && backend.findSession) {
    const session = await backend.findSession(sessionKey, db);
    if (session && session.user.isActive) {
      ctx.user = session.user;
      ctx.session = { key: sessionKey, csrf: session.csrf };
      return;
    }
  }
  const header = ctx.req.headers.authorization;
  if (!header) return;
  const parts = header.trim().split(/\s+/);
  const scheme = parts[0]?.toLowerCase();
  if (scheme === 'token') {
    if (parts.length === 1) throw new AuthenticationFailed('Invalid token header. No credentials provided.');
    if (parts.length > 2) throw new AuthenticationFailed('Invalid token header. Token string should not contain spaces.');
    // eslint-disable-next-line no-control-regex
    if (/[^\x20-\x7e]/.test(parts[1])) {
      throw new AuthenticationFailed('Invalid token header. Token string should not contain invalid characters.');
    }
    const found = await backend.findToken(parts[1], db);
    if (!found) throw new AuthenticationFailed('Invalid token');
    if (found.token.expires && found.token.expires.getTime() <= Date.now()) throw new AuthenticationFailed('Token expired');
    if (!found.user.isActive) throw new AuthenticationFailed('User inactive');
    ctx.user = found.user;
    ctx.token = found.token;
    return;
  }
  if (scheme === 'basic' && allowBasic) {
    if (parts.length === 1) throw new AuthenticationFailed('Invalid basic header. No credentials provided.');
    if (parts.length > 2) throw new AuthenticationFailed('Invalid basic header. Credentials string should not contain spaces.');
    const decoded = decodeBase64(parts[1]);
    if (decoded === null) throw new AuthenticationFailed('Invalid basic header. Credentials not correctly base64 encoded.');
    const colon = decoded.indexOf(':');
    const username = colon >= 0 ? decoded.slice(0, colon) : decoded;
    const password = colon >= 0 ? decoded.slice(colon + 1) : '';
    // No user is named with a NUL: the database is not asked.
    if (NUL.test(username)) throw new AuthenticationFailed('Invalid username/password.');
    const user = await backend.checkPassword(username, password, db);
    if (!user) throw new AuthenticationFailed('Invalid username/password.');
    ctx.user = user;
  }
}

function decodeBase64(text: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  const decoded = Buffer.from(text, 'base64').toString('utf8');
  return decoded.includes('\uFFFD') ? null : decoded;
}
