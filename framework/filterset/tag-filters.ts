import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import { and, fieldTest, not } from '../query/predicate';
import type { FilterDef } from './definition';
import { resolveIds } from './related-filters';

/** `tag` and `tag__n`: tag slugs; repeated, objects carrying every tag (or none of them). */
export function tagFilters(field: FieldMeta): FilterDef[] {
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
