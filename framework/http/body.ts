import { ParseError, UnsupportedMediaType } from '../errors';
import { utf8Fault } from './utf8';

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
  // Buffer#toString would replace bad bytes with U+FFFD and store text the client never sent.
  const fault = utf8Fault(raw);
  if (fault) {
    throw new ParseError(`JSON parse error - 'utf-8' codec can't decode byte 0x${fault.byte.toString(16).padStart(2, '0')} in position ${fault.position}: ${fault.reason}`);
  }
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new ParseError(`JSON parse error - ${(err as Error).message}`);
  }
}
