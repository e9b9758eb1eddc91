import type { FieldMeta, ModelMeta, ReverseRelation } from '../metadata/model-meta';
import type { JsonKeyTest } from './json-key';
import type { Id } from './id';

/**
 * A filter as data, with no SQL in it (framework/store/compile-predicate.ts compiles it): REST query parameters, attribute dictionaries of related objects and
 * permission constraints all become one of these trees, compiled by one compiler.
 */
export type Predicate =
  | { kind: 'and'; items: Predicate[] }
  | { kind: 'or'; items: Predicate[] }
  | { kind: 'not'; item: Predicate }
  | { kind: 'field'; field: FieldMeta; lookup: string; values: unknown[] }
  | { kind: 'related'; via: FieldMeta; item: Predicate }
  | { kind: 'reverse'; relation: ReverseRelation; item: Predicate }
  | { kind: 'reverse-link'; relation: ReverseRelation; item: Predicate }
  /** A generic relation (`assigned_object`) pointing at an object of `target` matching `item`. */
  | { kind: 'generic'; typeField: FieldMeta; idField: FieldMeta; target: ModelMeta; item: Predicate }
  /** The other way round: an object of `source` matching `item` points at this one through its generic relation. */
  | { kind: 'pointed-at'; source: ModelMeta; typeField: FieldMeta; idField: FieldMeta; item: Predicate }
  /** Some object of `model` matches `item`, whatever the row (a filter naming another object). */
  | { kind: 'exists'; model: ModelMeta; item: Predicate }
  /** `field` (a foreign key to a tree model) names one of the `ids` or a descendant of one. */
  | { kind: 'in-subtree'; field: FieldMeta; ids: Id[] }
  /** The row (of a tree model) is one of the rows matching `roots`, or a descendant of one. */
  | { kind: 'subtree-of'; roots: Predicate }
  | JsonKeyTest
  | { kind: 'const'; value: boolean };

export const TRUE: Predicate = { kind: 'const', value: true };
export const FALSE: Predicate = { kind: 'const', value: false };

export function and(items: Predicate[]): Predicate {
  const flat = items.filter((p) => !(p.kind === 'const' && p.value));
  if (flat.some((p) => p.kind === 'const' && !p.value)) return FALSE;
  if (flat.length === 0) return TRUE;
  return flat.length === 1 ? flat[0] : { kind: 'and', items: flat };
}

export function or(items: Predicate[]): Predicate {
  const flat = items.filter((p) => !(p.kind === 'const' && !p.value));
  if (flat.some((p) => p.kind === 'const' && p.value)) return TRUE;
  if (flat.length === 0) return FALSE;
  return flat.length === 1 ? flat[0] : { kind: 'or', items: flat };
}

/** Exclusion as Django does it: rows where the positive test is NULL (empty relation) stay. */
export function not(item: Predicate): Predicate {
  if (item.kind === 'const') return { kind: 'const', value: !item.value };
  return { kind: 'not', item };
}

export function fieldTest(field: FieldMeta, lookup: string, values: unknown[]): Predicate {
  return { kind: 'field', field, lookup, values };
}

const PREDICATE_KINDS = new Set(['and', 'or', 'not', 'field', 'related', 'reverse', 'reverse-link', 'generic', 'pointed-at', 'exists', 'in-subtree', 'subtree-of', 'json-key', 'const']);

/**
 * Whether a selection (a predicate, an attribute dictionary or a list of ids) is a predicate:
 * told from attribute dictionaries by its `kind` and by holding no other plain values.
 */
export function isPredicate(where: unknown): where is Predicate {
  if (where === null || typeof where !== 'object' || Array.isArray(where)) return false;
  const kind = (where as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !PREDICATE_KINDS.has(kind)) return false;
  if (kind === 'const') return typeof (where as { value?: unknown }).value === 'boolean';
  return Object.values(where).some((v) => v !== null && typeof v === 'object');
}

export type { LinkSpec } from './link';
