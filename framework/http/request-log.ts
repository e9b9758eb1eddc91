import { newRowId } from '../store/row-ids';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger';

/** What the request log knows of a request: its id, and its user once authenticated. */
export interface RequestRecord {
  readonly id: string;
  /** Username of the authenticated caller, null while anonymous. */
  user: string | null;
}

const records = new WeakMap<Request, RequestRecord>();

/** A request id a proxy may set: 1 to 200 printable ASCII characters. */
const SANE_ID = /^[\x20-\x7e]{1,200}$/;

/** The request's `X-Request-ID` when it is sane, else a new UUID. */
export function requestIdOf(req: Request): string {
  const sent = req.headers['x-request-id'];
  const value = Array.isArray(sent) ? sent[0] : sent;
  return typeof value === 'string' && SANE_ID.test(value) && value.trim() !== '' ? value : newRowId();
}

/** The record of a request, made on first use. */
export function requestRecord(req: Request): RequestRecord {
  let record = records.get(req);
  if (!record) {
    record = { id: requestIdOf(req), user: null };
    records.set(req, record);
  }
  return record;
}

/**
 * Express middleware, first of the application: gives each request its id, answers it in an
 * `X-Request-ID` header (errors, 404s, redirects, HEAD and OPTIONS too) and, once the response
 * is finished or the connection closed, logs one `request` line at info: method, path (with the
 * query), status, duration in milliseconds, user (username or null) and request id. Bodies and
 * headers are not logged.
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const record = requestRecord(req);
    res.setHeader('X-Request-ID', record.id);
    // Below the log's level (NETINV_LOG_LEVEL=warn) the line is never written: no timing, no listeners.
    if (!logger.logs('info')) return next();
    const start = process.hrtime.bigint();
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const data: Record<string, unknown> = {
        method: req.method,
        path: req.originalUrl,
        status: res.statusCode,
        duration_ms: Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10,
        user: record.user,
        request_id: record.id,
      };
      if (!res.writableFinished) data.aborted = true;
      logger.info('request', data);
    };
    res.once('finish', done);
    res.once('close', done);
    next();
  };
}
