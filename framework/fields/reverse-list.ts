import { PreconditionFailed } from '../errors';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { FieldOptions, Json, ModelClass, Thunk } from '../metadata/types';
import type { Registry, ResolvingKind } from '../metadata/registry';
import { baseInfo } from './common';
import type { FieldKind } from './kind';

/**
 * The read-only other side of a foreign key, as a list of nested objects (an address's
 * `nat_outside`: the addresses whose `nat_inside` points at it). Before `listSince` the field is
 * a single object or null, and more than one object is a 412, as Nautobot's legacy serializer did.
 */
export interface ReverseListOptions extends FieldOptions {
  target: Thunk<ModelClass>;
  /** Foreign key of the target pointing at this model. */
  via: string;
  listSince?: string;
  legacyMessage?: string;
}

function opts(field: FieldMeta): ReverseListOptions {
  return field.opts<ReverseListOptions>();
}

export const reverseListKind: FieldKind & ResolvingKind = {
  name: 'reverse-list',
  nestedForm: false,
  databaseForm: 'omitted',
  decorate() {
    /* no column: the rows pointing here are read with one query per page */
  },
  resolve(field: FieldMeta, registry: Registry) {
    field.target = registry.forClass(opts(field).target());
  },
  column: () => null,
  reader(field, scope, mode) {
    if (mode.brief) return null;
    const o = opts(field);
    const via = (field.target as ModelMeta).field(o.via) as FieldMeta;
    const pointing = scope.related({ kind: 'pointing', field, via }, mode);
    const legacy = o.listSince !== undefined && mode.version.lt(o.listSince);
    return (row, rc) => {
      const list = (pointing(row, rc) as Json[] | undefined) ?? [];
      if (!legacy) return list;
      if (list.length > 1) throw new PreconditionFailed(o.legacyMessage ?? 'This object does not conform to the requested API version.');
      return list[0] ?? null;
    };
  },
  info: (field) => ({ ...baseInfo(field, 'field'), read_only: true }),
  schema(field, _mode, sc) {
    const nested = sc.nested(field.target as ModelMeta);
    const since = opts(field).listSince;
    if (since !== undefined && sc.version.lt(since)) return { allOf: [nested], nullable: true };
    return { type: 'array', items: nested };
  },
};
