import type { IncomingMessage } from 'node:http';
import { ParseError, PayloadTooLarge, TooManyObjects, UnsupportedMediaType } from '../errors';
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

/**
 * Objects one list body may carry unless configured otherwise (NETINV_MAX_BULK_OBJECTS): well
 * above what Nautobot clients send in one request (pynautobot and the Ansible collection write
 * object by object, bulk scripts in hundreds), small enough that one request's write transaction
 * stays in seconds and its response in megabytes.
 */
export const DEFAULT_MAX_BULK_OBJECTS = 5000;

/** A list body holding more than `limit` objects (0: no limit) is a 400, before any handler writes. */
export function limitBulk(body: unknown, limit: number): unknown {
  if (limit > 0 && Array.isArray(body) && body.length > limit) throw new TooManyObjects(limit, body.length);
  return body;
}

/** Django's DATA_UPLOAD_MAX_MEMORY_SIZE. */
export const DEFAULT_MAX_BODY_BYTES = 2.5 * 1024 * 1024;

/**
 * Reads a request's body, at most `limit` bytes, once the caller is known to be allowed: an
 * anonymous or unauthorised client never makes the server buffer what it sends. A body already
 * read by a middleware is taken as it is.
 */
export function readRequestBody(req: IncomingMessage & { body?: unknown }, limit: number): Promise<Buffer | undefined> {
  if (Buffer.isBuffer(req.body)) return Promise.resolve(req.body);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new PayloadTooLarge());
  if (req.readableEnded || (!req.headers['transfer-encoding'] && !(declared > 0))) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        req.pause();
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
