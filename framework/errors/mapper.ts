import type { NextFunction, Request, Response } from 'express';
import { ApiError } from './index';

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** True when the error was unexpected and must be logged. */
  unexpected: boolean;
}

/**
 * The single place where exceptions become HTTP responses (cf. DRF's exception_handler). An
 * unexpected error answers with Nautobot's 500 shape but not its text, which may name tables,
 * columns and constraints: the cause goes to the log under the request id the body names.
 */
export function errorToResponse(err: unknown, version: string, requestId?: string): ErrorResponse {
  if (err instanceof ApiError) {
    return { status: err.status, body: err.body(), headers: err.headers(), unexpected: false };
  }
  const bodyParserError = asBodyParserError(err);
  if (bodyParserError) return bodyParserError;
  // The router's own decoding of a path segment (`/api/dcim/sites/%ZZ/`): no such object.
  if (err instanceof URIError && (err as { status?: number }).status === 400) {
    return { status: 404, body: { detail: 'Not found.' }, headers: {}, unexpected: false };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  const where = requestId ? ` (request ${requestId})` : '';
  return {
    status: 500,
    body: { error: `Internal server error${where}; the cause is in the server log.`, exception: e.constructor?.name ?? 'Error', netinv_version: version },
    headers: {},
    unexpected: true,
  };
}

/** Errors raised by Express's body readers carry a status and a type. */
function asBodyParserError(err: unknown): ErrorResponse | null {
  if (!err || typeof err !== 'object') return null;
  const e = err as { type?: string; status?: number };
  if (e.type === 'entity.too.large') {
    return { status: 413, body: { detail: 'Request body too large.' }, headers: {}, unexpected: false };
  }
  if (typeof e.type === 'string' && e.type.startsWith('request.') || e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return { status: 400, body: { detail: 'Malformed request body.' }, headers: {}, unexpected: false };
  }
  return null;
}

/** Where unexpected errors are reported (the request logger). */
export interface ErrorLog {
  error(message: string, data: Record<string, unknown>): void;
}

/**
 * The Express error handler of an application serving the API: every thrown error ends here. An
 * unexpected one is logged with its stack under the request id the response's `X-Request-ID`
 * header carries (set by the request log), which its body names too.
 */
export function errorMiddleware(version: string, logger: ErrorLog) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(err);
    const header = res.getHeader('X-Request-ID');
    const requestId = typeof header === 'string' ? header : undefined;
    const r = errorToResponse(err, version, requestId);
    if (r.unexpected) logger.error('unhandled error', { request_id: requestId ?? null, method: req.method, path: req.originalUrl, error: err });
    for (const [name, value] of Object.entries(r.headers)) res.setHeader(name, value);
    res.status(r.status).json(r.body);
  };
}
