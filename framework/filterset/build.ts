import type { ModelMeta } from '../metadata/model-meta';
import type { FilterDef } from './definition';
import { fieldFilters } from './field-filters';
import { namedFilters } from './named-filters';
import { pathFilters } from './path-filters';
import { foreignKeyFilters, manyToManyFilters } from './related-filters';
import { searchFilter } from './search';
import { tagFilters } from './tag-filters';

/**
 * Every filter of a model, by parameter name, from its metadata: generated from its fields, `q`,
 * the path filters it declares, then its named (@Filter) filters, which win over generated ones.
 */
export function buildFilters(model: ModelMeta): Map<string, FilterDef> {
  const filters = new Map<string, FilterDef>();
  const add = (def: FilterDef) => {
    if (!filters.has(def.name)) filters.set(def.name, def);
  };
  for (const field of model.fields) {
    if (field.options.lookups === false || (field.hidden && !field.options.filterable)) continue;
    const relation = field.kind.relation;
    if (relation === 'many-to-many' && (field.options as { feature?: string }).feature === 'tags') tagFilters(field).forEach(add);
    else if (field.target && field.column && relation === 'foreign-key') foreignKeyFilters(field).forEach(add);
    else if (relation === 'many-to-many' && field.target && field.options.filterName) manyToManyFilters(field).forEach(add);
    else if (field.column && field.kind.lookups) fieldFilters(field).forEach(add);
  }
  add(searchFilter(model));
  for (const [name, spec] of Object.entries(model.options.filters ?? {})) pathFilters(model, name, spec).forEach(add);
  namedFilters(model).forEach((def) => filters.set(def.name, def));
  return filters;
}
