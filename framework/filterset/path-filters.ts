import { booleanFilterValue } from '../fields/boolean';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { PathFilterSpec } from '../metadata/types';
import { fieldTest, not, TRUE, type Predicate } from '../query/predicate';
import type { FilterDef } from './definition';
import { fieldFilters } from './field-filters';
import { reverseName } from '../query/orm';
import { isTree, relationFilter } from './related-filters';
import type { Step } from './steps';

/**
 * Filters a model declares by path (`options.filters`): `has` tests whether a relation has
 * any object; `path` names a field or an object across relations (`device.site`).
 */
export function pathFilters(model: ModelMeta, name: string, spec: PathFilterSpec): FilterDef[] {
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
    if (field?.target && (field.column || field.resolved.link)) {
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
  const descendants = spec.descendants ?? isTree(current);
  return [false, true].map((negated) =>
    relationFilter(negated ? `${name}__n` : name, steps, current, { idsOnly: spec.by === 'id', naturalKey: natural, descendants, negated, help: spec.help, path: spec.path, self: spec.self ? model : undefined }),
  );
}
