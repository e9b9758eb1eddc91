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

/** ORDER BY of a model's default ordering at a scope, ending with the primary key. */
export function orderBy(model: ModelMeta, scope: SelectScope, dialect: Dialect): string {
  return orderTerms(model.options.ordering ?? [], model, scope, dialect).join(', ');
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
  return { column: parent.column, withoutParent: orderTerms(rest, model, scope, dialect).join(', ') };
}

function orderTerms(ordering: readonly string[], model: ModelMeta, scope: SelectScope, dialect: Dialect): string[] {
  const terms: string[] = [];
  for (const entry of ordering) {
    const desc = entry.startsWith('-');
    const { scope: s, field } = resolvePath(scope, desc ? entry.slice(1) : entry);
    const column = field.column;
    if (!column) continue;
    const ref = s.ref(column);
    const nullable = field.nullable || s !== scope;
    if (nullable) terms.push(`CASE WHEN ${ref} IS NULL THEN 0 ELSE 1 END${desc ? ' DESC' : ''}`);
    const own = field.kind.orderColumns?.(field);
    if (own) {
      for (const c of own) terms.push(`${c.text ? dialect.orderText(s.ref(c.column)) : s.ref(c.column)}${desc ? ' DESC' : ''}`);
      continue;
    }
    const expr = field.kind.textual ? dialect.orderText(ref) : ref;
    terms.push(`${expr}${desc ? ' DESC' : ''}`);
  }
  terms.push(scope.ref(model.pk.column as string));
  return terms;
}
