import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import type { Id } from '../query/id';
import type { LinkSpec } from '../query/link';
import type { ApiVersion } from '../versioning/version';

/**
 * What reading a field may ask of the page being rendered (RenderContext in the serializer, which
 * also holds the database connection that kinds never see).
 */
export interface RenderState {
  /** `http://host` for API responses; `''` for relative URLs. */
  readonly baseUrl: string;
  readonly version: ApiVersion;
  /** Results of the page's loaders, by loader key then owner id. */
  readonly loaded: Map<string, Map<Id, Json>>;
  /** Data features fetch once per request (custom field definitions…), by feature name. */
  readonly features: Map<string, unknown>;
  /** The request's query parameters (keys a request adds or removes are decided while emitting). */
  readonly query: ReadonlyMap<string, readonly string[]>;
  /** The response of a write: opt-in keys are always present there. */
  readonly writing: boolean;
  /** Whether an opt-in field (`relationships`, `computed_fields`) is part of this response. */
  readonly include: (name: string) => boolean;
}

/** One row of a query's result, in select order. */
export type Row = unknown[];

/** Which representation a plan produces. */
export interface PlanMode {
  /** Brief/nested form: id, display, url and the model's brief fields. */
  brief: boolean;
  /** Embedded in another object: annotated counts are omitted. */
  nested: boolean;
  version: ApiVersion;
}

/**
 * Produces one key's value from a row; `undefined` leaves the key out. `out` is the object built
 * so far (values derived from the representation itself, such as computed fields).
 */
export type Emitter = (row: Row, rc: RenderState, out?: JsonObject) => Json | undefined;

/** The representation of a whole object from a row. */
export type ObjectEmitter = (row: Row, rc: RenderState) => JsonObject;

/**
 * Loads values that do not fit in the main row (tags, many-to-many) for a whole page in one
 * query; results are keyed by the owning object's id.
 */
export interface Loader {
  readonly key: string;
  /** Position of the owner's id in the row. */
  readonly idIndex: number;
  /** The key a row is loaded under when it is not the id at `idIndex` (`type|id` pairs). */
  rowKey?(row: Row): Id | null;
  load(ids: Id[], rc: RenderState): Promise<Map<Id, Json>>;
}

/** A count of related rows per object, computed in the page's query. */
export type CountSpec =
  /**
   * Rows of `target` reaching the object through a path of foreign keys (`hops[0]` is the
   * target's); with `subtree`, rows pointing at the object or at any of its descendants.
   */
  | { readonly kind: 'path'; readonly name: string; readonly target: ModelMeta; readonly hops: readonly FieldMeta[]; readonly subtree: boolean }
  /** Rows of a link table pointing at the object (the other side of a many-to-many field). */
  | { readonly kind: 'links'; readonly name: string; readonly link: LinkSpec }
  /** Rows of `target` whose generic relation (`type` and `id` fields) names the object. */
  | { readonly kind: 'generic'; readonly name: string; readonly target: ModelMeta; readonly type: FieldMeta; readonly id: FieldMeta };

/** Objects related to each object of a page, loaded by one query per page in their nested form. */
export type RelatedObjects =
  /** The targets of a many-to-many field, in their ordering; with `slugField`, that attribute of each. */
  | { readonly kind: 'linked'; readonly field: FieldMeta; readonly slugField?: string }
  /** The objects of `field.target` whose foreign key `via` points at the object, in their ordering. */
  | { readonly kind: 'pointing'; readonly field: FieldMeta; readonly via: FieldMeta }
  /** The object named by a generic relation's type and id columns, among `targets`. */
  | { readonly kind: 'generic'; readonly field: FieldMeta; readonly targets: readonly ModelMeta[]; readonly typeColumn: string; readonly idColumn: string };

/**
 * What a kind's reader may ask of the query a representation is read from (implemented by
 * framework/store/select.ts): positions of columns, joins of foreign keys, annotated counts and
 * loaders, all as data; the SQL is the store's.
 */
export interface ReadScope {
  /** The model whose row this scope reads (a joined object's model for joined scopes). */
  readonly model: ModelMeta;
  /** Distinguishes the scopes of one query (loader keys). */
  readonly key: string;
  /** Position of a column of this scope's table in the row. */
  column(column: string): number;
  /** Position of this scope's primary key in the row. */
  readonly idIndex: number;
  /** The scope of the object a foreign key of this scope points at (joined into the same query). */
  join(field: FieldMeta): ReadScope;
  /** The nested form of this scope's object, read from the same query. */
  nested(mode: PlanMode): ObjectEmitter;
  /** Position of an annotated count in the row. */
  count(spec: CountSpec): number;
  /**
   * Loads related objects for each page; the returned function gives a row's value: a list
   * (`linked`, `pointing`) or an object (`generic`), undefined when nothing was loaded.
   */
  related(spec: RelatedObjects, mode: PlanMode): (row: Row, rc: RenderState) => Json | undefined;
  /** Registers a loader of this page (computed values); loaders with the same key run once. */
  addLoader(loader: Loader): void;
}
