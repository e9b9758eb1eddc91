import { RequestData } from '../metadata/request-data';
import type { Json } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import type { Id } from '../query/id';
import type { Executor } from '../store/executor';
import type { RenderState } from '../fields/kind';

/** Per-request state a representation needs: what field kinds may read, and the connection. */
export interface RenderContext extends RenderState {
  readonly db: Executor;
}

export interface RenderRequest {
  query?: ReadonlyMap<string, readonly string[]>;
  writing?: boolean;
  creating?: boolean;
  /** Defaults to Nautobot's `include` rule applied to `query` and `writing`. */
  include?: (name: string) => boolean;
}

/**
 * Nautobot's OptInFieldsMixin: write responses carry every opt-in field; on reads a single
 * `include` value is matched as a substring, repeated values must name the field exactly.
 */
export function includeFrom(query: ReadonlyMap<string, readonly string[]>, writing: boolean): (name: string) => boolean {
  if (writing) return () => true;
  const values = query.get('include') ?? [];
  if (values.length === 0) return () => false;
  if (values.length === 1) return (name) => values[0].includes(name);
  return (name) => values.includes(name);
}

export function renderContext(baseUrl: string, version: ApiVersion, db: Executor, request: RenderRequest = {}): RenderContext {
  const query = request.query ?? new Map<string, readonly string[]>();
  const writing = request.writing ?? false;
  const creating = request.creating ?? false;
  return { baseUrl, version, db, loaded: new Map(), features: new RequestData(), query, writing, creating, include: request.include ?? includeFrom(query, writing) };
}
