import { FieldError } from '../errors';
import type { ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { ormFilter } from '../query/orm';
import { and, type Predicate } from '../query/predicate';
import { pyRepr } from './common';
import { canonicalUuid } from './uuid';
import type { KindStore } from './kind';

/** An id of `target` from client text: an integer for integer-keyed models, else a UUID; null when it is not one. */
/** Largest value of a 32-bit integer column. */
export const INT32_MAX = 2 ** 31 - 1;

export function parseId(target: ModelMeta, raw: unknown): Id | null {
  if (target.integerPk) {
    const t = String(raw).trim();
    // An id beyond the 32-bit key column names no object (PostgreSQL would refuse to compare it).
    return /^\d+$/.test(t) && Number(t) <= INT32_MAX ? Number(t) : null;
  }
  return canonicalUuid(raw);
}

/** Read-only keys of a nested representation, dropped so a GET result can be sent back. */
const COMPUTED_KEYS = new Set(['url', 'display']);

/** `{"site": {"name": "A"}}` → `{site__name: "A"}`, as Nautobot turns attribute objects into filters. */
export function flattenAttributes(input: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (COMPUTED_KEYS.has(key)) continue;
    const name = prefix ? `${prefix}__${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      Object.assign(out, flattenAttributes(value as Record<string, unknown>, name));
    } else {
      out[name] = value;
    }
  }
  return out;
}

/** Where a related object is looked up: the transaction's store and, for API writes, what the writer may view. */
export interface RelatedLookup {
  readonly store: KindStore;
  /**
   * The objects of a model the writer may view; attribute objects match only among them (a hidden
   * object reads as no match). Absent: every object (server-side writes).
   */
  readonly viewable?: (model: ModelMeta) => Promise<Predicate>;
}

/**
 * A related object written as its id or as an attribute object that must match exactly one row
 * (Nautobot's WritableNestedSerializer). An attribute object names the target's own fields (and
 * through its foreign keys theirs, never reverse relations) and matches only objects the writer
 * may view, unlike Nautobot 1.x, where any filter over any object answered; an id is checked
 * for existence only, as in Nautobot.
 */
export async function resolveRelated(target: ModelMeta, input: unknown, wc: RelatedLookup, nullable: boolean): Promise<Id | null> {
  if (input === null || input === undefined) {
    if (nullable) return null;
    throw new FieldError('This field may not be null.');
  }
  if (typeof input === 'string' || typeof input === 'number') {
    const id = parseId(target, input);
    if (id === null) {
      throw new FieldError(
        `Related objects must be referenced by ID or by dictionary of attributes. Received an unrecognized value: ${String(input)}`,
      );
    }
    if (!(await wc.store.exists(target, [id]))) throw new FieldError(`Related object not found using the provided ID: ${String(input)}`);
    return id;
  }
  if (typeof input === 'object' && !Array.isArray(input)) {
    const attributes = flattenAttributes(input as Record<string, unknown>);
    const match = ormFilter(target, attributes, 'own');
    const ids = await wc.store.ids(target, wc.viewable ? and([await wc.viewable(target), match]) : match, 2);
    if (ids.length === 0) throw new FieldError(`Related object not found using the provided attributes: ${pyRepr(attributes)}`);
    if (ids.length > 1) throw new FieldError(`Multiple objects match the provided attributes: ${pyRepr(attributes)}`);
    return ids[0];
  }
  throw new FieldError(
    `Related objects must be referenced by ID or by dictionary of attributes. Received an unrecognized value: ${pyRepr(input)}`,
  );
}
