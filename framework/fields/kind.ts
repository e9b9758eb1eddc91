import type { FieldKind, FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { RequestData } from '../metadata/request-data';
import type { Json, JsonObject, Values } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import type { Id } from '../query/id';
import type { LinkSpec } from '../query/link';
import type { JsonValueType } from '../query/json-key';
import type { Predicate } from '../query/predicate';

// -- reading: what a kind's reader sees of the query ---------------------------------------------

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
  readonly features: RequestData;
  /** The request's query parameters (keys a request adds or removes are decided while emitting). */
  readonly query: ReadonlyMap<string, readonly string[]>;
  /** The response of a write: opt-in keys are always present there. */
  readonly writing: boolean;
  /** The response of a create (values computed only on reads, such as a location's depth, are null there). */
  readonly creating: boolean;
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
  /** A form of its own: these fields (after id, display and url) instead of the brief or full ones. */
  fields?: readonly string[];
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
  /**
   * Where rows read with the page's lists joined (a page read by its ids) carry this loader's
   * values: for such rows the loader does not run.
   */
  rowColumn?: () => number;
  /** `rows`: the page's rows the ids come from, for loaders that read values of their own from them. */
  load(ids: Id[], rc: RenderState, rows?: readonly Row[]): Promise<Map<Id, Json>>;
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
  /**
   * The objects of `field.target` whose foreign key `via` points at the object, in their
   * ordering; only those whose `where` field has its value; in the form of `form`'s fields when
   * given, else their nested form.
   */
  | {
      readonly kind: 'pointing';
      readonly field: FieldMeta;
      readonly via: FieldMeta;
      readonly where?: { readonly field: FieldMeta; readonly value: string | number | boolean };
      readonly form?: readonly string[];
    }
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
  /**
   * Position of the id of one row whose foreign key `via` points at this scope's object, null
   * where none does: whether the object is held (a device in a bay), read by the same statement.
   */
  pointingId(via: FieldMeta): number;
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

// -- the database as kinds see it --------------------------------------------------------------

/** A choice that lives in the database (statuses), as OPTIONS lists it. */
export interface StoredChoice {
  value: string;
  display: string;
}

/** Which objects: primary keys, a Django-style attribute dictionary (`{ vm_role: true }`) or a predicate. */
export type KindWhere = readonly Id[] | Record<string, unknown> | Predicate;

/**
 * What kinds ask of the database while parsing, writing and describing values, each method named
 * for what it computes. The store's object facade (framework/store/store.ts) implements it, as
 * does framework/store/kind-store.ts over a bare connection; kinds see neither SQL nor a
 * connection.
 */
export interface KindStore {
  /** Whether any object of `model` matches. */
  exists(model: ModelMeta, where: KindWhere): Promise<boolean>;
  /** Primary keys of the matching objects (at most `limit`), in no particular order. */
  ids(model: ModelMeta, where: KindWhere, limit?: number): Promise<Id[]>;
  /** The ids among `ids` whose content-type list `field` names the content type `label`. */
  idsForContentType(model: ModelMeta, field: FieldMeta, ids: Id[], label: string): Promise<Id[]>;
  /** The status (of model `statuses`) with this slug, when it is enabled for the content type `label`. */
  statusFor(statuses: ModelMeta, slug: string, label: string): Promise<Id | null>;
  /** The statuses (of model `statuses`) enabled for the content type `label`, by name. */
  statusesFor(statuses: ModelMeta, label: string): Promise<StoredChoice[]>;
  /** Values of `field` equal to `value` or starting with `value-`, held by rows other than `exceptId`. */
  takenValues(field: FieldMeta, value: string, exceptId: Id): Promise<string[]>;
  /** The targets each owner is linked to through a many-to-many field; every owner has an entry. */
  linkedIds(field: FieldMeta, ownerIds: Id[]): Promise<Map<Id, Id[]>>;
  /**
   * Links the owner to exactly `targets` through a many-to-many field; a created owner has no links
   * yet. `known`: the owner's links as an update's locked read found them (not read again).
   */
  replaceLinks(field: FieldMeta, ownerId: Id, targets: Id[], created: boolean, known?: readonly Id[]): Promise<void>;
  /** Adds links that do not exist yet (of objects just created), in as few statements as it can. */
  addLinks(field: FieldMeta, pairs: ReadonlyArray<readonly [Id, Id]>): Promise<void>;
  /**
   * Recomputes a tree node's path, sort key and depth from its parent (`parent` is the model's
   * tree-parent field), and those of its subtree when it moved; a node made its own descendant is
   * a ValidationError.
   */
  placeTreeNode(parent: FieldMeta, id: Id): Promise<void>;
}

// -- writing ---------------------------------------------------------------------------------------

/** Stored column values of one row, by column name. */
export type StoredRow = Record<string, unknown>;

/**
 * What writing a field may ask of the write in progress (the serializer's WriteContext, which
 * also holds the transaction that kinds reach only through `store`).
 */
export interface KindWriteContext {
  readonly model: ModelMeta;
  /** The object's id: generated before insert on create. */
  readonly id: Id;
  readonly creating: boolean;
  /** Stored values before this write (update only). */
  readonly current: Values | null;
  /** Request-scoped data shared by features (custom field definitions…) and kinds (status ids). */
  readonly features: RequestData;
  /** The database, in the write's transaction. */
  readonly store: KindStore;
  /** The objects of a model the writer may view (API writes); absent: every object. */
  readonly viewable?: (model: ModelMeta) => Promise<Predicate>;
}

// -- description (OPTIONS and OpenAPI) ------------------------------------------------------------

/** What OPTIONS shows for one field (DRF SimpleMetadata shape). */
export interface FieldInfo {
  type: string;
  required: boolean;
  read_only: boolean;
  label: string;
  help_text?: string;
  min_length?: number;
  max_length?: number;
  min_value?: number;
  max_value?: number;
  choices?: Array<{ value: Json; display: string }>;
  child?: FieldInfo | Record<string, unknown>;
  children?: Record<string, FieldInfo>;
}

export type OpenApiSchema = Record<string, unknown>;

/** `read`: the full representation; `brief`: the nested form; `write`: what a client sends. */
export type SchemaMode = 'read' | 'brief' | 'write';

/** What a kind's OpenAPI facet may ask of the document being built. */
export interface SchemaContext {
  /** API version the document describes (fields and shapes that change by version). */
  readonly version: ApiVersion;
  /** The nested (brief) form of a model, as a reference to its component. */
  nested(model: ModelMeta): OpenApiSchema;
  /** How a client names an object of a model on write: its id or an attribute object. */
  related(model: ModelMeta): OpenApiSchema;
}

export interface InfoContext {
  /** Status choices etc. need data: looked up once per OPTIONS request. */
  choicesFor(field: FieldMeta): Array<{ value: Json; display: string }> | undefined;
  nestedInfo(field: FieldMeta): Record<string, FieldInfo>;
  /** Request-scoped feature data (custom field definitions), prepared for the described model. */
  features?: RequestData;
  version?: ApiVersion;
}

// -- the kind ----------------------------------------------------------------------------------------

/**
 * How a field refers to rows of its target model: through its own column (`foreign-key`), a
 * link table (`many-to-many`), or a pair of type and id columns of its model (`generic`).
 */
export type RelationStyle = 'foreign-key' | 'many-to-many' | 'generic';

/** Value type of a filter parameter, as the OpenAPI document states it. */
export type FilterValueType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'uuid';

/** How repeated values of a filter parameter combine: any of them, all of them, or the last one alone. */
export type FilterMultiple = 'or' | 'and' | 'last';

/**
 * How filter values compare with a field, as data (framework/store/comparisons/ holds the SQL):
 * - `identity`: equality with any of the values, or `isnull`;
 * - `equality`: equality with any of the values, whatever the lookup;
 * - `scalar`: ordered values: `exact`, `in`, `lt`, `lte`, `gt`, `gte`, `isnull`;
 * - `text`: the scalar lookups and the text ones (`icontains`, `istartswith`, `regex`…);
 * - `uuid`: as `text`, pattern lookups on the id's text form;
 * - `links`: the object is linked to every value (link table); `isnull`: to none;
 * - `network`: containment and equality of networks over the stored columns, prefix length,
 *   family, and text lookups on the canonical text;
 * - `integer-list`: a stored list of integers `contains` every value;
 * - `string-list`: a stored list of strings holds every value;
 * - `content-types`: a stored list of content-type labels holds every value.
 */
export type Comparison = 'identity' | 'equality' | 'scalar' | 'text' | 'uuid' | 'links' | 'network' | 'integer-list' | 'string-list' | 'content-types';

/** How the database form (a change record's `object_data`) shows a field, when not as its value. */
export type DatabaseFormRule = 'omitted' | 'rendered';

/**
 * One field kind: every facet of it in one object (storage, reading, writing, filtering,
 * OPTIONS and OpenAPI). A new kind is one file under framework/fields/. The rest of the framework
 * decides by the capabilities declared here, never by `name`, which only identifies the kind in
 * messages and documentation.
 */
export interface FieldKindFacets {
  /** Identifies the kind in messages and generated documentation. */
  readonly name: string;

  // -- capabilities ----------------------------------------------------------------------------
  /** The field refers to rows of `field.target`; relations are walked backwards from the target. */
  readonly relation?: RelationStyle;
  /** Points a row at its parent in its own model's tree: the model keeps tree paths (subtree filters). */
  readonly treeParent?: true;
  /** The database numbers the column on insert (auto-increment integer primary keys). */
  readonly autoIncrement?: true;
  /** `afterWrite` runs on every save, also when the field was not written (tree paths follow the sort field). */
  readonly afterEverySave?: true;
  /** A per-query aggregate (counts): absent from objects embedded in others and from their description. */
  readonly annotation?: true;
  /** Absent from the nested form other objects embed: the brief schema leaves it out. */
  readonly nestedForm?: false;
  /**
   * Its column's value reads the same from a JSON aggregate as from a row, on every database
   * (text, integers, booleans): a list of such objects may be read aggregated with its owners
   * (store/aggregated-lists.ts). Dates and decimals do not (PostgreSQL's json writes a timestamp
   * with a `T`, a decimal as a number), nor JSON documents (embedded as objects on MySQL).
   */
  readonly sameInJson?: true;
  /** How the database form shows the field; by default its stored value under its name. */
  readonly databaseForm?: DatabaseFormRule;
  /** Keys and values the field contributes to the database form in place of its own value (network columns). */
  databaseColumns?(field: FieldMeta, value: unknown): Record<string, Json>;

  // -- storage ---------------------------------------------------------------------------------
  /** Applies the matching TypeORM (and class-validator) decorators to the property. */
  decorate(proto: object, property: string, options: object): void;
  /** Physical column holding the value, or null (many-to-many, counts, computed). */
  column(field: FieldMeta): string | null;
  /** Columns a row needs loaded for `load` (defaults to `column`). */
  loadColumns?(field: FieldMeta): string[];

  // -- reading ---------------------------------------------------------------------------------
  /** Registers what the representation needs and returns the emitter; null leaves it out. */
  reader(field: FieldMeta, scope: ReadScope, mode: PlanMode): Emitter | null;

  // -- writing ---------------------------------------------------------------------------------
  /** Parses client input into the internal value; throws FieldError. */
  parse?(field: FieldMeta, input: unknown, wc: KindWriteContext): unknown | Promise<unknown>;
  /** Internal value from a raw row keyed by column name. */
  load?(field: FieldMeta, row: StoredRow): unknown;
  /**
   * The value of the field's own column for an internal value: for kinds that store that one
   * column. A bulk write calls it for every field of every object, so it returns the bare value
   * rather than a row of one column.
   */
  storeColumn?(field: FieldMeta, value: unknown): unknown;
  /** Column values to store for an internal value: for kinds that store several columns (or another). */
  store?(field: FieldMeta, value: unknown): StoredRow;
  /** Writes that live outside the row (link tables), after the row exists. */
  afterWrite?(field: FieldMeta, id: Id, value: unknown, wc: KindWriteContext, created: boolean): Promise<void>;
  /** `afterWrite` of many objects created together (a bulk create), in as few statements as it can. */
  afterCreateMany?(field: FieldMeta, created: ReadonlyArray<{ id: Id; value: unknown }>, wc: KindWriteContext): Promise<void>;
  /** Removes state kept outside the row (associations) of objects about to be deleted. */
  removed?(field: FieldMeta, ids: Id[], wc: KindWriteContext): Promise<void>;
  /**
   * Its values are link rows as `field.resolved.link` describes (many-to-many): reads of whole
   * objects aggregate them in the objects' own statement (store/links.ts linkedIdsInRow) instead
   * of calling `loadMany` in a statement of its own.
   */
  readonly linksInRow?: true;
  /** Loads the internal values of a non-column field for several objects (link tables), inside or outside a write. */
  loadMany?(field: FieldMeta, ids: Id[], store: KindStore): Promise<Map<Id, unknown>>;
  /** Default internal value on create when the client sent nothing. */
  defaultValue?(field: FieldMeta): unknown;
  /** Checks across fields before the model's own `clean()` (throws ValidationError). */
  validate?(field: FieldMeta, values: Values, wc: KindWriteContext): Promise<void>;
  /** Completes values after every field parsed (generated slugs, automatic timestamps). */
  prepare?(field: FieldMeta, values: Values, wc: KindWriteContext): void | Promise<void>;
  /** Text columns order byte-wise through the dialect. */
  readonly textual?: boolean;
  /** Columns the default ordering sorts by, when not the field's own column (networks). */
  orderColumns?(field: FieldMeta): Array<{ column: string; text: boolean }>;

  // -- filtering -------------------------------------------------------------------------------
  /** Generated REST lookup suffixes ('' is the plain filter). */
  lookups?(field: FieldMeta): readonly string[];
  /** The fixed set of values the field holds, which describes its filters (choices, content types); undefined: any value. */
  filterChoices?(field: FieldMeta): ReadonlyArray<string | number> | undefined;
  /** Type of the parsed filter values, for OpenAPI (default `string`); integer natural keys compare as integers. */
  readonly filterType?: FilterValueType;
  /**
   * The values an integer column can hold: a filter value beyond them matches nothing (or, for an
   * order comparison, every non-null row) instead of reaching the database, which may refuse it.
   */
  columnRange?(field: FieldMeta): readonly [min: number, max: number];
  /** A lookup whose values are not of the field's own type (a network's `family`: 4 or 6). */
  lookupValues?(field: FieldMeta, lookup: string): { type: FilterValueType; choices?: ReadonlyArray<string | number> } | undefined;
  /** How repeated values of the field's filters combine (default `or`). */
  readonly filterMultiple?: FilterMultiple;
  /**
   * Relation filters (`<name>`) match only this attribute of the target, never its id, and there
   * is no `<name>_id` filter (Nautobot's StatusFilter matches slugs).
   */
  readonly naturalFilterKey?: string;
  /** Stored columns that Django-style keys may name directly (a network field's `network` or `host`). */
  namedColumns?(field: FieldMeta): readonly string[];
  /** Parses one REST filter value; throws FilterValueError. */
  filterValue?(field: FieldMeta, raw: string, lookup: string): unknown;
  /** How parsed filter values compare with the field; without it the field cannot be filtered. */
  readonly comparison?: Comparison;
  /**
   * How the kind's values compare when they are kept under a key of a JSON document (custom field
   * data) rather than in a column of their own: as text (the default; ISO dates order as text),
   * as numbers, as booleans, or as a list that must hold the value.
   */
  readonly jsonValue?: JsonValueType;
  /** Query parameters the field reads while rendering (`exclude`): not filters on its model's endpoint. */
  queryParams?(field: FieldMeta): readonly string[];
  /**
   * What those parameters do to the field on reads, for the OpenAPI document and generated
   * docs: `show` (opt-in: `include=relationships`) or `hide` (opt-out: `exclude=config_context`).
   */
  queryParamEffects?(field: FieldMeta): ReadonlyArray<{ readonly name: string; readonly effect: 'show' | 'hide' }>;

  // -- description -----------------------------------------------------------------------------
  info(field: FieldMeta, ic: InfoContext): FieldInfo;
  /** Choices that live in the database (statuses), fetched once per OPTIONS request. */
  loadChoices?(field: FieldMeta, store: KindStore): Promise<StoredChoice[]>;
  /** Called by defineApp, once the model's table name is known (link tables). */
  define?(declaration: { property: string; options: object }, cls: Function, table: string, modelName: string): void;
  /** OpenAPI schema of one value; the document builder adds readOnly, writeOnly and required. */
  schema?(field: FieldMeta, mode: SchemaMode, sc: SchemaContext): OpenApiSchema;
}

export { FilterValueError } from '../errors';

declare module '../metadata/model-meta' {
  /** Every field kind has the facets above (see FieldKind in metadata/model-meta.ts). */
  interface FieldKind extends FieldKindFacets {}
}

export type { FieldKind };
