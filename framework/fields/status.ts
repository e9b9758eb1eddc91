import { DataKey } from '../metadata/request-data';
import { Index, JoinColumn, ManyToOne } from 'typeorm';
import { FieldError, ValidationError } from '../errors';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, ModelClass, Thunk, Values } from '../metadata/types';
import type { Id } from '../query/id';
import { baseInfo, pyRepr } from './common';
import type { FieldKind, KindWriteContext } from './kind';

export interface StatusOptions extends FieldOptions {
  target: Thunk<ModelClass>;
  /** Slug of the status a create gets when none was sent and the field is not writable (older API versions). */
  defaultSlug?: string;
}

function statusModel(field: FieldMeta): ModelMeta {
  return field.target as ModelMeta;
}

/**
 * extras.Status as a field: `{value: slug, label: name}` on read, the slug (any case) on write,
 * limited to statuses whose content types include the model.
 */
export const statusKind: FieldKind & ResolvingKind = {
  name: 'status',
  relation: 'foreign-key',
  naturalFilterKey: 'slug',
  decorate(proto, property, options: StatusOptions) {
    ManyToOne(options.target as () => Function, { nullable: options.nullable ?? false, onDelete: 'NO ACTION', onUpdate: 'NO ACTION' })(proto, property);
    JoinColumn({ name: options.column ?? `${property}_id` })(proto, property);
    Index()(proto, property);
  },
  resolve(field: FieldMeta, registry: Registry) {
    field.target = registry.forClass(field.opts<StatusOptions>().target());
  },
  column: (field) => field.options.column ?? `${field.name}_id`,
  reader(field, scope) {
    const s = scope.join(field);
    const slug = s.column('slug');
    const name = s.column('name');
    return (row) => (row[slug] === null || row[slug] === undefined ? null : { value: row[slug] as string, label: row[name] as string });
  },
  async parse(field, input, wc) {
    if (input === null) {
      if (field.nullable) return null;
      throw new FieldError('This field may not be null.');
    }
    const slug = typeof input === 'string' ? input.toLowerCase() : pyRepr(input);
    const id = await cachedStatusFor(field, slug, wc);
    if (id === null) throw new FieldError(`Object with slug=${slug} does not exist.`);
    return id;
  },
  // Not async: only a create that leaves the status out has anything to do.
  prepare(field, values, wc) {
    const slug = field.opts<StatusOptions>().defaultSlug;
    if (!slug || !wc.creating || values[field.name] !== undefined) return;
    return setDefaultStatus(field, slug, values, wc);
  },
  load: (field, row) => (row[field.column as string] ?? null) as string | null,
  storeColumn: (_field, value) => value,
  lookups: () => ['', 'n'],
  comparison: 'identity',
  info: (field) => baseInfo(field, 'field'),
  // Statuses valid for the field's model, ordered by name.
  loadChoices: (field, store) => store.statusesFor(statusModel(field), field.model.label),
  schema: (_field, mode) =>
    mode === 'write'
      ? { type: 'string', description: 'Status slug' }
      : { type: 'object', properties: { value: { type: 'string' }, label: { type: 'string' } } },
};

async function setDefaultStatus(field: FieldMeta, slug: string, values: Values, wc: KindWriteContext): Promise<void> {
  const id = await cachedStatusFor(field, slug, wc);
  if (id === null) throw new ValidationError({ [field.name]: [`Default status '${slug}' does not exist`] });
  values[field.name] = id;
}

/** Status ids by `<model label>:<slug>`, for the rest of the request. */
const STATUS_IDS = new DataKey<Map<string, Id>>('status-ids');

/**
 * The status with this slug enabled for the field's model, remembered for the rest of the request:
 * a bulk create of a thousand objects with the same status looks it up once.
 */
async function cachedStatusFor(field: FieldMeta, slug: string, wc: KindWriteContext): Promise<Id | null> {
  const known = wc.features.getOrSet(STATUS_IDS, () => new Map());
  const key = `${field.model.label}:${slug}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const id = await wc.store.statusFor(statusModel(field), slug, field.model.label);
  if (id !== null) known.set(key, id);
  return id;
}
