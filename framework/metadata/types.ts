
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Thunk<T> = () => T;
/** A decorated model class (constructor). */
export type ModelClass = abstract new (...args: never[]) => object;

/** Options every field decorator accepts. */
export interface FieldOptions {
  /** Required on create (and PUT). Defaults: true unless nullable, blank, defaulted or read-only. */
  required?: boolean;
  nullable?: boolean;
  /** Empty strings allowed. */
  blank?: boolean;
  /** Value stored when the field is omitted on create; a function is called per object. */
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  unique?: boolean;
  index?: boolean;
  label?: string;
  /** The name messages quote ("rack with this Asset tag already exists."); default: the label in lower case. */
  verboseName?: string;
  help?: string;
  /** Narrows the generated lookups, or `false` for no filter at all. */
  lookups?: readonly string[] | false;
  /** Name of the generated filter when it differs from the field name. */
  filterName?: string;
  /** The filter takes one value: the last one wins when repeated (Nautobot's single-value filters). */
  single?: boolean;
  /** Cross-cutting feature this field belongs to (`tags`, `custom_fields`, `changelog`). */
  feature?: string;
  /** API versions (`'1.3'`) from which / until which the field exists in representations. */
  since?: string;
  until?: string;
  /** Physical column name when it differs from the wire name. */
  column?: string;
  /** Framework-declared common fields sit at fixed places in the representation. */
  slot?: 'head' | 'tail';
  /** Order among tail fields. */
  rank?: number;
  /** Leave this field out of the representation (e.g. hidden sort keys). */
  hidden?: boolean;
  /** A hidden field that still gets its generated filters (a stored value lists filter on but never show). */
  filterable?: boolean;
}

/**
 * How the `display` string is built: a field name, or fields (dotted paths allowed) and a
 * renderer. `objects` names objects referenced by a (content type, id) pair of fields whose
 * display strings the renderer receives under the given names (null when the object is gone).
 */
export type DisplaySpec =
  | string
  | {
      fields: string[];
      render: (values: Record<string, unknown>) => string;
      objects?: Record<string, { type: string; id: string }>;
    };

export type Operation = 'list' | 'retrieve' | 'create' | 'update' | 'delete';

export interface ModelOptions {
  /** URL path segment under the application; `null` for internal models with no endpoint. */
  path: string | null;
  /** Content-type label when it is not `<app>.<name>` (groups are `auth.group` in Nautobot). */
  label?: string;
  /** Model name in labels and tables; default: the class name lower-cased. */
  name?: string;
  verboseName?: string;
  verboseNamePlural?: string;
  display: DisplaySpec;
  /** Fields of the brief/nested form besides id, url and display. */
  brief?: string[];
  /** Default ordering: field names or dotted paths, `-` for descending; `id` always ends it. */
  ordering?: string[];
  /** Fields searched (case-insensitive contains) by `q`, dotted through foreign keys; `id` matches exactly as well. */
  search?: string[];
  uniqueTogether?: string[][];
  /** Non-unique indexes over several fields (lookups by a pair of columns). */
  indexTogether?: string[][];
  operations?: Operation[];
  /** Single creates and updates also accept multipart/form-data (file uploads: image attachments). */
  multipart?: boolean;
  /** Extra feature names this model takes part in beyond those its base class declares. */
  features?: string[];
  /** Attribute of this model that `<fk>=<value>` filters on other models accept besides the id. */
  naturalKey?: string;
  /** Filters over relation paths: `tenant_group: {path: 'tenant.group'}`, `has_sites: {has: 'sites'}`. */
  filters?: Record<string, PathFilterSpec>;
  /** Query parameters that are not filters on this endpoint besides the common ones (`exclude`). */
  reservedParams?: string[];
  /** `?brief` also selects the brief form of write responses (Nautobot's device and VM views do so). */
  briefOnWrites?: boolean;
  /** HTTP Basic authentication is accepted on this endpoint (token provisioning). */
  basicAuth?: boolean;
  /** `false` leaves the model out of the GraphQL schema (accounts, definitions of features). */
  graphql?: boolean;
  /** OPTIONS `description` (a view's docstring in Nautobot; usually empty). */
  description?: string;
}

/** A named filter declared with @Filter on a static method. */
export interface NamedFilterDeclaration {
  name: string;
  method: string;
  options: NamedFilterOptions;
}

export interface NamedFilterOptions {
  /** Value type: parsed before the method is called. */
  type: 'string' | 'integer' | 'boolean' | 'uuid' | 'network' | 'address' | 'any';
  /** Repeated values: 'last' keeps the last one (Nautobot's method filters); 'or' / 'and' combine. */
  multiple?: 'last' | 'or' | 'and';
  help?: string;
  /** Generated lookups on top of the plain filter. */
  lookups?: readonly string[];
  name?: string;
}

/** A filter declared by path instead of code. */
export type PathFilterSpec =
  | {
      /** Relation path from this model: foreign keys and reverse names joined by dots. */
      path: string;
      /** `id`: UUIDs only (`<fk>_id` style); default accepts the natural key or the id. */
      by?: 'id' | 'natural';
      /** Natural key attribute of the final model (default: its natural key). */
      naturalKey?: string;
      /** Tree targets: match the node and its descendants. */
      descendants?: boolean;
      /** The object itself matches too when it is one of the values (a location's `subtree`). */
      self?: boolean;
      help?: string;
    }
  | { has: string; help?: string };

/** Internal values of an object, by field name (what kinds parse into and load from rows). */
export type Values = Record<string, unknown>;
