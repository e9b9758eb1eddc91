import type { Dialect } from '../store/dialect/types';
import type { Row } from '../store/executor';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json, JsonObject } from '../metadata/types';
import type { ApiVersion } from '../versioning/version';
import type { RenderContext } from './render-context';

export type { Id } from '../query/id';
import type { Id } from '../query/id';

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
export type Emitter = (row: Row, rc: RenderContext, out?: JsonObject) => Json | undefined;

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
  load(ids: Id[], rc: RenderContext): Promise<Map<Id, Json>>;
}

/**
 * Builds the column list and LEFT JOINs of one SELECT. Each scope is one table alias; nested
 * objects are joined scopes, so a page of objects with nested parents is a single query.
 */
export class SelectBuilder {
  readonly exprs: string[] = [];
  readonly joins: string[] = [];
  readonly loaders: Loader[] = [];
  private readonly index = new Map<string, number>();
  private readonly scopes = new Map<string, SelectScope>();
  private aliases = 0;
  readonly root: SelectScope;

  constructor(readonly model: ModelMeta, readonly dialect: Dialect) {
    this.root = new SelectScope(this, model, 't0', '');
    this.scopes.set('', this.root);
  }

  /** Adds an expression (deduplicated) and returns its position in the row. */
  add(sql: string): number {
    let i = this.index.get(sql);
    if (i === undefined) {
      i = this.exprs.length;
      this.exprs.push(sql);
      this.index.set(sql, i);
    }
    return i;
  }

  /** @internal */
  joinScope(parent: SelectScope, field: FieldMeta, target: ModelMeta, on: (alias: string) => string): SelectScope {
    const key = `${parent.key}.${field.name}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      const alias = `t${++this.aliases}`;
      this.joins.push(`LEFT JOIN ${this.dialect.quote(target.table)} ${this.dialect.quote(alias)} ON ${on(alias)}`);
      scope = new SelectScope(this, target, alias, key);
      this.scopes.set(key, scope);
    }
    return scope;
  }

  addLoader(loader: Loader): void {
    if (!this.loaders.some((l) => l.key === loader.key)) this.loaders.push(loader);
  }

  /** `SELECT … FROM … LEFT JOIN …` without WHERE/ORDER. */
  selectFrom(): string {
    const q = this.dialect.quote;
    const cols = this.exprs.length ? this.exprs.join(', ') : '1';
    return `SELECT ${cols} FROM ${q(this.model.table)} ${q('t0')}${this.joins.length ? ' ' + this.joins.join(' ') : ''}`;
  }
}

/** One table alias inside a SelectBuilder. */
export class SelectScope {
  constructor(
    readonly builder: SelectBuilder,
    readonly model: ModelMeta,
    readonly alias: string,
    readonly key: string,
  ) {}

  get dialect(): Dialect {
    return this.builder.dialect;
  }
  /** `"t1"."name"` */
  ref(column: string): string {
    const q = this.builder.dialect.quote;
    return `${q(this.alias)}.${q(column)}`;
  }
  column(column: string): number {
    return this.builder.add(this.ref(column));
  }
  /** A computed expression over this alias (e.g. a correlated count). */
  expr(build: (alias: string) => string): number {
    return this.builder.add(build(this.builder.dialect.quote(this.alias)));
  }
  get idIndex(): number {
    return this.column(this.model.pk.column as string);
  }
  /** LEFT JOIN the target of a foreign key held by this scope. */
  join(field: FieldMeta): SelectScope {
    const target = field.target as ModelMeta;
    const fk = this.ref(field.column as string);
    return this.builder.joinScope(this, field, target, (alias) => {
      const q = this.builder.dialect.quote;
      return `${q(alias)}.${q(target.pk.column as string)} = ${fk}`;
    });
  }
  addLoader(loader: Loader): void {
    this.builder.addLoader(loader);
  }
}
