import { ParseError, UnsupportedMediaType } from '../errors';

/**
 * The request body as JSON. Read only by handlers that take a body, after authentication and the
 * permission check, so those errors come first (as in DRF). An empty body is `{}`.
 */
export function readJson(raw: Buffer | undefined, contentType: string | undefined): unknown {
  if (!raw || raw.length === 0) return {};
  const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'application/json' && !/^application\/[\w.+-]*\+json$/.test(mediaType)) {
    throw new UnsupportedMediaType((contentType ?? '').split(';')[0].trim());
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new ParseError(`JSON parse error - ${(err as Error).message}`);
  }
}
