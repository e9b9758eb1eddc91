import { FieldError, FilterValueError } from '../errors';
import { reverseName, type FieldMeta, type ModelMeta } from '../metadata/model-meta';
import { and, not, or, type Predicate } from './predicate';
import { genericNames } from '../fields/generic-names';

/** Lookups understood in attribute dictionaries and permission constraints (Django's names). */
export const ORM_LOOKUPS = new Set([
  'exact', 'iexact', 'contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith',
  'regex', 'iregex', 'in', 'gt', 'gte', 'lt', 'lte', 'isnull',
  'net_contained', 'net_contained_or_equal', 'net_contains', 'net_contains_or_equals', 'net_equals',
  'net_host', 'net_host_contained', 'net_in', 'family', 'mask_length', 'mask_length_gte', 'mask_length_lte',
]);

export { reverseName };

/**
 * How far a key may reach. `all`: every relation, reverse ones too (permission constraints, model
 * code). `own`: the model's own fields and, through its foreign keys and many-to-many fields, the
 * own fields of the models they point at, never back through a reverse relation (attribute
 * dictionaries sent by clients, which must not search other models' rows).
 */
export type OrmReach = 'all' | 'own';

function choices(model: ModelMeta, reach: OrmReach): string {
  const names = new Set<string>();
  for (const f of model.fields) if (!f.hidden && (f.column || f.resolved.link)) names.add(f.name);
  if (reach === 'all') {
    for (const r of model.reverse) names.add(reverseName(r));
    for (const r of model.reverseLinks) names.add(String((r.field.options as { related?: string }).related));
  }
  return [...names].sort().join(', ');
}

function isRelation(field: FieldMeta): boolean {
  return !!field.target;
}

/** One attribute value, in the field's internal form. */
function ormValue(field: FieldMeta, value: unknown, lookup: string): unknown {
  if (value === null) return null;
  if (lookup === 'isnull') return value === true || value === 'true' || value === 'True' || value === 1;
  const parse = field.kind.filterValue;
  if (!parse) return value;
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  try {
    const parsed = parse(field, text, lookup);
    // A boolean filter ignores values it does not know; an attribute dictionary may not.
    if (parsed === undefined) throw new FieldError(`“${text}” value must be either True or False.`);
    return parsed;
  } catch (err) {
    if (err instanceof FilterValueError) throw new FieldError(err.message);
    throw err;
  }
}

function leaf(field: FieldMeta, lookup: string, value: unknown): Predicate {
  if (lookup === 'in') {
    if (!Array.isArray(value)) throw new FieldError(`'${field.name}__in' expects a list`);
    return { kind: 'field', field, lookup: 'exact', values: value.map((v) => ormValue(field, v, 'exact')) };
  }
  return { kind: 'field', field, lookup, values: [ormValue(field, value, lookup)] };
}

/**
 * `site__region__slug__iexact` → a predicate over `model`. Relation hops become subqueries;
 * the last segment may be a lookup (default `exact`).
 */
export function ormPredicate(model: ModelMeta, key: string, value: unknown, reach: OrmReach = 'all'): Predicate {
  const segments = key.split('__');
  return walk(model, segments, value, key, reach);
}

function walk(model: ModelMeta, segments: string[], value: unknown, key: string, reach: OrmReach): Predicate {
  const [head, ...rest] = segments;
  let field = model.field(head);
  if (field?.hidden) field = undefined;
  // Nautobot's constraints name the stored network columns (`network`, `host`) of IPAM models.
  if (!field && (head === 'network' || head === 'host')) {
    field = model.fields.find((f) => f.kind.namedColumns?.(f).includes(head));
  }
  if (!field && head.endsWith('_id')) {
    const fk = model.field(head.slice(0, -3));
    if (fk && fk.column === head) field = fk;
  }
  if (!field) {
    const reverse = reach === 'all' ? model.reverse.find((r) => reverseName(r) === head) : undefined;
    if (reverse && rest.length > 0 && !ORM_LOOKUPS.has(rest[0])) {
      return { kind: 'reverse', relation: reverse, item: walk(reverse.model, rest, value, key, reach) };
    }
    const linked = reach === 'all' ? model.reverseLinks.find((r) => (r.field.options as { related?: string }).related === head) : undefined;
    if (linked && rest.length > 0 && !ORM_LOOKUPS.has(rest[0])) {
      return { kind: 'reverse-link', relation: linked, item: walk(linked.model, rest, value, key, reach) };
    }
    throw new FieldError(`Cannot resolve keyword '${head}' into field. Choices are: ${choices(model, reach)}`);
  }
  if (rest.length === 0) return leaf(field, 'exact', value);
  if (rest.length === 1 && ORM_LOOKUPS.has(rest[0]) && !(isRelation(field) && field.target?.field(rest[0]))) {
    return leaf(field, rest[0], value);
  }
  if (isRelation(field)) {
    return { kind: 'related', via: field, item: walk(field.target as ModelMeta, rest, value, key, reach) };
  }
  throw new FieldError(`Unsupported lookup '${rest.join('__')}' for ${field.name} or join on the field not permitted.`);
}

/** Several `key: value` pairs, ANDed (an attribute dictionary or one permission constraint). */
export function ormFilter(model: ModelMeta, attributes: Record<string, unknown>, reach: OrmReach = 'all'): Predicate {
  return and(Object.entries(attributes).map(([k, v]) => ormPredicate(model, k, v, reach)));
}

/**
 * What a named filter (@Filter on a static method) builds its predicate with: Django-style keys
 * over the model's fields and relations, so model code never sees columns or SQL.
 */
export class Predicates {
  constructor(readonly model: ModelMeta) {}
  /** `lookup('site__region__slug', 'iexact', 'eu')`. */
  lookup(path: string, lookup: string, value: unknown): Predicate {
    return ormPredicate(this.model, lookup === 'exact' ? path : `${path}__${lookup}`, value);
  }
  /**
   * The generic relation `relation` points at an object of model `label` matching `attributes`
   * (`p.generic('assigned_object', 'dcim.interface', { device__name: 'r1' })`), or matching the
   * predicate `attributes` builds over that model (`(q) => q.or([...])`).
   */
  generic(relation: string, label: string, attributes: Record<string, unknown> | ((target: Predicates) => Predicate)): Predicate {
    const names = genericNames(this.model.field(relation)?.options ?? {}, relation);
    const typeField = this.model.field(names.type);
    const idField = this.model.field(names.id);
    const target = ((typeField?.resolved.targets as ModelMeta[] | undefined) ?? []).find((m) => m.label === label);
    if (!typeField || !idField || !target) throw new FieldError(`${relation} cannot point at ${label}`);
    const item = typeof attributes === 'function' ? attributes(new Predicates(target)) : ormFilter(target, attributes);
    return { kind: 'generic', typeField, idField, target, item };
  }

  /**
   * Objects of this model that an object of `label` points at through its generic relation
   * `relation`, that object matching `attributes` (`p.pointedAtBy('ipam.ipaddress',
   * 'assigned_object', { address__net_in: ['10.0.0.1'] })`).
   */
  pointedAtBy(label: string, relation: string, attributes: Record<string, unknown>): Predicate {
    const source = this.model.registry?.get(label);
    const names = genericNames(source?.field(relation)?.options ?? {}, relation);
    const typeField = source?.field(names.type);
    const idField = source?.field(names.id);
    if (!source || !typeField || !idField) throw new FieldError(`${label} has no generic relation ${relation}`);
    return { kind: 'pointed-at', source, typeField, idField, item: ormFilter(source, attributes) };
  }

  /** Some object of model `label` matches `attributes` (true or false for every row alike). */
  exists(label: string, attributes: Record<string, unknown>): Predicate {
    const model = this.model.registry?.get(label);
    if (!model) throw new FieldError(`${label} is not a model`);
    return { kind: 'exists', model, item: ormFilter(model, attributes) };
  }

  /** Rows of this tree model that match `roots` or descend from a row that does. */
  subtreeOf(roots: Predicate): Predicate {
    return { kind: 'subtree-of', roots };
  }

  /** Every `key: value` pair holds. */
  match(attributes: Record<string, unknown>): Predicate {
    return ormFilter(this.model, attributes);
  }
  and(items: Predicate[]): Predicate {
    return and(items);
  }
  or(items: Predicate[]): Predicate {
    return or(items);
  }
  not(item: Predicate): Predicate {
    return not(item);
  }
}
