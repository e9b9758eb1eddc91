import type { RequestData } from '../metadata/request-data';
import type { Executor } from '../store/executor';
import type { Store } from '../store/store';
import type { Actor, WriteListener } from './write-scope';

export type { Actor } from './write-scope';
import type { ModelMeta } from '../metadata/model-meta';
import type { ModelClass } from '../metadata/types';
import type { Registry } from '../metadata/registry';
import type { ApiVersion } from '../versioning/version';
import type { Id } from '../query/id';
import type { Predicate } from '../query/predicate';

export type { Values } from '../metadata/types';
import type { Values } from '../metadata/types';

/** State shared by the parse → validate → save steps of one object in one transaction. */
export interface WriteContext {
  readonly tx: Executor;
  /** Objects of any model, read and written in this write's transaction (field kinds see it as a KindStore). */
  readonly store: Store;
  /** Features told of this save (change logging, webhooks). */
  readonly listeners: readonly WriteListener[];
  readonly registry: Registry;
  readonly version: ApiVersion;
  readonly model: ModelMeta;
  /** The object's id: generated before insert on create. */
  readonly id: Id;
  readonly creating: boolean;
  readonly partial: boolean;
  /** Stored values before this write (update only). */
  readonly current: Values | null;
  /** Keys the request body carried (serializer rules that depend on what was sent, not on the result). */
  readonly sent: ReadonlySet<string>;
  readonly actor: Actor | null;
  /** Request-scoped data shared by features (custom field definitions…). */
  readonly features: RequestData;
  /** The objects of a model the writer may view (attribute-object lookups); absent: every object. */
  readonly viewable?: (model: ModelMeta) => Promise<Predicate>;
  /**
   * Creates an object of `cls` from an API body in this transaction, through every rule a POST
   * applies (parsing, validation, `clean()`); returns its id. Throws ValidationError. `unlogged`:
   * the write listeners (change log, webhooks) do not hear of it, for objects that come with
   * another as part of it (a device's components copied from its type's templates).
   */
  create(cls: ModelClass, body: Record<string, unknown>, options?: { unlogged?: boolean }): Promise<Id>;
  /** Deletes objects of `cls` in this transaction as a DELETE does (protection, cascades). */
  remove(cls: ModelClass, ids: Id[]): Promise<void>;
  /**
   * Tells the write listeners (change log, webhooks) that objects of `cls` were updated through
   * `store` rather than saved through their own model (what moves with a moved rack).
   */
  updated(cls: ModelClass, ids: Id[]): Promise<void>;
}
