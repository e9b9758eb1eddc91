import { FieldError, ValidationError } from '../errors';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { FieldOptions, Values } from '../metadata/types';
import type { Registry, ResolvingKind } from '../metadata/registry';
import { applyColumn, baseInfo, rejectNull, textReader } from './common';
import { parseId } from './related-reference';
import { canonicalUuid } from './uuid';
import { genericNames } from './generic-names';

export { genericNames };
import { and, fieldTest } from '../query/predicate';
import type { Id } from '../query/id';
import { FilterValueError, type FieldKind, type KindWriteContext } from './kind';

/**
 * A generic relation (`assigned_object`): `<name>_type` holds the target's label, `<name>_id`
 * its id, and `<name>` shows the target's nested form, read-only. The two columns are written
 * together; the registry checks that the pair names an existing object of an allowed type.
 */
export interface GenericForeignKeyOptions extends FieldOptions {
  /**
   * Allowed target labels, e.g. `['dcim.interface', 'virtualization.vminterface']`; `['*']`
   * allows every model with an endpoint (notes attach to any object).
   */
  types: string[];
  /** Instead of `types`: every model taking part in this feature (`changelog`). */
  forFeature?: string;
  /** The relation's name: the fields are `<name>`, `<name>_type`, `<name>_id`. */
  relation: string;
  /**
   * The error for a pair naming no object, when the model words it differently from the
   * serializer's default: under `<name>` (`on: 'relation'`) or `<name>_id`, with `{type}` and
   * `{id}` replaced (a cable's `Invalid ID for type {type}`).
   */
  notFound?: { on: 'relation' | 'id' | 'model'; message: string };
  /** Names of the two stored fields when not `<name>_type` and `<name>_id` (an image attachment's `content_type`, `object_id`). */
  typeField?: string;
  idField?: string;
  /** `cascade`: deleting the target deletes the objects pointing at it (Django's GenericRelation); default: they stay. */
  onDelete?: 'cascade';
  /** The target must be an object the writer may view: a hidden one reads as missing (an image attachment's parent). */
  visibleOnly?: boolean;
}


function opts(field: FieldMeta): GenericForeignKeyOptions {
  return field.opts<GenericForeignKeyOptions>();
}

/** Allowed target labels: declared, or those of the feature once the registry resolved them. */
function typesOf(field: FieldMeta): string[] {
  return (field.resolved.types as string[] | undefined) ?? opts(field).types;
}

/** Models a generic relation may point at: resolved on its `<name>_type` field (the object field reads them there). */
function targetsOf(field: FieldMeta): ModelMeta[] {
  const relation = (field.options as { relation?: string }).relation;
  const holder = relation ? (field.model.field(genericNames(field.options).type) ?? field) : field;
  return (holder.resolved.targets as ModelMeta[] | undefined) ?? [];
}

/** The labels a `<name>_type` field accepts, once resolved. */

/** `<name>_type`: a content-type label or null. */
export const genericTypeKind: FieldKind & ResolvingKind = {
  name: 'generic-type',
  textual: true,
  decorate(proto, property, options: GenericForeignKeyOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'varchar', length: 100, nullable: true });
  },
  resolve(field: FieldMeta, registry: Registry) {
    const o = opts(field);
    // Every model with a feature (change records), every routed model (`'*'`, notes), or a list.
    if (o.forFeature) field.resolved.types = registry.labelsWith(o.forFeature);
    else if (o.types.includes('*')) {
      field.resolved.types = registry.models.filter((m) => m.path && !m.integerPk).map((m) => m.label).sort();
    }
    field.resolved.targets = typesOf(field).map((label) => {
      const model = registry.models.find((m) => m.label === label);
      if (!model) throw new Error(`${field.model.label}.${field.name}: unknown generic target ${label}`);
      return model;
    });
  },
  column: (field) => field.options.column ?? field.name,
  reader: textReader,
  parse(field, input) {
    if (rejectNull(field, input) || input === '') return null;
    if (typeof input !== 'string') throw new FieldError('Invalid value. Specify a content type as \'<app_label>.<model_name>\'.');
    if (!/^[a-z0-9_]+\.[a-z0-9_]+$/.test(input)) throw new FieldError('Invalid value. Specify a content type as \'<app_label>.<model_name>\'.');
    if (!typesOf(field).includes(input)) throw new FieldError(`Invalid content type: ${input}`);
    return input;
  },
  load: (field, row) => (row[field.column as string] ?? null) as string | null,
  storeColumn: (_field, value) => value,
  defaultValue: () => null,
  lookups: () => ['', 'n'],
  filterChoices: (field) => [...typesOf(field)],
  filterValue(field, raw) {
    if (!typesOf(field).includes(raw)) throw new FilterValueError(`Select a valid choice. ${raw} is not one of the available choices.`);
    return raw;
  },
  comparison: 'identity',
  info(field) {
    const info = baseInfo(field, 'field');
    info.choices = typesOf(field).map((label) => ({ value: label, display: label.replace('.', ' | ') }));
    return info;
  },
  schema: () => ({ type: 'string', nullable: true }),
};

/** `<name>_id`: the target's UUID or null. */
export const genericIdKind: FieldKind = {
  name: 'generic-id',
  filterType: 'uuid',
  decorate(proto, property, options: FieldOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'uuid', nullable: true });
  },
  column: (field) => field.options.column ?? field.name,
  reader: textReader,
  parse(field, input) {
    if (rejectNull(field, input) || input === '') return null;
    const id = typeof input === 'string' ? canonicalUuid(input) : null;
    if (!id) throw new FieldError('Must be a valid UUID.');
    return id;
  },
  load: (field, row) => (row[field.column as string] ?? null) as string | null,
  storeColumn: (_field, value) => value,
  defaultValue: () => null,
  lookups: () => ['', 'n'],
  filterValue(_field, raw) {
    const id = canonicalUuid(raw);
    // A plain UUID filter in Nautobot (not a related-object one): django's UUIDField message.
    if (!id) throw new FilterValueError('Enter a valid UUID.');
    return id;
  },
  comparison: 'identity',
  info: (field) => baseInfo(field, 'string'),
  schema: () => ({ type: 'string', format: 'uuid', nullable: true }),
};

/** `<name>`: the target object in nested form, or null. */
export const genericObjectKind: FieldKind = {
  name: 'generic-object',
  relation: 'generic',
  nestedForm: false,
  databaseForm: 'omitted',
  decorate() {
    /* no column: shown from the two stored ones */
  },
  column: () => null,
  reader(field, scope, mode) {
    // Only a model's own brief form (a note's) carries the target; nested forms never do.
    if (mode.brief && mode.nested) return null;
    const names = genericNames(opts(field));
    const target = scope.related({ kind: 'generic', field, targets: targetsOf(field), idColumn: field.model.field(names.id)?.column as string, typeColumn: field.model.field(names.type)?.column as string }, mode);
    return (row, rc) => target(row, rc) ?? null;
  },
  validate: (field, values, wc) => checkGenericPair(field, values, wc),
  info: (field) => ({ ...baseInfo(field, 'field'), read_only: true }),
  schema: () => ({ type: 'object', nullable: true, readOnly: true }),
};

/** The pair is written together and names an existing object of an allowed type. */
async function checkGenericPair(field: FieldMeta, values: Values, wc: KindWriteContext): Promise<void> {
  const relation = opts(field).relation;
  const names = genericNames(opts(field));
  const type = values[names.type] ?? null;
  const id = values[names.id] ?? null;
  if (field.required && (type === null || id === null)) {
    const missing = [names.type, names.id].filter((name) => (values[name] ?? null) === null);
    throw new ValidationError(Object.fromEntries(missing.map((name) => [name, ['This field may not be null.']])));
  }
  if ((type === null) !== (id === null)) {
    throw ValidationError.model(`${names.type} and ${names.id} must either both be null or both be non-null`);
  }
  if (type === null) return;
  const target = targetsOf(field.model.field(names.type) as FieldMeta).find((m) => m.label === type);
  const parsed = target ? parseId(target, id) : null;
  const where = target && parsed !== null && opts(field).visibleOnly && wc.viewable ? and([await wc.viewable(target), fieldTest(target.pk, 'exact', [parsed])]) : [parsed as Id];
  if (!target || parsed === null || !(await wc.store.exists(target, where))) {
    const notFound = opts(field).notFound;
    if (notFound) {
      const typeText = String(type).replace('.', ' | ');
      const message = notFound.message.replace('{type}', String(type)).replace('{type_text}', typeText).replace('{id}', String(id));
      if (notFound.on === 'model') throw ValidationError.nonField(message);
      throw ValidationError.field(notFound.on === 'relation' ? relation : names.id, message);
    }
    throw ValidationError.field(names.id, `Related object not found using the provided ID: ${String(id)}`);
  }
}

declare module '../metadata/model-meta' {
  interface ResolvedField {
    /** Generic relations: the labels a `<name>_type` field accepts and their models. */
    types?: string[];
    targets?: ModelMeta[];
  }
}
