import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { RequestData } from '../metadata/request-data';
import type { Id } from '../query/id';
import type { ApiVersion } from '../versioning/version';
import type { Executor } from '../store/executor';
import type { Predicate } from '../query/predicate';

/** Who is writing; kept minimal so the framework does not depend on the users app. */
export interface Actor {
  id: Id;
  username: string;
  isSuperuser: boolean;
}

/** The writes of one transaction: who writes, at which API version, and who listens. */
export interface WriteScope {
  readonly tx: Executor;
  readonly registry: Registry;
  readonly version: ApiVersion;
  readonly actor: Actor | null;
  readonly features: RequestData;
  /** The HTTP request this write belongs to: change records of one request share it. */
  readonly requestId?: string;
  /** Features told of every save and delete (change logging, webhooks), wired by the app. */
  readonly listeners: readonly WriteListener[];
  /** Deepest nesting of a written JSON value (NETINV_MAX_JSON_DEPTH); 100 when unset. */
  readonly maxJsonDepth?: number;
  /**
   * The objects of a model the writer may view, for API writes: related objects given as
   * attribute objects are looked up among them only. Absent: every object.
   */
  readonly viewable?: (model: ModelMeta) => Promise<Predicate>;
}

/** Events features subscribe to (change logging, webhooks). */
export interface WriteListener {
  saved?(model: ModelMeta, id: Id, action: 'create' | 'update', scope: WriteScope): Promise<void>;
  deleting?(model: ModelMeta, ids: Id[], scope: WriteScope): Promise<void>;
  /** The request's writes are done and its transaction is about to commit; a throw rolls it back. */
  committing?(scope: WriteScope): Promise<void>;
  /** The transaction committed; failures here never reach the client. */
  committed?(scope: WriteScope): void;
  /** The transaction rolled back: state buffered for it is dropped. */
  rolledBack?(scope: WriteScope): void;
}
