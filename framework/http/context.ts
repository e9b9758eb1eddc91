import type { WriteListener } from '../serializer/write-scope';
import { RequestData } from '../metadata/request-data';
import { newRowId } from '../store/row-ids';
import type { Request, Response } from 'express';
import type { Database } from '../store/executor';
import type { Registry } from '../metadata/registry';
import type { ModelMeta } from '../metadata/model-meta';
import { FALSE, type Predicate } from '../query/predicate';
import type { ApiVersion } from '../versioning/version';
import type { AuthUser, TokenInfo } from '../auth/types';
import type { Logger } from './logger';
import { requestRecord, type RequestRecord } from './request-log';
import type { Renderer } from './negotiation';

/** Settings the framework reads (validated and frozen by app/config.ts). */
export interface FrameworkConfig {
  readonly strictFiltering: boolean;
  readonly paginateCount: number;
  /** 0 means no maximum. */
  readonly maxPageSize: number;
  /** Model labels readable without permission (anonymously too), or `*`. */
  readonly exemptViewPermissions: readonly string[];
  /** netinv's own version. */
  readonly version: string;
  /** Adds an `X-Query-Count` header (SQL statements run for the request) to every API response. */
  readonly countQueries?: boolean;
  /** Largest request body read, in bytes; a bigger one is a 413 (default 2.5 MiB, Django's). */
  readonly maxBodyBytes?: number;
  /** Deepest nesting of objects and lists in a written JSON value (default 100). */
  readonly maxJsonDepth?: number;
  /** Longest a list query with a regular-expression filter may run, in ms (default 750). */
  readonly regexTimeoutMs?: number;
  /** Most objects a list body (bulk create, update, delete) may carry, else a 400; 0: no limit (default 5000). */
  readonly maxBulkObjects?: number;
  /** GraphQL limits: deepest selection nesting and most selected fields (0: none). */
  readonly graphqlMaxDepth?: number;
  readonly graphqlMaxComplexity?: number;
}

/** Decoded query string: every key with all its values, in order. */
export function parseQuery(url: string): Map<string, string[]> {
  const q = url.indexOf('?');
  const out = new Map<string, string[]>();
  if (q < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(q + 1))) {
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Per-request state, passed explicitly through the pipeline. */
export class RequestContext {
  /** The request id: the `X-Request-ID` a proxy sent when sane, else a new UUID (request-log.ts). */
  readonly id: string;
  /** The change log's and webhooks' request id: the request id when it is a UUID, else a new one. */
  readonly changeId: string;
  readonly query: Map<string, string[]>;
  /** `http://host` from the request scheme and Host header. */
  readonly baseUrl: string;
  renderer: Renderer = 'json';
  contentType = 'application/json';
  version: ApiVersion | null = null;
  private authenticated: AuthUser | null = null;
  token: TokenInfo | null = null;
  /** Set by session authentication: unsafe methods then need a CSRF token. */
  session: { key: string; csrf: string } | null = null;
  /** Unsafe methods the caller may use on this route (browsable pages offer forms for them). */
  allowedMethods: string[] = [];
  /** Request-scoped data of features (custom field definitions…). */
  readonly features = new RequestData();
  /**
   * The objects of a model the caller may view; the pipeline sets it once the caller is known
   * (before: none). Writes look related objects given by attributes up among these only.
   */
  viewable: (model: ModelMeta) => Promise<Predicate> = async () => FALSE;
  private requestLogger: Logger | null = null;
  private readonly baseLogger: Logger;
  private readonly record: RequestRecord;

  constructor(
    readonly req: Request,
    readonly res: Response,
    readonly registry: Registry,
    readonly db: Database,
    readonly config: FrameworkConfig,
    baseLogger: Logger,
    /** Features told of every write of this request (change logging, webhooks). */
    readonly listeners: readonly WriteListener[] = [],
  ) {
    this.query = parseQuery(req.originalUrl);
    const forwarded = String(req.headers['x-forwarded-proto'] ?? '').split(',')[0].trim().toLowerCase();
    const scheme = forwarded === 'https' ? 'https' : req.protocol;
    this.baseUrl = `${scheme}://${req.headers.host ?? 'localhost'}`;
    this.record = requestRecord(req);
    this.id = this.record.id;
    this.changeId = UUID.test(this.id) ? this.id.toLowerCase() : newRowId();
    this.baseLogger = baseLogger;
  }

  /** The log of this request: its lines carry the request id (made on first use; most requests log nothing). */
  get logger(): Logger {
    return (this.requestLogger ??= this.baseLogger.child({ request_id: this.id }));
  }

  /** The authenticated caller; the request log names them. */
  get user(): AuthUser | null {
    return this.authenticated;
  }
  set user(user: AuthUser | null) {
    this.authenticated = user;
    this.record.user = user?.username ?? null;
  }

  /** Last value of a query parameter. */
  param(name: string): string | undefined {
    const v = this.query.get(name);
    return v ? v[v.length - 1] : undefined;
  }

  get method(): string {
    return this.req.method.toUpperCase();
  }
}
