import type { ApiVersion } from '../versioning/version';
import type {
  DisplaySpec,
  FieldOptions,
  ModelClass,
  ModelOptions,
  NamedFilterDeclaration,
  Operation,
} from './types';

/** Representation slots of the framework's common fields, after the model's own fields. */
export const TAIL_RANK = {
  created: 10,
  last_updated: 20,
  tags: 30,
  notes_url: 40,
  custom_fields: 50,
  computed_fields: 60,
  relationships: 70,
} as const;

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What kind of field a field is: one object per kind (string, foreign key, network...). The
 * metadata only needs to know that every field has one; the kind's facets (columns, parsing,
 * lookups and comparisons, reading through a ReadScope, writing through the KindStore, OPTIONS
 * and OpenAPI) are declared by framework/fields/kind.ts, which merges them into this interface.
 * The metadata therefore never imports the field kinds, and the kinds build on the metadata.
 */
export interface FieldKind {
  /** Identifies the kind in messages and generated documentation. */
  readonly name: string;
}

/**
 * State a field kind resolves against the whole registry. Each kind declares the keys it sets,
 * with their types, by merging them into this interface from its own module (as fields/kind.ts
 * does for FieldKind), so the metadata knows no kind's data and every reader gets a typed value.
 */
export interface ResolvedField {}

/** A field resolved against its model (and its target model, for relations). */
export class FieldMeta {
  model!: ModelMeta;
  /** Related model, for relation kinds. */
  target?: ModelMeta;
  /** What the field's kind works out once the registry is built (link tables, targets); frozen with it. */
  readonly resolved: ResolvedField = {};

  constructor(
    readonly name: string,
    readonly kind: FieldKind,
    readonly options: FieldOptions & Record<string, unknown>,
    readonly seq: number,
  ) {}

  /** The options typed as the kind's own options interface. */
  opts<T extends object>(): T {
    return this.options as unknown as T;
  }
  get column(): string | null {
    return this.kind.column(this);
  }
  get label(): string {
    return this.options.label ?? capitalise(this.name.replace(/^_+/, '').replace(/_/g, ' '));
  }
  /** Name used in messages such as "site with this name already exists.": the label in lower case unless given. */
  get verboseName(): string {
    return this.options.verboseName ?? (this.options.label ?? this.name.replace(/_/g, ' ')).toLowerCase();
  }
  get readOnly(): boolean {
    return this.options.readOnly === true;
  }
  get writeOnly(): boolean {
    return this.options.writeOnly === true;
  }
  get nullable(): boolean {
    return this.options.nullable === true;
  }
  get blank(): boolean {
    return this.options.blank === true;
  }
  get hidden(): boolean {
    return this.options.hidden === true;
  }
  get hasDefault(): boolean {
    return this.options.default !== undefined || this.kind.defaultValue !== undefined;
  }
  get required(): boolean {
    if (this.readOnly) return false;
    if (this.options.required !== undefined) return this.options.required;
    return !this.nullable && !this.blank && this.options.default === undefined;
  }
  defaultValue(): unknown {
    const d = this.options.default;
    if (d !== undefined) return typeof d === 'function' ? (d as () => unknown)() : d;
    return this.kind.defaultValue ? this.kind.defaultValue(this) : this.nullable ? null : undefined;
  }
  inVersion(version: ApiVersion): boolean {
    if (this.options.since && version.lt(this.options.since)) return false;
    if (this.options.until && !version.lt(this.options.until)) return false;
    return true;
  }
}

export interface ReverseRelation {
  /** Model holding the foreign key. */
  model: ModelMeta;
  field: FieldMeta;
}

/** Name by which a model's rows are reached from the target of one of its foreign keys. */
export function reverseName(r: ReverseRelation): string {
  return (r.field.options as { related?: string }).related ?? r.model.name;
}

export interface AppMeta {
  label: string;
  /** Path under /api/: `dcim`, or `plugins/<base_url>` for plugins. */
  urlBase: string;
  displayName: string;
  models: ModelMeta[];
  plugin?: boolean;
  /** A plugin's settings; empty for core applications. */
  settings: Readonly<Record<string, unknown>>;
}

/** Static methods of a model class the framework calls (`scope`: the rows a caller may ever see). */
export type HookName = 'prepare' | 'clean' | 'beforeSave' | 'afterSave' | 'beforeDelete' | 'scope';

/** What a model may ask of the registry it belongs to: other models by label or class. */
export interface ModelDirectory {
  readonly models: readonly ModelMeta[];
  get(label: string): ModelMeta | undefined;
  forClass(cls: Function): ModelMeta;
  maybeForClass(cls: Function): ModelMeta | undefined;
}

/** Everything the framework knows about one model, resolved once and frozen. */
export class ModelMeta {
  readonly fields: FieldMeta[] = [];
  readonly fieldMap = new Map<string, FieldMeta>();
  readonly reverse: ReverseRelation[] = [];
  /** Many-to-many fields of other models that target this one and name their reverse side. */
  readonly reverseLinks: ReverseRelation[] = [];
  readonly features = new Set<string>();
  namedFilters: NamedFilterDeclaration[] = [];
  hooks = new Map<HookName, string>();
  /** The registry this model belongs to, for lookups by label (generic references). */
  registry?: ModelDirectory;

  constructor(
    readonly cls: ModelClass,
    readonly app: AppMeta,
    readonly name: string,
    readonly options: ModelOptions,
  ) {}

  get label(): string {
    return this.options.label ?? `${this.app.label}.${this.name}`;
  }
  get table(): string {
    return `${this.app.label}_${this.name}`;
  }
  get path(): string | null {
    return this.options.path;
  }
  get verboseName(): string {
    return this.options.verboseName ?? this.cls.name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  }
  get verboseNamePlural(): string {
    return this.options.verboseNamePlural ?? `${this.verboseName}s`;
  }
  /** OPTIONS `name`: each word capitalised (`IP Address`, `VLAN Group`). */
  get title(): string {
    return this.verboseName.split(' ').map(capitalise).join(' ');
  }
  get display(): DisplaySpec {
    return this.options.display;
  }
  get brief(): string[] {
    return this.options.brief ?? [];
  }
  get pk(): FieldMeta {
    return this.fieldMap.get('id') as FieldMeta;
  }
  get integerPk(): boolean {
    return this.pk.kind.autoIncrement === true;
  }
  get operations(): Operation[] {
    return this.options.operations ?? ['list', 'retrieve', 'create', 'update', 'delete'];
  }
  allows(op: Operation): boolean {
    return this.operations.includes(op);
  }
  /** Absolute path of the list endpoint, `/api/dcim/sites/`. */
  get listPath(): string {
    return `/api/${this.app.urlBase}/${this.path}/`;
  }
  field(name: string): FieldMeta | undefined {
    return this.fieldMap.get(name);
  }
  has(feature: string): boolean {
    return this.features.has(feature);
  }
  addField(field: FieldMeta): void {
    field.model = this;
    this.fields.push(field);
    this.fieldMap.set(field.name, field);
  }
  hook(name: HookName): ((...args: never[]) => unknown) | undefined {
    const method = this.hooks.get(name);
    if (!method) return undefined;
    const fn = (this.cls as unknown as Record<string, unknown>)[method];
    return typeof fn === 'function' ? (fn.bind(this.cls) as (...args: never[]) => unknown) : undefined;
  }
}
