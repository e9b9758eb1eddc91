import type { FieldMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, ModelClass, Thunk } from '../metadata/types';
import type { ReadScope } from './kind';
import { baseInfo } from './common';
import type { FieldInfo, FieldKind } from './kind';

export interface RelatedViaOptions extends FieldOptions {
  target: Thunk<ModelClass>;
  /** Foreign keys from this model to the object, joined by dots (`cluster.site`). */
  path: string;
}

/** The scope of the object at the end of the path; every hop is a join of the page's query. */
function joinPath(field: FieldMeta, scope: ReadScope): ReadScope {
  let s = scope;
  for (const name of field.opts<RelatedViaOptions>().path.split('.')) {
    const hop = s.model.field(name);
    if (!hop?.target || !hop.column) throw new Error(`${field.model.label}.${field.name}: ${name} is not a foreign key of ${s.model.label}`);
    s = s.join(hop);
  }
  if (s.model !== field.target) throw new Error(`${field.model.label}.${field.name}: the path ends at ${s.model.label}`);
  return s;
}

/**
 * A read-only object that belongs to a related object (a VM's `site` is its cluster's site):
 * rendered in the target's nested form, or null when any hop is empty. It has no column and no
 * filter; filters on the path are declared as path filters.
 */
export const relatedViaKind: FieldKind & ResolvingKind = {
  name: 'related-via',
  databaseForm: 'omitted',
  decorate() {
    /* no column */
  },
  resolve(field: FieldMeta, registry: Registry) {
    field.target = registry.forClass(field.opts<RelatedViaOptions>().target());
  },
  column: () => null,
  reader(field, scope, mode) {
    const end = joinPath(field, scope);
    const idIndex = end.idIndex;
    const inner = end.nested({ brief: true, nested: true, version: mode.version });
    return (row, rc) => (row[idIndex] === null || row[idIndex] === undefined ? null : inner(row, rc));
  },
  info(field, ic) {
    const info: FieldInfo = baseInfo(field, 'nested object');
    info.children = ic.nestedInfo(field);
    return info;
  },
  schema: () => ({ type: 'object', nullable: true, readOnly: true }),
};
