import type { RequestData } from '../metadata/request-data';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { ApiVersion } from '../versioning/version';
import type { Json } from '../metadata/types';
import type { SelectScope, PlanMode, Emitter } from '../serializer/select';
import type { WriteContext } from '../serializer/write-context';
import type { Dialect } from '../store/dialect/types';
import type { Executor, ObjectRow } from '../store/executor';

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

/**
 * One field kind: every facet of it in one object (storage, reading, writing, filtering,
 * OPTIONS and OpenAPI). A new kind is one file under framework/fields/.
 */
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
 * - `content-types`: a stored list of content-type labels holds every value.
 */
export type Comparison = 'identity' | 'equality' | 'scalar' | 'text' | 'uuid' | 'links' | 'network' | 'integer-list' | 'content-types';

/** How the database form (a change record's `object_data`) shows a field, when not as its value. */
export type DatabaseFormRule = 'omitted' | 'rendered';

/**
 * One field kind: every facet of it in one object (storage, reading, writing, filtering,
 * OPTIONS and OpenAPI). A new kind is one file under framework/fields/. The rest of the framework
 * decides by the capabilities declared here, never by `name`, which only identifies the kind in
 * messages and documentation.
 */
export interface FieldKind {
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
  /** How the database form shows the field; by default its stored value under its name. */
  readonly databaseForm?: DatabaseFormRule;
  /** Applies the matching TypeORM (and class-validator) decorators to the property. */
  decorate(proto: object, property: string, options: object): void;
  /** Physical column holding the value, or null (many-to-many, counts, computed). */
  column(field: FieldMeta): string | null;
  /** Columns a row needs loaded for `load` (defaults to `column`). */
  loadColumns?(field: FieldMeta): string[];

  // -- reading ---------------------------------------------------------------------------------
  /** Registers what the representation needs and returns the emitter; null leaves it out. */
  reader(field: FieldMeta, scope: SelectScope, mode: PlanMode): Emitter | null;

  // -- writing ---------------------------------------------------------------------------------
  /** Parses client input into the internal value; throws FieldError. */
  parse?(field: FieldMeta, input: unknown, wc: WriteContext): unknown | Promise<unknown>;
  /** Internal value from a raw row keyed by column name. */
  load?(field: FieldMeta, row: ObjectRow, dialect: Dialect): unknown;
  /** Column values to store for an internal value. */
  store?(field: FieldMeta, value: unknown, dialect: Dialect): Record<string, unknown>;
  /** Writes that live outside the row (link tables), after the row exists. */
  afterWrite?(field: FieldMeta, id: string | number, value: unknown, wc: WriteContext, created: boolean): Promise<void>;
  /** Removes state kept outside the row (associations) of objects about to be deleted. */
  removed?(field: FieldMeta, ids: Array<string | number>, wc: WriteContext): Promise<void>;
  /** Loads the internal values of a non-column field for several objects (link tables), inside or outside a write. */
  loadMany?(field: FieldMeta, ids: Array<string | number>, db: Executor): Promise<Map<string | number, unknown>>;
  /** Default internal value on create when the client sent nothing. */
  defaultValue?(field: FieldMeta): unknown;
  /** Checks across fields before the model's own `clean()` (throws ValidationError). */
  validate?(field: FieldMeta, values: Record<string, unknown>, wc: WriteContext): Promise<void>;
  /** Completes values after every field parsed (generated slugs, automatic timestamps). */
  prepare?(field: FieldMeta, values: Record<string, unknown>, wc: WriteContext): void | Promise<void>;
  /** Text columns order byte-wise through the dialect. */
  readonly textual?: boolean;
  /** Columns the default ordering sorts by, when not the field's own column (networks). */
  orderColumns?(field: FieldMeta): Array<{ column: string; text: boolean }>;

  // -- filtering -------------------------------------------------------------------------------
  /** Generated REST lookup suffixes ('' is the plain filter). */
  lookups?(field: FieldMeta): readonly string[];
  /** Fixed values the field's filters accept (choices, content types), for descriptions. */
  filterChoices?(field: FieldMeta): ReadonlyArray<string | number>;
  /** Type of the parsed filter values, for OpenAPI (default `string`); integer natural keys compare as integers. */
  readonly filterType?: FilterValueType;
  /** How repeated values of the field's filters combine (default `or`). */
  readonly filterMultiple?: FilterMultiple;
  /**
   * Relation filters (`<name>`) match only this attribute of the target, never its id, and there
   * is no `<name>_id` filter (Nautobot's StatusFilter matches slugs).
   */
  readonly naturalFilterKey?: string;
  /** Stored columns that Django-style keys may name directly (a network field's `network` or `host`). */
  namedColumns?(field: FieldMeta): readonly string[];
  /** Keys and values the field contributes to the database form in place of its own value (network columns). */
  databaseColumns?(field: FieldMeta, value: unknown): Record<string, Json>;
  /** Parses one REST filter value; throws FilterValueError. */
  filterValue?(field: FieldMeta, raw: string, lookup: string): unknown;
  /** How parsed filter values compare with the field; without it the field cannot be filtered. */
  readonly comparison?: Comparison;
  /** Query parameters the field reads while rendering (`exclude`): not filters on its model's endpoint. */
  queryParams?(field: FieldMeta): readonly string[];

  // -- description -----------------------------------------------------------------------------
  info(field: FieldMeta, ic: InfoContext): FieldInfo;
  /** Choices that live in the database (statuses), fetched once per OPTIONS request. */
  loadChoices?(field: FieldMeta, db: import('../store/executor').Executor): Promise<Array<{ value: Json; display: string }>>;
  /** Called by defineApp, once the model's table name is known (link tables). */
  define?(declaration: { property: string; options: object }, cls: Function, table: string, modelName: string): void;
  /** OpenAPI schema of one value; the document builder adds readOnly, writeOnly and required. */
  schema?(field: FieldMeta, mode: SchemaMode, sc: SchemaContext): OpenApiSchema;
}

export { FilterValueError } from '../errors';
