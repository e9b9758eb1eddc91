import type { Executor } from '../db/executor';
import { Params } from '../db/params';
import { FieldError, ValidationError } from '../errors';
import { naturalKeyOf, parseId } from '../fields/foreign-key';
import { FilterValueError } from '../fields/kind';
import { NETWORK_LOOKUPS } from '../fields/network';
import { descendantsOf } from '../fields/tree';
import { canonicalUuid } from '../fields/uuid';
import { booleanFilterValue } from '../fields/boolean';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { PathFilterSpec } from '../metadata/types';
import { Predicates, reverseName } from './orm';
import { and, compilePredicate, FALSE, fieldTest, not, or, TRUE, type Predicate } from './predicate';

/** Query parameters that are never filters. */
export const RESERVED_PARAMS = new Set(['limit', 'offset', 'brief', 'api_version', 'format', 'include']);

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

/** One query parameter of a list endpoint. */
export interface FilterDef {
  readonly name: string;
  /** Repeated values: OR (default), AND, or only the last one counts. */
  readonly multiple: 'or' | 'and' | 'last';
  /** Value type, for OpenAPI. */
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'date-time' | 'uuid';
  readonly help?: string;
  build(values: string[], fc: FilterContext): Predicate | Promise<Predicate>;
}

function notFound(value: string): FilterValueError {
  return new FilterValueError(`Select a valid choice. ${value} is not one of the available choices.`);
}

function valueType(field: FieldMeta): FilterDef['type'] {
  switch (field.kind.name) {
    case 'integer':
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
      return 'uuid';
    default:
      return 'string';
  }
}

/** `<field>` and `<field>__<suffix>` filters of a plain (column) field. */
function fieldFilters(field: FieldMeta): FilterDef[] {
  const lookups = field.options.lookups === false ? [] : field.options.lookups ?? field.kind.lookups?.(field) ?? [];
  const base = field.options.filterName ?? field.name;
  const defs: FilterDef[] = [];
  for (const suffix of lookups) {
    const spec = SUFFIXES[suffix];
    if (!spec) continue;
    const [lookup, negated] = spec;
    const single = field.options.single === true || field.kind.name === 'boolean';
    defs.push({
      name: suffix ? `${base}__${suffix}` : base,
      multiple: single ? 'last' : field.kind.name === 'content-types' ? 'and' : 'or',
      type: valueType(field),
      build(values) {
        const parsed = values.map((v) => (field.kind.filterValue ? field.kind.filterValue(field, v, lookup) : v));
        if (field.kind.name === 'content-types') {
          const test = fieldTest(field, lookup, parsed);
          return negated ? not(or(parsed.map((v) => fieldTest(field, lookup, [v])))) : test;
        }
        const positive = lookup === 'exact' ? fieldTest(field, 'exact', parsed) : or(parsed.map((v) => fieldTest(field, lookup, [v])));
        return negated ? not(positive) : positive;
      },
    });
  }
  return defs;
}

/** Resolves natural keys and/or ids of `target` to ids; unknown values are a 400. */
async function resolveIds(target: ModelMeta, values: string[], naturalKey: string | null, idsOnly: boolean, fc: FilterContext): Promise<Array<string | number>> {
  const ids: Array<string | number> = [];
  const keys: string[] = [];
  for (const v of values) {
    const id = parseId(target, v);
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
  if (keys.length && nkField?.column) conditions.push(`${q(nkField.column)} IN (${params.list(keys)})`);
  if (conditions.length === 0) return [];
  const select = nkField?.column ? `${pk}, ${q(nkField.column)}` : `${pk}, ${pk}`;
  const rows = await fc.db.rows(`SELECT ${select} FROM ${q(target.table)} WHERE ${conditions.join(' OR ')}`, params.values);
  const foundIds = new Set(rows.map((r) => String(r[0])));
  const foundKeys = new Map(rows.map((r) => [String(r[1]), r[0] as string | number]));
  const out: Array<string | number> = [];
  for (const v of values) {
    const id = parseId(target, v);
    if (id !== null && foundIds.has(String(id))) out.push(id);
    else if (id === null && foundKeys.has(v)) out.push(foundKeys.get(v) as string | number);
    else throw notFound(v);
  }
  return out;
}

/** A filter on a chain of relations ending in a foreign-key-like field. */
function relationFilter(
  name: string,
  steps: Array<{ kind: 'fk'; field: FieldMeta } | { kind: 'reverse'; model: ModelMeta; field: FieldMeta }>,
  target: ModelMeta,
  options: { idsOnly: boolean; naturalKey: string | null; descendants: boolean; negated: boolean; help?: string },
): FilterDef {
  return {
    name,
    multiple: 'or',
    type: options.idsOnly ? 'uuid' : 'string',
    help: options.help,
    async build(values, fc) {
      const wantsNull = values.some((v) => v === 'null');
      const ids = await resolveIds(target, values.filter((v) => v !== 'null'), options.naturalKey, options.idsOnly, fc);
      const last = steps[steps.length - 1];
      let test: Predicate;
      const idTest = (field: FieldMeta): Predicate => {
        const parts: Predicate[] = [];
        if (ids.length) {
          parts.push(
            options.descendants && target.field('parent')?.kind.name === 'tree-parent'
              ? { kind: 'sql', build: (alias, params) => `${alias}.${params.dialect.quote(field.column as string)} IN (${descendantsOf(target, ids, params)})` }
              : fieldTest(field, 'exact', ids),
          );
        }
        if (wantsNull) parts.push(fieldTest(field, 'isnull', [true]));
        return or(parts);
      };
      if (last.kind === 'fk') test = idTest(last.field);
      else {
        // Reverse relation: the final hop tests the child's primary key.
        const child = last.model;
        test = { kind: 'reverse', relation: { model: child, field: last.field }, item: ids.length ? fieldTest(child.pk, 'exact', ids) : FALSE };
      }
      for (let i = steps.length - 2; i >= 0; i--) {
        const step = steps[i];
        test = step.kind === 'fk' ? { kind: 'related', via: step.field, item: test } : { kind: 'reverse', relation: { model: step.model, field: step.field }, item: test };
      }
      return options.negated ? not(test) : test;
    },
  };
}

function fkFilters(field: FieldMeta): FilterDef[] {
  const o = field.options as { idFilter?: boolean; descendants?: boolean; naturalKey?: string | false };
  const target = field.target as ModelMeta;
  const natural = field.kind.name === 'status' ? 'slug' : naturalKeyOf(field);
  const base = field.options.filterName ?? field.name;
  const defs: FilterDef[] = [];
  const descendants = o.descendants === true || (target.field('parent')?.kind.name === 'tree-parent' && field.kind.name !== 'tree-parent' && o.descendants !== false);
  const idsOnlyForBase = field.kind.name !== 'status' && natural === null;
  for (const negated of [false, true]) {
    defs.push(relationFilter(negated ? `${base}__n` : base, [{ kind: 'fk', field }], target, {
      idsOnly: idsOnlyForBase,
      naturalKey: natural,
      descendants: field.kind.name === 'tree-parent' ? false : descendants,
      negated,
    }));
    if (o.idFilter !== false && field.kind.name !== 'status') {
      defs.push(relationFilter(negated ? `${base}_id__n` : `${base}_id`, [{ kind: 'fk', field }], target, {
        idsOnly: true,
        naturalKey: null,
        descendants: field.kind.name === 'tree-parent' ? false : descendants,
        negated,
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
    async build(values, fc) {
      const ids = await resolveIds(target, values, 'slug', false, fc).catch((err: unknown) => {
        // Tags are matched by slug only; a UUID is "not one of the available choices".
        throw err;
      });
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
    type: idsOnly ? 'uuid' : 'string',
    async build(values, fc) {
      const ids = await resolveIds(target, values, natural, idsOnly, fc);
      const linked: Predicate = { kind: 'related', via: field, item: fieldTest(target.pk, 'exact', ids) };
      return negated ? not(linked) : linked;
    },
  });
  return [make(base, false, false), make(base, false, true), make(`${base}_id`, true, false), make(`${base}_id`, true, true)];
}

function searchFilter(model: ModelMeta): FilterDef {
  const fields = (model.options.search ?? []).map((n) => model.field(n) as FieldMeta);
  return {
    name: 'q',
    multiple: 'last',
    type: 'string',
    help: 'Search',
    build([value]) {
      if (!value || !value.trim()) return TRUE;
      const parts: Predicate[] = fields.map((f) =>
        f.kind.name === 'integer' ? (/^\d+$/.test(value.trim()) ? fieldTest(f, 'exact', [Number(value.trim())]) : FALSE) : fieldTest(f, 'icontains', [value]),
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
      help: spec.help,
      build([value]) {
        const wanted = booleanFilterValue(value);
        const exists: Predicate = relation
          ? { kind: 'reverse', relation, item: TRUE }
          : not(fieldTest(field as FieldMeta, 'isnull', [true]));
        return wanted ? exists : not(exists);
      },
    }];
  }
  const steps: Array<{ kind: 'fk'; field: FieldMeta } | { kind: 'reverse'; model: ModelMeta; field: FieldMeta }> = [];
  let current = model;
  for (const segment of spec.path.split('.')) {
    const field = current.field(segment);
    if (field?.target && field.column) {
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
    relationFilter(negated ? `${name}__n` : name, steps, current, { idsOnly: spec.by === 'id', naturalKey: natural, descendants, negated, help: spec.help }),
  );
}

/** A @Filter method: the parsed (last) value, the predicate builder, and every parsed value. */
type NamedFilterMethod = (value: unknown, p: Predicates, values: unknown[]) => Predicate | Promise<Predicate>;

/** Named filters declared with @Filter on static methods. */
function namedFilters(model: ModelMeta): FilterDef[] {
  return model.namedFilters.map((d) => {
    const method = (model.cls as unknown as Record<string, NamedFilterMethod>)[d.method].bind(model.cls);
    const predicates = new Predicates(model);
    return {
      name: d.name,
      multiple: d.options.multiple ?? 'last',
      type: d.options.type === 'integer' ? 'integer' : d.options.type === 'boolean' ? 'boolean' : d.options.type === 'uuid' ? 'uuid' : 'string',
      help: d.options.help,
      async build(values: string[]) {
        const parsed = values.map((v) => parseNamedValue(d.options.type, v));
        try {
          return await method(parsed[parsed.length - 1], predicates, parsed);
        } catch (err) {
          // A model's filter refusing a value reads like any malformed filter value.
          if (err instanceof FieldError) throw new FilterValueError(err.messages.join(' '));
          throw err;
        }
      },
    };
  });
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

  constructor(readonly model: ModelMeta) {
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
    return RESERVED_PARAMS.has(name) || (this.model.options.reservedParams ?? []).includes(name);
  }

  /**
   * Turns query parameters into one predicate. Unknown parameters are errors when `strict`; value
   * errors always are; both are reported together, one key per parameter.
   */
  async parse(query: Map<string, string[]>, fc: FilterContext, strict: boolean, extra?: (name: string) => FilterDef | undefined): Promise<Predicate> {
    const errors: Record<string, string[]> = {};
    const parts: Predicate[] = [];
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
      try {
        parts.push(await def.build(used, fc));
      } catch (err) {
        if (err instanceof FilterValueError) errors[name] = [err.message];
        else if (err instanceof ValidationError) Object.assign(errors, err.detail);
        else throw err;
      }
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
    return and(parts);
  }
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
