import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Dialect } from './dialect/types';
import type { SelectScope } from './select';

/** The ORDER BY of representations: a model's declared ordering as terms of one SELECT. */

/** Resolves a dotted path (`device_type.manufacturer.name`) to its scope and field. */
export function resolvePath(scope: SelectScope, path: string): { scope: SelectScope; field: FieldMeta } {
  const parts = path.split('.');
  let s = scope;
  for (const [i, part] of parts.entries()) {
    const field = s.model.field(part);
    if (!field) throw new Error(`${s.model.label} has no field ${part}`);
    if (i === parts.length - 1) return { scope: s, field };
    s = s.join(field);
  }
  throw new Error(`empty path`);
}

/**
 * One term of an ORDER BY: an expression that is never NULL where it decides (a nullable field's
 * term follows a term ordering its NULLs), and its direction. A list reads on from its last row
 * by comparing these (see keyset.ts).
 */
export interface OrderKey {
  expr: string;
  desc: boolean;
}

/** ORDER BY text of order keys. */
export function orderText(keys: readonly OrderKey[]): string {
  return keys.map((k) => (k.desc ? `${k.expr} DESC` : k.expr)).join(', ');
}

/** The order keys of a model's default ordering at a scope, ending with the primary key. */
export function orderKeys(model: ModelMeta, scope: SelectScope, dialect: Dialect): OrderKey[] {
  return orderTerms(model.options.ordering ?? [], model, scope, dialect);
}

/** ORDER BY of a model's default ordering at a scope, ending with the primary key. */
export function orderBy(model: ModelMeta, scope: SelectScope, dialect: Dialect): string {
  return orderText(orderKeys(model, scope, dialect));
}

/**
 * An ordering led by a field of an optional parent (prefixes: `vrf.name`, then `prefix`): rows
 * without the parent come first, ordered by the remaining terms alone, which an index of the
 * model's own columns can serve; only the rows with a parent need the join to sort.
 */
export interface ParentFirstOrder {
  /** The foreign key column of the optional parent, on the model's own table (alias t0). */
  column: string;
  /** ORDER BY of the rows without the parent: the remaining terms and the primary key. */
  withoutParent: string;
  withoutParentKeys: OrderKey[];
}

export function parentFirstOrder(model: ModelMeta, scope: SelectScope, dialect: Dialect): ParentFirstOrder | null {
  const [first, ...rest] = model.options.ordering ?? [];
  if (!first || first.startsWith('-') || first.split('.').length !== 2) return null;
  const parent = model.field(first.split('.')[0]);
  if (!parent?.column || parent.kind.relation !== 'foreign-key') return null;
  const { field } = resolvePath(scope, first);
  // The parent's field must be set whenever the parent is: then NULL means "no parent".
  if (field.nullable) return null;
  for (const entry of rest) {
    if (entry.replace(/^-/, '').includes('.')) return null;
  }
  const withoutParentKeys = orderTerms(rest, model, scope, dialect);
  return { column: parent.column, withoutParent: orderText(withoutParentKeys), withoutParentKeys };
}

function orderTerms(ordering: readonly string[], model: ModelMeta, scope: SelectScope, dialect: Dialect): OrderKey[] {
  const terms: OrderKey[] = [];
  for (const entry of ordering) {
    const desc = entry.startsWith('-');
    const { scope: s, field } = resolvePath(scope, desc ? entry.slice(1) : entry);
    const column = field.column;
    if (!column) continue;
    const ref = s.ref(column);
    const nullable = field.nullable || s !== scope;
    if (nullable) terms.push({ expr: `CASE WHEN ${ref} IS NULL THEN 0 ELSE 1 END`, desc });
    const own = field.kind.orderColumns?.(field);
    if (own) {
      for (const c of own) terms.push({ expr: c.text ? dialect.orderText(s.ref(c.column)) : s.ref(c.column), desc });
      continue;
    }
    terms.push({ expr: field.kind.textual ? dialect.orderText(ref) : ref, desc });
  }
  terms.push({ expr: scope.ref(model.pk.column as string), desc: false });
  return terms;
}
