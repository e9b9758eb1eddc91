import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { FieldOptions, Json, ModelClass, Thunk } from '../metadata/types';
import type { Registry, ResolvingKind } from '../metadata/registry';
import { baseInfo } from './common';
import type { FieldKind, OpenApiSchema } from './kind';

/**
 * The read-only other side of a foreign key when at most one object points here under a
 * condition (a circuit's `termination_a`: its termination whose `term_side` is `A`), shown in a
 * form of its own: id, display, url and the named fields of the target, or null.
 */
export interface ReverseOneOptions extends FieldOptions {
  target: Thunk<ModelClass>;
  /** Foreign key of the target pointing at this model. */
  via: string;
  /** The target's field and the value that picks the one object. */
  where: { field: string; value: string | number | boolean };
  /** Fields of the target shown after id, display and url, in this order. */
  form: readonly string[];
}

function opts(field: FieldMeta): ReverseOneOptions {
  return field.opts<ReverseOneOptions>();
}

export const reverseOneKind: FieldKind & ResolvingKind = {
  name: 'reverse-one',
  nestedForm: false,
  databaseForm: 'omitted',
  decorate() {
    /* no column: the object pointing here is read with one query per page */
  },
  resolve(field: FieldMeta, registry: Registry) {
    const o = opts(field);
    const target = registry.forClass(o.target());
    field.target = target;
    for (const name of [o.via, o.where.field, ...o.form]) {
      if (!target.field(name)) throw new Error(`${field.model.label}.${field.name}: ${target.label} has no field ${name}`);
    }
  },
  column: () => null,
  reader(field, scope, mode) {
    if (mode.brief) return null;
    const o = opts(field);
    const target = field.target as ModelMeta;
    const via = target.field(o.via) as FieldMeta;
    const where = { field: target.field(o.where.field) as FieldMeta, value: o.where.value };
    const pointing = scope.related({ kind: 'pointing', field, via, where, form: o.form }, mode);
    return (row, rc) => {
      const list = (pointing(row, rc) as Json[] | undefined) ?? [];
      return list[0] ?? null;
    };
  },
  info: (field) => ({ ...baseInfo(field, 'field'), read_only: true }),
  schema(field, _mode, sc) {
    const target = field.target as ModelMeta;
    const properties: Record<string, OpenApiSchema> = {
      id: { type: 'string', format: 'uuid', readOnly: true },
      display: { type: 'string', readOnly: true },
      url: { type: 'string', format: 'uri', readOnly: true },
    };
    for (const name of opts(field).form) {
      const f = target.field(name) as FieldMeta;
      properties[name] = f.kind.schema ? f.kind.schema(f, 'read', sc) : {};
    }
    return { type: 'object', nullable: true, readOnly: true, properties };
  },
};
