import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { ApiVersion } from '../versioning/version';
import type { Json } from '../metadata/types';
import type { SelectScope, PlanMode, Emitter } from '../serializer/select';
import type { WriteContext } from '../serializer/write-context';
import type { Params } from '../store/params';
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
  features?: Map<string, unknown>;
  version?: ApiVersion;
}

/**
 * One field kind: every facet of it in one object (storage, reading, writing, filtering,
 * OPTIONS and OpenAPI). A new kind is one file under framework/fields/.
 */
export interface FieldKind {
  readonly name: string;
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
  /** Fixed values the field's filters accept (content types), for descriptions; choice fields use their set. */
  filterChoices?(field: FieldMeta): ReadonlyArray<string | number>;
  /** Parses one REST filter value; throws FilterValueError. */
  filterValue?(field: FieldMeta, raw: string, lookup: string): unknown;
  /** SQL for `<column> <lookup> <values>`; values are already parsed. */
  compare?(field: FieldMeta, expr: string, lookup: string, values: unknown[], params: Params): string;
  /** As `compare`, for kinds stored over several columns; `col` gives a column's qualified name. */
  compareRow?(field: FieldMeta, col: (column: string) => string, lookup: string, values: unknown[], params: Params): string;
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

/** A malformed filter value: reported as `{param: [message]}` with 400. */
export class FilterValueError extends Error {}
