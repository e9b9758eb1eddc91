import type { Json } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import type { Id } from './select';
import type { Executor } from '../db/executor';

/** Per-request state a representation needs. */
export interface RenderContext {
  /** `http://host` for API responses; `''` for relative URLs (webhooks, change records). */
  readonly baseUrl: string;
  readonly version: ApiVersion;
  readonly db: Executor;
  /** Results of the page's loaders, by loader key then owner id. */
  readonly loaded: Map<string, Map<Id, Json>>;
  /** Data features fetch once per request (custom field definitions…), by feature name. */
  readonly features: Map<string, unknown>;
  /** Whether an opt-in field (`relationships`, `computed_fields`) is part of this response. */
  readonly include: (name: string) => boolean;
}

const NOTHING = () => false;

export function renderContext(baseUrl: string, version: ApiVersion, db: Executor, include: (name: string) => boolean = NOTHING): RenderContext {
  return { baseUrl, version, db, loaded: new Map(), features: new Map(), include };
}
