import type { Executor } from '../store/executor';
import { Params } from '../store/params';
import { FieldError, ValidationError } from '../errors';
import { naturalKeyOf, parseId } from '../fields/foreign-key';
import { FilterValueError } from '../fields/kind';
import { NETWORK_LOOKUPS } from '../fields/network';
import { canonicalUuid } from '../fields/uuid';
import { booleanFilterValue } from '../fields/boolean';
import type { ChoiceOptions } from '../fields/choice';
import { isRegexLookup } from '../fields/common';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { PathFilterSpec } from '../metadata/types';
import { Predicates, reverseName } from '../query/attributes';
import { and, FALSE, fieldTest, not, or, TRUE, type Predicate } from '../query/predicate';
import { compilePredicate } from '../store/compile-predicate';

/**
 * Query parameters that are never filters: pagination, representation (`brief`, `include`,
 * `exclude`), version and renderer selection.
 */
export const RESERVED_PARAMS = new Set(['limit', 'offset', 'brief', 'api_version', 'format', 'include', 'exclude']);

/** REST suffix → (ORM lookup, negated). */
export const SUFFIXES: Record<string, [string, boolean]> = {
  '': ['exact', false],
  n: ['exact', true],
  ic: ['icontains', false],
  nic: ['icontains', true],
  isw: ['istartswith', false],
  nisw: ['istartswith', true],
  iew: ['iendswith', false],
  niew: ['iendswith', true],
  ie: ['iexact', false],
  nie: ['iexact', true],
  re: ['regex', false],
  nre: ['regex', true],
  ire: ['iregex', false],
  nire: ['iregex', true],
  lt: ['lt', false],
  lte: ['lte', false],
  gt: ['gt', false],
  gte: ['gte', false],
};
// Network fields take Django's lookup names as suffixes (`prefix__net_contained=`, `address__istartswith=`).
for (const lookup of NETWORK_LOOKUPS) SUFFIXES[lookup] ??= [lookup, false];

export interface FilterContext {
  readonly db: Executor;
}

export type FilterValueType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'uuid';

/** What a related-object filter accepts: ids only, or the target's natural key or its id. */
export interface RelatedFilterInfo {
  /** Label of the target model (`dcim.region`). */
  readonly model: string;
  readonly by: 'id' | 'natural' | 'natural-only';
  /** Attribute matched besides (or, for `natural-only`, instead of) the id. */
  readonly naturalKey?: string;
  /** Tree targets: the node's descendants match too. */
  readonly descendants?: boolean;
  /** `null` selects objects without a related one. */
  readonly nullable: boolean;
}

/** One query parameter of a list endpoint. */
export interface FilterDef {
  readonly name: string;
  /** Repeated values: OR (default), AND, or only the last one counts. */
  readonly multiple: 'or' | 'and' | 'last';
  /** Value type, for OpenAPI. */
  readonly type: FilterValueType;
  readonly help?: string;
  /** Field, relation path or filter method the parameter tests; null for `q`. */
  readonly target?: string | null;
  /** Django lookup applied (`exact`, `icontains`, `regex`, `gte`…); `search` for `q`, `method` for @Filter. */
  readonly lookup?: string;
  /** The parameter excludes what the positive lookup selects (`__n`, `__nic`…). */
  readonly negated?: boolean;
  /** Fixed set of accepted values (choice fields). */
  readonly choices?: ReadonlyArray<string | number>;
  readonly related?: RelatedFilterInfo;
  /** What the text names, when more than free text: an IP address (with or without mask) or a network. */
  readonly format?: 'address' | 'network';
  build(values: string[], fc: FilterContext): Predicate | Promise<Predicate>;
}

/** A filter as OPTIONS, the OpenAPI document and generated docs present it. */
export interface FilterDescription {
  readonly name: string;
  readonly target: string | null;
  readonly lookup: string;
  readonly negated: boolean;
  readonly type: FilterValueType;
  readonly multiple: 'or' | 'and' | 'last';
  readonly help: string;
  readonly choices?: ReadonlyArray<string | number>;
  readonly related?: RelatedFilterInfo;
  readonly format?: 'address' | 'network';
}

/** Human wording of each lookup, for generated help texts. */
const LOOKUP_HELP: Record<string, string> = {
  exact: 'equals',
  iexact: 'equals, ignoring case',
  icontains: 'contains, ignoring case',
  istartswith: 'starts with, ignoring case',
  iendswith: 'ends with, ignoring case',
  regex: 'matches the regular expression',
  iregex: 'matches the regular expression, ignoring case',
  lt: 'is less than',
  lte: 'is less than or equal to',
  gt: 'is greater than',
  gte: 'is greater than or equal to',
};

/** Parsed query parameters: the predicate, and which parameters hold regular expressions. */
export interface ParsedFilters {
  readonly predicate: Predicate;
  /** Parameters whose values are regular expressions (their queries run with a time limit). */
  readonly regexParams: string[];
}

function notFound(value: string): FilterValueError {
  return new FilterValueError(`Select a valid choice. ${value} is not one of the available choices.`);
}

function valueType(field: FieldMeta): FilterDef['type'] {
  switch (field.kind.name) {
    case 'integer':
    case 'integer-pk':
    case 'tree-depth':
      return 'integer';
    case 'decimal':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'date-time';
    case 'uuid':
    case 'generic-id':
      return 'uuid';
    default:
      return 'string';
  }
}

/** Relation hops from a model to the one a filter finally tests. */
type Step = { kind: 'fk'; field: FieldMeta } | { kind: 'reverse'; model: ModelMeta; field: FieldMeta };

/** A test on the last model of `steps`, as a test on the first: each hop a subquery. */
function through(steps: Step[], test: Predicate): Predicate {
  let p = test;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    p = step.kind === 'fk' ? { kind: 'related', via: step.field, item: p } : { kind: 'reverse', relation: { model: step.model, field: step.field }, item: p };
  }
  return p;
}

/**
 * `<field>` and `<field>__<suffix>` filters of a plain (column) field; with `steps`, of a field of
 * a related model (`mac_address` of devices tests their interfaces), named `base`.
 */
/** Fixed values of a choice field, for descriptions. */
function choicesOf(field: FieldMeta): ReadonlyArray<string | number> | undefined {
  if (field.kind.name !== 'choice') return field.kind.filterChoices?.(field);
  return field.opts<ChoiceOptions>().choices.values;
}

function fieldFilters(field: FieldMeta, steps: Step[] = [], name?: string): FilterDef[] {
  const lookups = field.options.lookups === false ? [] : field.options.lookups ?? field.kind.lookups?.(field) ?? [];
  const base = name ?? field.options.filterName ?? field.name;
  const defs: FilterDef[] = [];
  const choices = choicesOf(field);
  for (const suffix of lookups) {
    const spec = SUFFIXES[suffix];
    if (!spec) continue;
    const [lookup, negated] = spec;
    const single = field.options.single === true || field.kind.name === 'boolean';
    const type = choices?.every((c) => typeof c === 'number') ? 'integer' : valueType(field);
    defs.push({
      name: suffix ? `${base}__${suffix}` : base,
      multiple: single ? 'last' : field.kind.name === 'content-types' ? 'and' : 'or',
      type,
      target: field.name,
      lookup,
      negated,
      choices,
      help: field.options.help,
      build(values) {
        // A kind may ignore a value it does not recognise (booleans): undefined drops it.
        const parsed = values.map((v) => (field.kind.filterValue ? field.kind.filterValue(field, v, lookup) : v)).filter((v) => v !== undefined);
        if (parsed.length === 0) return TRUE;
        if (field.kind.name === 'content-types') {
          const test = fieldTest(field, lookup, parsed);
          return negated ? not(or(parsed.map((v) => fieldTest(field, lookup, [v])))) : test;
        }
        const positive = through(steps, lookup === 'exact' ? fieldTest(field, 'exact', parsed) : or(parsed.map((v) => fieldTest(field, lookup, [v]))));
        return negated ? not(positive) : positive;
      },
    });
  }
  return defs;
}

/**
 * Resolves natural keys and/or ids of `target` to ids; unknown values are a 400. With
 * `naturalOnly` a value is only ever a natural key (tags: slugs, never UUIDs).
 */
async function resolveIds(target: ModelMeta, values: string[], naturalKey: string | null, idsOnly: boolean, fc: FilterContext, naturalOnly = false): Promise<Array<string | number>> {
  const ids: Array<string | number> = [];
  const keys: string[] = [];
  for (const v of values) {
    const id = naturalOnly ? null : parseId(target, v);
    if (id !== null) ids.push(id);
    else if (idsOnly || !naturalKey) throw new FilterValueError(target.integerPk ? `Select a valid choice. ${v} is not one of the available choices.` : `“${v}” is not a valid UUID.`);
    else keys.push(v);
  }
  const q = fc.db.dialect.quote;
  const params = new Params(fc.db.dialect);
  const pk = q(target.pk.column as string);
  const conditions: string[] = [];
  if (ids.length) conditions.push(`${pk} IN (${params.list(ids)})`);
  const nkField = naturalKey ? target.field(naturalKey) : undefined;
  // A natural key of another type (a VLAN's integer `vid`) is compared in that type; text that is
  // not one matches nothing.
  const keyValue = (v: string): unknown => {
    if (!nkField || nkField.kind.name !== 'integer' || !nkField.kind.filterValue) return v;
    try {
      return nkField.kind.filterValue(nkField, v, 'exact');
    } catch (err) {
      if (err instanceof FilterValueError) return undefined;
      throw err;
    }
  };
  const typedKeys = keys.map(keyValue).filter((k) => k !== undefined);
  if (typedKeys.length && nkField?.column) conditions.push(`${q(nkField.column)} IN (${params.list(typedKeys)})`);
  if (values.length === 0) return [];
  const select = nkField?.column ? `${pk}, ${q(nkField.column)}` : `${pk}, ${pk}`;
  // Nothing to look up (only keys of the wrong type): every value is reported below as not found.
  const rows = conditions.length ? await fc.db.rows(`SELECT ${select} FROM ${q(target.table)} WHERE ${conditions.join(' OR ')}`, params.values) : [];
  const foundIds = new Set(rows.map((r) => String(r[0])));
  // Natural keys need not be unique (interface and VM names): a key stands for every row holding it.
  const foundKeys = new Map<string, Array<string | number>>();
  for (const r of rows) {
    const list = foundKeys.get(String(r[1])) ?? [];
    list.push(r[0] as string | number);
    foundKeys.set(String(r[1]), list);
  }
  const out: Array<string | number> = [];
  for (const v of values) {
    const id = naturalOnly ? null : parseId(target, v);
    if (id !== null && foundIds.has(String(id))) out.push(id);
    else if (id === null && keyValue(v) !== undefined && foundKeys.has(String(keyValue(v)))) out.push(...(foundKeys.get(String(keyValue(v))) as Array<string | number>));
    else throw notFound(v);
  }
  return out;
}

/** A filter on a chain of relations ending in a foreign-key-like field. */
function relationFilter(
  name: string,
  steps: Step[],
  target: ModelMeta,
  options: { idsOnly: boolean; naturalKey: string | null; descendants: boolean; negated: boolean; help?: string; path: string; naturalOnly?: boolean },
): FilterDef {
  const last = steps[steps.length - 1];
  return {
    name,
    multiple: 'or',
    type: options.idsOnly && !target.integerPk ? 'uuid' : options.idsOnly ? 'integer' : 'string',
    help: options.help,
    target: options.path,
    lookup: 'exact',
    negated: options.negated,
    related: {
      model: target.label,
      by: options.idsOnly || !options.naturalKey ? 'id' : options.naturalOnly ? 'natural-only' : 'natural',
      ...(options.idsOnly || !options.naturalKey ? {} : { naturalKey: options.naturalKey }),
      ...(options.descendants && target.field('parent')?.kind.name === 'tree-parent' ? { descendants: true } : {}),
      nullable: steps.length === 1 && last.kind === 'fk' && last.field.nullable,
    },
    async build(values, fc) {
      const wantsNull = values.some((v) => v === 'null');
      const ids = await resolveIds(target, values.filter((v) => v !== 'null'), options.naturalKey, options.idsOnly, fc, options.naturalOnly);
      let test: Predicate;
      const idTest = (field: FieldMeta): Predicate => {
        const parts: Predicate[] = [];
        if (ids.length) {
          parts.push(
            options.descendants && target.field('parent')?.kind.name === 'tree-parent'
              ? { kind: 'in-subtree', field, ids }
              : fieldTest(field, 'exact', ids),
          );
        }
        if (wantsNull) parts.push(fieldTest(field, 'isnull', [true]));
        return or(parts);
      };
      if (last.kind === 'fk' && last.field.extra.link) {
        // Many-to-many: linked to any of the objects (a link field's own test would need all of them).
        const parts: Predicate[] = [];
        if (ids.length) parts.push({ kind: 'related', via: last.field, item: fieldTest(target.pk, 'exact', ids) });
        if (wantsNull) parts.push(fieldTest(last.field, 'isnull', [true]));
        test = or(parts);
      } else if (last.kind === 'fk') test = idTest(last.field);
      else {
        // Reverse relation: the final hop tests the child's primary key.
        const child = last.model;
        test = { kind: 'reverse', relation: { model: child, field: last.field }, item: ids.length ? fieldTest(child.pk, 'exact', ids) : FALSE };
      }
      test = through(steps.slice(0, -1), test);
      return options.negated ? not(test) : test;
    },
  };
}

function fkFilters(field: FieldMeta): FilterDef[] {
  const o = field.options as { idFilter?: boolean; descendants?: boolean; naturalKey?: string | false; naturalFilter?: boolean };
  const target = field.target as ModelMeta;
  const natural = field.kind.name === 'status' ? 'slug' : naturalKeyOf(field);
  const base = field.options.filterName ?? field.name;
  const defs: FilterDef[] = [];
  const descendants = o.descendants === true || (target.field('parent')?.kind.name === 'tree-parent' && field.kind.name !== 'tree-parent' && o.descendants !== false);
  const idsOnlyForBase = field.kind.name !== 'status' && natural === null;
  for (const negated of [false, true]) {
    if (o.naturalFilter !== false) {
      const def = relationFilter(negated ? `${base}__n` : base, [{ kind: 'fk', field }], target, {
        idsOnly: idsOnlyForBase,
        naturalKey: natural,
        // Nautobot's StatusFilter matches slugs only: a UUID is not one of the choices.
        naturalOnly: field.kind.name === 'status',
        descendants: field.kind.name === 'tree-parent' ? false : descendants,
        negated,
        help: field.options.help,
        path: field.name,
      });
      // A single-value relation filter (Nautobot's VM `cluster`): the last value counts.
      defs.push(field.options.single ? { ...def, multiple: 'last' } : def);
    }
    if (o.idFilter !== false && field.kind.name !== 'status') {
      defs.push(relationFilter(negated ? `${base}_id__n` : `${base}_id`, [{ kind: 'fk', field }], target, {
        idsOnly: true,
        naturalKey: null,
        descendants: field.kind.name === 'tree-parent' ? false : descendants,
        negated,
        help: field.options.help,
        path: field.name,
      }));
    }
  }
  return defs;
}

function tagFilters(field: FieldMeta): FilterDef[] {
  const target = field.target as ModelMeta;
  const make = (negated: boolean): FilterDef => ({
    name: negated ? 'tag__n' : 'tag',
    multiple: 'and',
    type: 'string',
    target: field.name,
    lookup: 'exact',
    negated,
    help: 'Tag slug; repeated, objects carrying every tag',
    related: { model: target.label, by: 'natural-only', naturalKey: 'slug', nullable: false },
    async build(values, fc) {
      // Tags are matched by slug only: a UUID is "not one of the available choices".
      const ids = await resolveIds(target, values, 'slug', false, fc, true);
      const tests = ids.map((id) => fieldTest(field, 'exact', [id]));
      return negated ? and(tests.map((t) => not(t))) : and(tests);
    },
  });
  return [make(false), make(true)];
}

/** `<name>` (natural key or id) and `<name>_id` of a plain many-to-many field; repeats OR. */
function manyToManyFilters(field: FieldMeta): FilterDef[] {
  const target = field.target as ModelMeta;
  const base = field.options.filterName ?? field.name;
  const natural = naturalKeyOf(field);
  const make = (name: string, idsOnly: boolean, negated: boolean): FilterDef => ({
    name: negated ? `${name}__n` : name,
    multiple: 'or',
    type: idsOnly ? (target.integerPk ? 'integer' : 'uuid') : 'string',
    help: field.options.help,
    target: field.name,
    lookup: 'exact',
    negated,
    related: {
      model: target.label,
      by: idsOnly || !natural ? 'id' : 'natural',
      ...(idsOnly || !natural ? {} : { naturalKey: natural }),
      nullable: false,
    },
    async build(values, fc) {
      const ids = await resolveIds(target, values, natural, idsOnly, fc);
      const linked: Predicate = { kind: 'related', via: field, item: fieldTest(target.pk, 'exact', ids) };
      return negated ? not(linked) : linked;
    },
  });
  return [make(base, false, false), make(base, false, true), make(`${base}_id`, true, false), make(`${base}_id`, true, true)];
}

/** A search entry (`name`, `device_type.manufacturer.name`): the foreign keys crossed and the field. */
export function searchPath(model: ModelMeta, entry: string): { steps: Step[]; field: FieldMeta } | null {
  const names = entry.split('.');
  const steps: Step[] = [];
  let m: ModelMeta | undefined = model;
  for (const [i, name] of names.entries()) {
    const f: FieldMeta | undefined = m?.field(name);
    if (!f) return null;
    if (i === names.length - 1) return { steps, field: f };
    if (!f.target || !f.column) return null;
    steps.push({ kind: 'fk', field: f });
    m = f.target;
  }
  return null;
}

function searchFilter(model: ModelMeta): FilterDef {
  const fields = (model.options.search ?? []).map((entry) => searchPath(model, entry) as NonNullable<ReturnType<typeof searchPath>>);
  return {
    name: 'q',
    multiple: 'last',
    type: 'string',
    help: `Search: ${[...(model.options.search ?? []), 'id'].join(', ')}`,
    target: null,
    lookup: 'search',
    negated: false,
    build([value]) {
      if (!value || !value.trim()) return TRUE;
      const parts: Predicate[] = fields.map(({ steps, field: f }) =>
        through(steps, f.kind.name === 'integer' ? (/^\d+$/.test(value.trim()) ? fieldTest(f, 'exact', [Number(value.trim())]) : FALSE) : fieldTest(f, 'icontains', [value])),
      );
      const id = model.integerPk ? (/^\d+$/.test(value.trim()) ? Number(value.trim()) : null) : canonicalUuid(value.trim());
      if (id !== null) parts.push(fieldTest(model.pk, 'exact', [id]));
      return or(parts);
    },
  };
}

function pathFilters(model: ModelMeta, name: string, spec: PathFilterSpec): FilterDef[] {
  if ('has' in spec) {
    const relation = model.reverse.find((r) => reverseName(r) === spec.has);
    const field = model.field(spec.has);
    if (!relation && !field) throw new Error(`${model.label}: filter ${name} names unknown relation ${spec.has}`);
    return [{
      name,
      multiple: 'last',
      type: 'boolean',
      help: spec.help ?? `Has ${spec.has}`,
      target: spec.has,
      lookup: 'exists',
      negated: false,
      build([value]) {
        const wanted = booleanFilterValue(value);
        if (wanted === undefined) return TRUE;
        const exists: Predicate = relation
          ? { kind: 'reverse', relation, item: TRUE }
          : not(fieldTest(field as FieldMeta, 'isnull', [true]));
        return wanted ? exists : not(exists);
      },
    }];
  }
  const steps: Step[] = [];
  let current = model;
  const segments = spec.path.split('.');
  for (const [i, segment] of segments.entries()) {
    const field = current.field(segment);
    if (i === segments.length - 1 && field?.column && !field.target && !field.hidden) {
      // The path ends in a plain field: its own lookups, tested on the related rows.
      return fieldFilters(field, steps, name);
    }
    if (field?.target && (field.column || field.extra.link)) {
      steps.push({ kind: 'fk', field });
      current = field.target;
      continue;
    }
    const relation = current.reverse.find((r) => reverseName(r) === segment);
    if (relation) {
      steps.push({ kind: 'reverse', model: relation.model, field: relation.field });
      current = relation.model;
      continue;
    }
    throw new Error(`${model.label}: filter ${name} path ${spec.path} has unknown step ${segment}`);
  }
  const natural = spec.by === 'id' ? null : spec.naturalKey ?? (current.options.naturalKey ?? (current.field('slug') ? 'slug' : current.field('name') ? 'name' : null));
  const descendants = spec.descendants ?? current.field('parent')?.kind.name === 'tree-parent';
  return [false, true].map((negated) =>
    relationFilter(negated ? `${name}__n` : name, steps, current, { idsOnly: spec.by === 'id', naturalKey: natural, descendants, negated, help: spec.help, path: spec.path }),
  );
}

/** A @Filter method: the parsed (last) value, the predicate builder, and every parsed value. */
type NamedFilterMethod = (value: unknown, p: Predicates, values: unknown[]) => Predicate | Promise<Predicate>;

/** Named filters declared with @Filter on static methods. */
function namedFilters(model: ModelMeta): FilterDef[] {
  // `lookups: ['n']` adds `<name>__n`: the objects the plain filter leaves out.
  const variants = (d: ModelMeta['namedFilters'][number]) => [false, ...((d.options.lookups ?? []).includes('n') ? [true] : [])];
  return model.namedFilters.flatMap((d) => variants(d).map((negated): FilterDef => {
    const method = (model.cls as unknown as Record<string, NamedFilterMethod>)[d.method].bind(model.cls);
    const predicates = new Predicates(model);
    return {
      name: negated ? `${d.name}__n` : d.name,
      multiple: d.options.multiple ?? 'last',
      type: d.options.type === 'integer' ? 'integer' : d.options.type === 'boolean' ? 'boolean' : d.options.type === 'uuid' ? 'uuid' : 'string',
      help: d.options.help,
      target: d.method,
      lookup: 'method',
      negated,
      ...(d.options.type === 'address' || d.options.type === 'network' ? { format: d.options.type } : {}),
      async build(values: string[]) {
        const parsed = values.map((v) => parseNamedValue(d.options.type, v)).filter((v) => v !== undefined);
        if (parsed.length === 0) return TRUE;
        try {
          const p = await method(parsed[parsed.length - 1], predicates, parsed);
          return negated ? not(p) : p;
        } catch (err) {
          // A model's filter refusing a value reads like any malformed filter value.
          if (err instanceof FieldError) throw new FilterValueError(err.messages.join(' '));
          throw err;
        }
      },
    };
  }));
}

function parseNamedValue(type: string, raw: string): unknown {
  switch (type) {
    case 'integer': {
      if (!/^[-+]?\d+$/.test(raw.trim())) throw new FilterValueError('Enter a whole number.');
      return Number(raw.trim());
    }
    case 'boolean':
      return booleanFilterValue(raw);
    case 'uuid': {
      const id = canonicalUuid(raw);
      if (!id) throw new FilterValueError(`“${raw}” is not a valid UUID.`);
      return id;
    }
    default:
      return raw;
  }
}

/** Every filter of a model, built once from its metadata. */
export class FilterSet {
  readonly filters = new Map<string, FilterDef>();
  /** Parameters fields of this model read while rendering (`exclude=config_context`). */
  private readonly fieldParams: Set<string>;

  constructor(readonly model: ModelMeta) {
    this.fieldParams = new Set(model.fields.flatMap((f) => f.kind.queryParams?.(f) ?? []));
    const add = (def: FilterDef) => {
      if (!this.filters.has(def.name)) this.filters.set(def.name, def);
    };
    for (const field of model.fields) {
      if (field.options.lookups === false || field.hidden) continue;
      if (field.kind.name === 'many-to-many' && (field.options as { feature?: string }).feature === 'tags') tagFilters(field).forEach(add);
      else if (field.target && field.column && ['foreign-key', 'tree-parent', 'status'].includes(field.kind.name)) fkFilters(field).forEach(add);
      else if (field.kind.name === 'many-to-many' && field.target && field.options.filterName) manyToManyFilters(field).forEach(add);
      else if (field.column && field.kind.lookups) fieldFilters(field).forEach(add);
    }
    add(searchFilter(model));
    for (const [name, spec] of Object.entries(model.options.filters ?? {})) pathFilters(model, name, spec).forEach(add);
    namedFilters(model).forEach((def) => this.filters.set(def.name, def));
  }

  /** Parameters that are not filters here. */
  reserved(name: string): boolean {
    return RESERVED_PARAMS.has(name) || this.fieldParams.has(name) || (this.model.options.reservedParams ?? []).includes(name);
  }

  /**
   * Turns query parameters into one predicate. Unknown parameters are errors when `strict`; value
   * errors always are; both are reported together, one key per parameter.
   */
  async parse(query: Map<string, string[]>, fc: FilterContext, strict: boolean, extra?: (name: string) => FilterDef | undefined): Promise<Predicate> {
    return (await this.parseQuery(query, fc, strict, extra)).predicate;
  }

  /** As parse, also telling which parameters carry regular expressions. */
  async parseQuery(query: Map<string, string[]>, fc: FilterContext, strict: boolean, extra?: (name: string) => FilterDef | undefined): Promise<ParsedFilters> {
    const errors: Record<string, string[]> = {};
    const parts: Predicate[] = [];
    const regexParams: string[] = [];
    for (const [name, rawValues] of query) {
      if (this.reserved(name)) continue;
      const def = this.filters.get(name) ?? extra?.(name);
      if (!def) {
        if (strict) errors[name] = ['Unknown filter field'];
        continue;
      }
      const values = rawValues.filter((v) => v !== '');
      if (values.length === 0) continue;
      const used = def.multiple === 'last' ? [values[values.length - 1]] : values;
      if (def.lookup && isRegexLookup(def.lookup)) regexParams.push(name);
      try {
        parts.push(await def.build(used, fc));
      } catch (err) {
        if (err instanceof FilterValueError) errors[name] = [err.message];
        else if (err instanceof ValidationError) Object.assign(errors, err.detail);
        else throw err;
      }
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return { predicate: and(parts), regexParams };
  }

  /**
   * Every filter of the model, in declaration order, with its lookup, value type and a help text:
   * what OPTIONS, the OpenAPI document and generated docs list.
   */
  describe(): FilterDescription[] {
    return [...this.filters.values()].map((def) => {
      const lookup = def.lookup ?? 'exact';
      const negated = def.negated ?? false;
      const d: FilterDescription = {
        name: def.name,
        target: def.target ?? null,
        lookup,
        negated,
        type: def.type,
        multiple: def.multiple,
        help: def.help ?? defaultHelp(def.target ?? def.name, lookup, negated, def.related),
        ...(def.choices ? { choices: def.choices } : {}),
        ...(def.related ? { related: def.related } : {}),
        ...(def.format ? { format: def.format } : {}),
      };
      return d;
    });
  }
}

/** `name: contains, ignoring case`, `site: is not (slug or id)`… */
function defaultHelp(target: string, lookup: string, negated: boolean, related?: RelatedFilterInfo): string {
  const verb = LOOKUP_HELP[lookup] ?? lookup;
  const what = related ? (related.by === 'id' ? ' (id)' : ` (${related.naturalKey ?? 'natural key'}${related.by === 'natural' ? ' or id' : ''})`) : '';
  return `${target}${what}: ${negated ? `not (${verb})` : verb}`;
}

export function filterSetFor(model: ModelMeta): FilterSet {
  return ((model.extra.filterSet as FilterSet | undefined) ??= new FilterSet(model));
}

/** A filter dictionary (`{"status": ["active"], "site": "ams01"}`) as query parameters. */
export function filterQuery(dict: Record<string, unknown>): Map<string, string[]> {
  const text = (v: unknown) => (typeof v === 'string' ? v : v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  const query = new Map<string, string[]>();
  for (const [name, value] of Object.entries(dict)) query.set(name, Array.isArray(value) ? value.map(text) : [text(value)]);
  return query;
}

/**
 * The objects among `ids` that a filter dictionary selects, as the list endpoint would filter
 * them (strict: unknown parameters and bad values are ValidationErrors).
 */
export async function matchingIds(
  db: Executor,
  model: ModelMeta,
  dict: Record<string, unknown>,
  ids: Array<string | number>,
  extra?: (name: string) => FilterDef | undefined,
): Promise<Set<string | number>> {
  if (ids.length === 0) return new Set();
  const where = await filterSetFor(model).parse(filterQuery(dict), { db }, true, extra);
  const params = new Params(db.dialect);
  const q = db.dialect.quote;
  const condition = compilePredicate(and([where, fieldTest(model.pk, 'exact', ids)]), model, 't0', params);
  const rows = await db.rows(`SELECT ${q('t0')}.${q(model.pk.column as string)} FROM ${q(model.table)} ${q('t0')} WHERE ${condition}`, params.values);
  return new Set(rows.map((r) => r[0] as string | number));
}
