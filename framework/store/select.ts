import type { CountSpec, Loader, ObjectEmitter, PlanMode, ReadScope, RelatedObjects, RenderState, Row } from '../fields/kind';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Json } from '../metadata/types';
import type { Id } from '../query/id';
import { countExpression } from './annotations';
import type { Dialect } from './dialect/types';
import { listInRow, listsOfPage, type NestedSubquery, type PageList } from './aggregated-lists';
import { relatedLoader, type NestedSelect } from './related-loaders';

export type { Id } from '../query/id';
export type { Emitter, Loader, ObjectEmitter, PlanMode, RenderState, Row } from '../fields/kind';
export type { LoadContext } from './related-loaders';

/**
 * How objects are represented, supplied by the serializer: the store builds SELECTs for nested
 * objects (a page's many-to-many targets) and needs their emitter and default ordering.
 */
export interface Representation {
  object(model: ModelMeta, scope: SelectScope, mode: PlanMode): ObjectEmitter;
  /** ORDER BY of the model's default ordering at the scope, ending with the primary key. */
  order(model: ModelMeta, scope: SelectScope): string;
}

/**
 * Where a page's list names the array of the page's ids, until the statement it goes into says
 * how that statement binds them (never valid SQL, so a list left unbound fails loudly).
 */
const PAGE_IDS = '\u0000page-ids\u0000';

/** A page's rows read in the statement that reads their ids (SelectBuilder.selectJoinedTo). */
export interface JoinedSelect {
  readonly sql: string;
  /** The representation's columns: the extra columns come after them. */
  readonly width: number;
}

/**
 * How a SELECT reads its objects' short lists (tags, reverse lists; see aggregated-lists.ts):
 * `loaders`, one statement per list for all the rows read; `in-row`, a subquery per row; `page`,
 * joined to a page read by its ids, with loaders for rows read otherwise.
 */
export type ListReading = 'loaders' | 'in-row' | 'page';

/**
 * Builds the column list and LEFT JOINs of one SELECT. Each scope is one table alias; nested
 * objects are joined scopes, so a page of objects with nested parents is a single query.
 */
export class SelectBuilder {
  readonly exprs: string[] = [];
  readonly joins: string[] = [];
  /** The alias each of `joins` introduces, in the same order. */
  private readonly joinAliases: string[] = [];
  readonly loaders: Loader[] = [];
  private readonly index = new Map<string, number>();
  private readonly scopes = new Map<string, SelectScope>();
  private aliases = 0;
  readonly root: SelectScope;

  /**
   * `representation` is needed to read nested objects (display strings alone do without).
   * `aliasPrefix` names the tables (`t0`, `t1`…): a subquery inside another SELECT takes its own.
   * `lists`: how short lists (tags) are read (ListReading).
   */
  constructor(
    readonly model: ModelMeta,
    readonly dialect: Dialect,
    readonly representation?: Representation,
    readonly aliasPrefix = 't',
    readonly lists: ListReading = 'loaders',
  ) {
    this.root = new SelectScope(this, model, `${aliasPrefix}0`, '');
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
  joinScope(parent: SelectScope, name: string, target: ModelMeta, on: (alias: string) => string): SelectScope {
    const key = `${parent.key}.${name}`;
    let scope = this.scopes.get(key);
    if (!scope) {
      const alias = `${this.aliasPrefix}${++this.aliases}`;
      this.joins.push(`LEFT JOIN ${this.dialect.quote(target.table)} ${this.dialect.quote(alias)} ON ${on(alias)}`);
      this.joinAliases.push(alias);
      scope = new SelectScope(this, target, alias, key, parent);
      this.scopes.set(key, scope);
    }
    return scope;
  }

  /** Lists joined to a page read by its ids (`lists: 'page'`), after the columns of `exprs`. */
  private readonly pageLists: PageList[] = [];

  /**
   * @internal Adds a page's list, made for the join alias given; its value is read at
   * `exprs.length +` the returned offset. Null when `make` gives none.
   */
  addPageList(make: (alias: string) => PageList | null): { list: PageList; offset: number } | null {
    const list = make(`${this.aliasPrefix}p${this.pageLists.length}`);
    if (!list) return null;
    this.pageLists.push(list);
    return { list, offset: this.pageLists.length - 1 };
  }

  /**
   * `SELECT … FROM … LEFT JOIN …` of a page read by its ids (bound as the first parameter, one
   * array), with the page's lists joined after the columns; null when no list is read so.
   */
  selectFromByIds(): string | null {
    if (!this.pageLists.length) return null;
    const q = this.dialect.quote;
    const cols = [...this.exprs, ...this.pageLists.map((l) => l.column)].join(', ');
    return `SELECT ${cols} FROM ${q(this.model.table)} ${q(`${this.aliasPrefix}0`)} ${this.joinsWithPageIds(this.dialect.placeholder(1))}`;
  }

  private readonly joinedTo = new Map<string, JoinedSelect | null>();

  /**
   * `SELECT … FROM <source> JOIN <the model's table> …` of the rows whose ids the FROM item
   * `source` holds in `idColumn`, with the `extra` columns after the representation's and the
   * page's lists joined, their ids bound as `pageIds`: a page read in the statement that reads its
   * ids. Null when the page's lists need ids and `pageIds` is empty.
   */
  selectJoinedTo(source: string, idColumn: string, extra: readonly string[], pageIds: string): JoinedSelect | null {
    const key = [source, idColumn, ...extra, pageIds].join('\u0000');
    let made = this.joinedTo.get(key);
    if (made !== undefined) return made;
    made = null;
    if (pageIds || !this.pageLists.length) {
      const q = this.dialect.quote;
      const root = q(`${this.aliasPrefix}0`);
      const own = [...this.exprs, ...this.pageLists.map((l) => l.column)];
      const joins = this.joinsWithPageIds(pageIds);
      made = {
        sql: `SELECT ${[...own, ...extra].join(', ')} FROM ${source} JOIN ${q(this.model.table)} ${root} ON ${root}.${q(this.model.pk.column as string)} = ${idColumn}${joins ? ' ' + joins : ''}`,
        width: own.length,
      };
    }
    if (this.joinedTo.size < 16) this.joinedTo.set(key, made);
    return made;
  }

  /** The joins, then the page's lists joined with their ids bound as `ids`. */
  private joinsWithPageIds(ids: string): string {
    return [...this.joins, ...this.pageLists.map((l) => l.join.split(PAGE_IDS).join(ids))].join(' ');
  }

  /** A builder for a subquery of this one's SELECT, its aliases distinct from this one's. */
  subquery(model: ModelMeta): SelectBuilder {
    return new SelectBuilder(model, this.dialect, this.representation, `${this.aliasPrefix}g`);
  }

  addLoader(loader: Loader): void {
    if (!this.loaders.some((l) => l.key === loader.key)) this.loaders.push(loader);
  }

  /**
   * The joins that SQL naming this builder's aliases (an ordering, a condition) needs: those of the
   * aliases it names and the joins they hang from. A list's ids are read with these alone: the
   * databases may drop unused LEFT JOINs, but the planning still costs, and SQLite then reads the
   * table instead of an index that covers the ordering.
   */
  joinsFor(...sql: string[]): string[] {
    const q = this.dialect.quote;
    const needed = new Set<string>();
    for (const scope of this.scopes.values()) {
      if (!scope.parent || !sql.some((text) => text.includes(`${q(scope.alias)}.`))) continue;
      for (let s: SelectScope | null = scope; s?.parent; s = s.parent) needed.add(s.alias);
    }
    return this.joins.filter((_, i) => needed.has(this.joinAliases[i]));
  }

  /** `SELECT … FROM … LEFT JOIN …` without WHERE/ORDER. */
  selectFrom(): string {
    const q = this.dialect.quote;
    const cols = this.exprs.length ? this.exprs.join(', ') : '1';
    return `SELECT ${cols} FROM ${q(this.model.table)} ${q('t0')}${this.joins.length ? ' ' + this.joins.join(' ') : ''}`;
  }
}

/** Most types a generic relation may have for its target to be joined in its owner's row (see joinedTargets). */
const MAX_JOINED_GENERIC_TARGETS = 3;

/** Whether a generic relation with these allowed types reads its target in its owner's row (SelectScope.joinedTargets). */
export function joinsGenericTargets(targets: readonly ModelMeta[]): boolean {
  if (targets.length === 0 || targets.length > MAX_JOINED_GENERIC_TARGETS) return false;
  // The id column holds UUIDs: an integer key would not compare with it on PostgreSQL. Labels
  // go into the SQL text: only a registry's, checked for the characters one has.
  return targets.every((t) => !t.integerPk && /^[a-z0-9_]+\.[a-z0-9_]+$/.test(t.label));
}

/** One table alias inside a SelectBuilder. */
export class SelectScope implements ReadScope {
  constructor(
    readonly builder: SelectBuilder,
    readonly model: ModelMeta,
    readonly alias: string,
    readonly key: string,
    /** The scope this one is joined to; null for the root. */
    readonly parent: SelectScope | null = null,
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
  pointingId(via: FieldMeta): number {
    const q = this.dialect.quote;
    const holder = via.model;
    const h = q(`${via.name}_p`);
    return this.expr(
      (alias) =>
        `(SELECT ${h}.${q(holder.pk.column as string)} FROM ${q(holder.table)} ${h} WHERE ${h}.${q(via.column as string)} = ${alias}.${q(this.model.pk.column as string)} LIMIT 1)`,
    );
  }
  /** LEFT JOIN the target of a foreign key held by this scope. */
  join(field: FieldMeta): SelectScope {
    const target = field.target as ModelMeta;
    const fk = this.ref(field.column as string);
    return this.builder.joinScope(this, field.name, target, (alias) => {
      const q = this.builder.dialect.quote;
      return `${q(alias)}.${q(target.pk.column as string)} = ${fk}`;
    });
  }
  nested(mode: PlanMode): ObjectEmitter {
    return this.representation.object(this.model, this, mode);
  }
  count(spec: CountSpec): number {
    return this.expr((alias) => countExpression(spec, this, alias));
  }
  related(spec: RelatedObjects, mode: PlanMode): (row: Row, rc: RenderState) => Json | undefined {
    const builder = this.builder;
    const joined = spec.kind === 'generic' && !this.parent ? this.joinedTargets(spec, mode) : null;
    if (joined) return joined;
    const nestedOf = (target: ModelMeta): NestedSubquery => {
      const inner = builder.subquery(target);
      return { select: inner, emit: inner.root.nested({ brief: true, nested: true, version: mode.version }), order: this.representation.order(target, inner.root) };
    };
    if (builder.lists === 'in-row') {
      const inRow = listInRow(spec, this, nestedOf);
      if (inRow) return (row, rc) => inRow.read(row[inRow.index], rc);
    }
    const loader = relatedLoader(spec, this, mode, (model, rc) => this.nestedSelect(model, rc.db.dialect));
    this.addLoader(loader);
    const loaded = this.loadedBy(loader);
    const added = builder.lists === 'page' && !this.parent ? builder.addPageList((alias) => listsOfPage(spec, this, alias, PAGE_IDS, nestedOf)) : null;
    if (!added) return loaded;
    // Rows read by the page's ids carry the list; rows read otherwise have it loaded.
    const column = () => builder.exprs.length + added.offset;
    loader.rowColumn = column;
    return (row, rc) => (row.length > column() ? added.list.read(row[column()], rc) : loaded(row, rc));
  }
  /**
   * The target of a generic relation in the row's own statement: each allowed type LEFT JOINed
   * on the type column naming it, with its nested form's joins. For relations of a few types (an
   * address's interface or VM interface), where it saves the page a statement of its own per
   * type; null for the others (a note's or a change's object may be of any type), which load.
   */
  private joinedTargets(spec: Extract<RelatedObjects, { kind: 'generic' }>, mode: PlanMode): ((row: Row, rc: RenderState) => Json | undefined) | null {
    const { targets } = spec;
    if (!joinsGenericTargets(targets)) return null;
    const q = this.dialect.quote;
    const typeRef = this.ref(spec.typeColumn);
    const idRef = this.ref(spec.idColumn);
    const typeIndex = this.column(spec.typeColumn);
    const byType = new Map<string, { idIndex: number; emit: ObjectEmitter }>();
    for (const target of targets) {
      // The label is a model's, from the registry (checked above), never a request's.
      const scope = this.builder.joinScope(this, `${spec.field.name}:${target.label}`, target, (alias) => `${typeRef} = '${target.label}' AND ${q(alias)}.${q(target.pk.column as string)} = ${idRef}`);
      byType.set(target.label, { idIndex: scope.idIndex, emit: scope.nested({ brief: true, nested: true, version: mode.version }) });
    }
    return (row, rc) => {
      const joined = byType.get(row[typeIndex] as string);
      // A stored id naming no object (deleted behind netinv's back) shows as no object, as loaded.
      return joined && row[joined.idIndex] !== null && row[joined.idIndex] !== undefined ? joined.emit(row, rc) : undefined;
    };
  }
  /** The emitter of what a loader loaded for a row. */
  private loadedBy(loader: Loader): (row: Row, rc: RenderState) => Json | undefined {
    if (loader.rowKey) {
      const rowKey = loader.rowKey.bind(loader);
      return (row, rc) => {
        const key = rowKey(row);
        return key === null ? undefined : rc.loaded.get(loader.key)?.get(key);
      };
    }
    const idIndex = loader.idIndex;
    return (row, rc) => rc.loaded.get(loader.key)?.get(row[idIndex] as Id);
  }
  addLoader(loader: Loader): void {
    this.builder.addLoader(loader);
  }
  /** A SELECT of another model's rows for a loader of this scope, represented alike. */
  private nestedSelect(model: ModelMeta, dialect: Dialect): NestedSelect {
    const representation = this.representation;
    const sb = new SelectBuilder(model, dialect, representation);
    return {
      exprs: sb.exprs,
      joins: sb.joins,
      add: (sql) => sb.add(sql),
      column: (column) => sb.root.column(column),
      nested: (mode) => sb.root.nested(mode),
      order: () => representation.order(model, sb.root),
      selectFrom: () => sb.selectFrom(),
      loaders: sb.loaders,
    };
  }
  private get representation(): Representation {
    const r = this.builder.representation;
    if (!r) throw new Error(`${this.model.label}: nested objects need a representation`);
    return r;
  }
}
