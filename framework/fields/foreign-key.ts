import { Index, JoinColumn, ManyToOne } from 'typeorm';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, ModelClass, Thunk } from '../metadata/types';
import { FieldError } from '../errors';
import { baseInfo } from './common';
import type { FieldKind, FieldInfo } from './kind';
import { FilterValueError } from './kind';
import { parseId, resolveRelated } from './related-reference';

export { parseId };

export type OnDelete = 'cascade' | 'protect' | 'set_null';

export interface ForeignKeyOptions extends FieldOptions {
  target: Thunk<ModelClass>;
  onDelete: OnDelete;
  /** Name of the reverse filter on the target (`sites` on regions); none when omitted. */
  related?: string;
  /** Filter `<name>` accepts this attribute of the target besides its id (default: its natural key). */
  naturalKey?: string | false;
  /** `<name>_id` filter (on by default). */
  idFilter?: boolean;
  /** Tree targets: `<name>` filters include descendants. */
  descendants?: boolean;
  /** The model's brief form shows this relation as the bare id, not the nested object. */
  briefAsId?: boolean;
  /** Every form shows (and the schema describes) this relation as the bare id (an inventory item's `parent`, a job log's `job_result`). */
  asId?: boolean;
  /** The `<name>` filter (natural key or id); off leaves only `<name>_id`. */
  naturalFilter?: boolean;
  /**
   * Only targets matching these attributes may be chosen (Django's limit_choices_to), e.g.
   * `{ vm_role: true }`; another target is refused as if it did not exist.
   */
  limit?: Record<string, unknown>;
}

export function fkOptions(field: FieldMeta): ForeignKeyOptions {
  return field.opts<ForeignKeyOptions>();
}

/** The target's natural key for `<fk>=<value>` filters: slug where there is one, else name. */
export function naturalKeyOf(field: FieldMeta): string | null {
  const o = fkOptions(field);
  if (o.naturalKey === false) return null;
  if (o.naturalKey) return o.naturalKey;
  const target = field.target as ModelMeta;
  const declared = (target.options as { naturalKey?: string }).naturalKey;
  if (declared) return declared;
  if (target.field('slug')) return 'slug';
  if (target.field('name')) return 'name';
  return null;
}


export const foreignKeyKind: FieldKind & ResolvingKind = {
  name: 'foreign-key',
  relation: 'foreign-key',
  decorate(proto, property, options: ForeignKeyOptions) {
    ManyToOne(options.target as () => Function, {
      nullable: options.nullable ?? false,
      onDelete: 'NO ACTION',
      onUpdate: 'NO ACTION',
    })(proto, property);
    JoinColumn({ name: options.column ?? `${property}_id` })(proto, property);
    Index()(proto, property);
  },
  resolve(field: FieldMeta, registry: Registry) {
    field.target = registry.forClass(fkOptions(field).target());
  },
  column: (field) => field.options.column ?? `${field.name}_id`,
  reader(field, scope, mode) {
    if (fkOptions(field).asId || (mode.brief && fkOptions(field).briefAsId)) {
      const i = scope.column(field.column as string);
      return (row) => (row[i] ?? null) as string | null;
    }
    const child = scope.join(field);
    const idIndex = child.idIndex;
    const inner = child.nested({ brief: true, nested: true, version: mode.version });
    return (row, rc) => (row[idIndex] === null || row[idIndex] === undefined ? null : inner(row, rc));
  },
  async parse(field, input, wc) {
    const target = field.target as ModelMeta;
    const id = await resolveRelated(target, input, wc, field.nullable);
    const limit = fkOptions(field).limit;
    if (id !== null && limit) {
      const [match] = await wc.store.ids(target, { ...limit, [target.pk.name]: id }, 1);
      if (match === undefined) {
        // Django's message for a choice outside limit_choices_to, the id in Python's repr.
        throw new FieldError(`${target.verboseName} instance with id ${target.integerPk ? id : `UUID('${id}')`} does not exist.`);
      }
    }
    return id;
  },
  load: (field, row) => (row[field.column as string] ?? null) as string | null,
  storeColumn: (_field, value) => value,
  lookups: () => ['', 'n'],
  filterValue(field, raw) {
    const id = parseId(field.target as ModelMeta, raw);
    if (id === null) throw new FilterValueError(`“${raw}” is not a valid UUID.`);
    return id;
  },
  comparison: 'identity',
  info(field, ic) {
    if (fkOptions(field).asId) return baseInfo(field, 'field');
    const info: FieldInfo = baseInfo(field, 'nested object');
    info.children = ic.nestedInfo(field);
    return info;
  },
  schema(field, mode, sc) {
    if (fkOptions(field).asId) return { type: 'string', format: 'uuid', ...(field.nullable ? { nullable: true } : {}) };
    const target = field.target as ModelMeta;
    const value = mode === 'write' ? sc.related(target) : sc.nested(target);
    // A $ref takes no sibling keywords in OpenAPI 3.0, so nullability wraps it.
    return field.nullable ? { allOf: [value], nullable: true } : value;
  },
};
