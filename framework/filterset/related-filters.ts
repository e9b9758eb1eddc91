import { naturalKeyOf, parseId } from '../fields/foreign-key';
import { FilterValueError } from '../fields/kind';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { FALSE, fieldTest, not, or, type Predicate } from '../query/predicate';
import { rowsByIdOrKey } from '../store/filter-queries';
import type { FilterContext, FilterDef } from './definition';
import { through, type Step } from './steps';

function notFound(value: string): FilterValueError {
  return new FilterValueError(`Select a valid choice. ${value} is not one of the available choices.`);
}

/** True when `model` is a tree (its `parent` keeps paths): related filters may match descendants. */
export function isTree(model: ModelMeta): boolean {
  return model.field('parent')?.kind.treeParent === true;
}

/**
 * Resolves natural keys and/or ids of `target` to ids; unknown values are a 400. With
 * `naturalOnly` a value is only ever a natural key (tags: slugs, never UUIDs).
 */
export async function resolveIds(target: ModelMeta, values: string[], naturalKey: string | null, idsOnly: boolean, fc: FilterContext, naturalOnly = false): Promise<Id[]> {
  const ids: Id[] = [];
  const keys: string[] = [];
  for (const v of values) {
    const id = naturalOnly ? null : parseId(target, v);
    if (id !== null) ids.push(id);
    else if (idsOnly || !naturalKey) throw new FilterValueError(target.integerPk ? `Select a valid choice. ${v} is not one of the available choices.` : `“${v}” is not a valid UUID.`);
    else keys.push(v);
  }
  const nkField = naturalKey ? target.field(naturalKey) : undefined;
  // A natural key of another type (a VLAN's integer `vid`) is compared in that type; text that is
  // not one matches nothing.
  const keyValue = (v: string): unknown => {
    if (!nkField || nkField.kind.filterType !== 'integer' || !nkField.kind.filterValue) return v;
    try {
      return nkField.kind.filterValue(nkField, v, 'exact');
    } catch (err) {
      if (err instanceof FilterValueError) return undefined;
      throw err;
    }
  };
  const typedKeys = keys.map(keyValue).filter((k) => k !== undefined);
  if (values.length === 0) return [];
  // Nothing to look up (only keys of the wrong type): every value is reported below as not found.
  const rows = await rowsByIdOrKey(fc.db, target, ids, nkField, typedKeys);
  const foundIds = new Set(rows.map((r) => String(r[0])));
  // Natural keys need not be unique (interface and VM names): a key stands for every row holding it.
  const foundKeys = new Map<string, Id[]>();
  for (const [id, key] of rows) {
    const list = foundKeys.get(String(key)) ?? [];
    list.push(id);
    foundKeys.set(String(key), list);
  }
  const out: Id[] = [];
  for (const v of values) {
    const id = naturalOnly ? null : parseId(target, v);
    if (id !== null && foundIds.has(String(id))) out.push(id);
    else if (id === null && keyValue(v) !== undefined && foundKeys.has(String(keyValue(v)))) out.push(...(foundKeys.get(String(keyValue(v))) as Id[]));
    else throw notFound(v);
  }
  return out;
}

/** A filter on a chain of relations ending in a foreign-key-like field. */
export function relationFilter(
  name: string,
  steps: Step[],
  target: ModelMeta,
  options: {
    idsOnly: boolean;
    naturalKey: string | null;
    descendants: boolean;
    negated: boolean;
    help?: string;
    path: string;
    naturalOnly?: boolean;
    /** The filtered model: its own objects named by the values match too. */
    self?: ModelMeta;
  },
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
      ...(options.descendants && isTree(target) ? { descendants: true } : {}),
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
            options.descendants && isTree(target)
              ? { kind: 'in-subtree', field, ids }
              : fieldTest(field, 'exact', ids),
          );
        }
        if (wantsNull) parts.push(fieldTest(field, 'isnull', [true]));
        return or(parts);
      };
      if (last.kind === 'fk' && last.field.resolved.link) {
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
      if (options.self && ids.length) test = or([test, fieldTest(options.self.pk, 'exact', ids)]);
      return options.negated ? not(test) : test;
    },
  };
}

/** `<name>` (natural key or id) and `<name>_id` filters of a foreign key, and their `__n` forms. */
export function foreignKeyFilters(field: FieldMeta): FilterDef[] {
  const o = field.options as { idFilter?: boolean; descendants?: boolean; naturalKey?: string | false; naturalFilter?: boolean };
  const target = field.target as ModelMeta;
  const naturalOnly = field.kind.naturalFilterKey !== undefined;
  const natural = field.kind.naturalFilterKey ?? naturalKeyOf(field);
  const base = field.options.filterName ?? field.name;
  const defs: FilterDef[] = [];
  // A tree's own `parent` filter names the parent itself; other relations to a tree take in its subtree.
  const ownTree = field.kind.treeParent === true;
  const descendants = !ownTree && (o.descendants === true || (isTree(target) && o.descendants !== false));
  const idsOnlyForBase = !naturalOnly && natural === null;
  for (const negated of [false, true]) {
    if (o.naturalFilter !== false) {
      const def = relationFilter(negated ? `${base}__n` : base, [{ kind: 'fk', field }], target, {
        idsOnly: idsOnlyForBase,
        naturalKey: natural,
        // Nautobot's StatusFilter matches slugs only: a UUID is not one of the choices.
        naturalOnly,
        descendants,
        negated,
        help: field.options.help,
        path: field.name,
      });
      // A single-value relation filter (Nautobot's VM `cluster`): the last value counts.
      defs.push(field.options.single ? { ...def, multiple: 'last' } : def);
    }
    if (o.idFilter !== false && !naturalOnly) {
      defs.push(relationFilter(negated ? `${base}_id__n` : `${base}_id`, [{ kind: 'fk', field }], target, {
        idsOnly: true,
        naturalKey: null,
        descendants,
        negated,
        help: field.options.help,
        path: field.name,
      }));
    }
  }
  return defs;
}

/** `<name>` (natural key or id) and `<name>_id` of a plain many-to-many field; repeats OR. */
export function manyToManyFilters(field: FieldMeta): FilterDef[] {
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
