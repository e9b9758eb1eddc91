import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Predicate } from '../query/predicate';

/** Relation hops from a model to the one a filter finally tests. */
export type Step = { kind: 'fk'; field: FieldMeta } | { kind: 'reverse'; model: ModelMeta; field: FieldMeta };

/** A test on the last model of `steps`, as a test on the first: each hop a subquery. */
export function through(steps: Step[], test: Predicate): Predicate {
  let p = test;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    p = step.kind === 'fk' ? { kind: 'related', via: step.field, item: p } : { kind: 'reverse', relation: { model: step.model, field: step.field }, item: p };
  }
  return p;
}
