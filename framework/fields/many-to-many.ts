import { JoinTable, ManyToMany as TypeormManyToMany } from 'typeorm';
import { FieldError } from '../errors';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import { DataKey } from '../metadata/request-data';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, ModelClass, Thunk } from '../metadata/types';
import type { Id } from '../query/id';
import type { LinkSpec } from '../query/link';
import { baseInfo, pyRepr, pyTypeName } from './common';
import { FilterValueError, type FieldInfo, type FieldKind, type KindWriteContext } from './kind';
import { flattenAttributes, parseId, resolveRelated } from './related-reference';

export interface ManyToManyOptions extends FieldOptions {
  /** Related model; omitted for feature fields whose provider supplies it (tags). */
  target?: Thunk<ModelClass>;
  /** A feature field (`tags`) resolved through the application that provides the feature. */
  feature?: string;
  /** `pk`: ids only (DRF PrimaryKeyRelatedField); `nested`: ids or attribute objects (tags). */
  writeBy?: 'pk' | 'nested';
  /** Targets must list the owner's model in this content-types field (tags). */
  restrictBy?: string;
  /** Name of the other side, for attribute lookups from the target (`importing_vrfs`). */
  related?: string;
  /**
   * Read and written as this attribute of the targets instead of nested objects (DRF's
   * SlugRelatedField: a config context's `tags` are tag slugs).
   */
  slugField?: string;
}

/**
 * Targets of each field already found (and allowed for the owner's model) in this write: the items
 * of a bulk create naming the same tags look each up once.
 */
const KNOWN_TARGETS = new DataKey<Map<FieldMeta, Set<Id>>>('many-to-many:known-targets');

function knownTargets(wc: KindWriteContext, field: FieldMeta): Set<Id> {
  const byField = wc.features.getOrSet(KNOWN_TARGETS, () => new Map());
  let known = byField.get(field);
  if (!known) byField.set(field, (known = new Set()));
  return known;
}

function opts(field: FieldMeta): ManyToManyOptions {
  return field.opts<ManyToManyOptions>();
}

export function linkOf(field: FieldMeta): LinkSpec {
  return field.resolved.link as LinkSpec;
}

function targetName(options: ManyToManyOptions): string {
  const cls = (options.target as Thunk<ModelClass>)();
  return ((cls as unknown as { netinvModelName?: string }).netinvModelName ?? cls.name).toLowerCase();
}

/** Targets named by one attribute each, with DRF SlugRelatedField's messages. */
async function parseSlugs(target: ModelMeta, slugField: string, input: unknown[], wc: KindWriteContext): Promise<Id[]> {
  const ids: Id[] = [];
  for (const item of input) {
    if (typeof item !== 'string' && typeof item !== 'number') throw new FieldError('Invalid value.');
    const [id] = await wc.store.ids(target, { [slugField]: String(item) }, 1);
    if (id === undefined) throw new FieldError(`Object with ${slugField}=${String(item)} does not exist.`);
    ids.push(id);
  }
  return [...new Set(ids)];
}

/** The links an update's locked read of the object found (it reads every many-to-many field). */
function storedLinks(field: FieldMeta, wc: KindWriteContext): readonly Id[] | undefined {
  const current = wc.current?.[field.name];
  return Array.isArray(current) ? (current as Id[]) : undefined;
}

export const manyToManyKind: FieldKind & ResolvingKind = {
  name: 'many-to-many',
  relation: 'many-to-many',
  decorate(proto, property, options: ManyToManyOptions) {
    if (options.target) TypeormManyToMany(options.target as () => Function)(proto, property);
  },
  define(declaration, _cls, table, modelName) {
    const options = declaration.options as ManyToManyOptions;
    if (!options.target) return;
    JoinTable({
      name: `${table}_${declaration.property}`,
      joinColumn: { name: `${modelName}_id` },
      inverseJoinColumn: { name: `${targetName(options)}_id` },
    })(_cls.prototype, declaration.property);
  },
  resolve(field: FieldMeta, registry: Registry) {
    const o = opts(field);
    if (o.feature === 'tags') {
      const provider = registry.providers.tags;
      if (!provider) return; // reported by registry validation
      const tag = registry.forClass(provider.tag());
      const through = registry.forClass(provider.through());
      field.target = tag;
      field.resolved.link = {
        table: through.table,
        owner: 'object_id',
        target: 'tag_id',
        discriminator: { column: 'content_type', value: field.model.label },
        idColumn: 'id',
      } satisfies LinkSpec;
      return;
    }
    const target = registry.forClass((o.target as Thunk<ModelClass>)());
    field.target = target;
    field.resolved.link = {
      table: `${field.model.table}_${field.name}`,
      owner: `${field.model.name}_id`,
      target: `${target.name}_id`,
    } satisfies LinkSpec;
  },
  column: () => null,
  reader(field, scope, mode) {
    const linked = scope.related({ kind: 'linked', field, slugField: opts(field).slugField }, mode);
    return (row, rc) => linked(row, rc) ?? [];
  },
  async parse(field, input, wc) {
    if (!Array.isArray(input)) throw new FieldError(`Expected a list of items but got type "${pyTypeName(input)}".`);
    const target = field.target as ModelMeta;
    const slugField = opts(field).slugField;
    if (slugField) return parseSlugs(target, slugField, input, wc);
    const known = knownTargets(wc, field);
    const ids: Id[] = [];
    for (const item of input) {
      const plain = item === null || typeof item === 'object' ? null : parseId(target, item);
      if (plain !== null && known.has(plain)) {
        ids.push(plain);
        continue;
      }
      if (opts(field).writeBy === 'nested') {
        ids.push((await resolveRelated(target, item, wc, false)) as Id);
        continue;
      }
      if (item !== null && typeof item === 'object') throw new FieldError(`Incorrect type. Expected pk value, received ${pyTypeName(item)}.`);
      const id = parseId(target, item);
      if (id === null) throw new FieldError(`Incorrect type. Expected pk value, received ${pyTypeName(item)}.`);
      if (!(await wc.store.exists(target, [id]))) throw new FieldError(`Invalid pk "${String(item)}" - object does not exist.`);
      ids.push(id);
    }
    const restrict = opts(field).restrictBy;
    const unchecked = ids.filter((id) => !known.has(id));
    if (restrict && unchecked.length) {
      const allowed = new Set(await wc.store.idsForContentType(target, target.field(restrict) as FieldMeta, unchecked, field.model.label));
      const index = ids.findIndex((id) => !known.has(id) && !allowed.has(id));
      if (index >= 0) {
        const bad = input[index] as unknown;
        throw new FieldError(
          bad !== null && typeof bad === 'object'
            ? `Related object not found using the provided attributes: ${pyRepr(flattenAttributes(bad as Record<string, unknown>))}`
            : `Related object not found using the provided ID: ${String(bad)}`,
        );
      }
    }
    for (const id of ids) known.add(id);
    return [...new Set(ids)];
  },
  defaultValue: () => [],
  schema(field, mode, sc) {
    const target = field.target as ModelMeta;
    if (opts(field).slugField) return { type: 'array', items: { type: 'string' } };
    if (mode !== 'write') return { type: 'array', items: sc.nested(target) };
    if (opts(field).writeBy === 'nested') return { type: 'array', items: sc.related(target) };
    return { type: 'array', items: target.integerPk ? { type: 'integer' } : { type: 'string', format: 'uuid' } };
  },
  linksInRow: true,
  loadMany: (field, ids, store) => store.linkedIds(field, ids),
  afterWrite: (field, id, value, wc, created) => wc.store.replaceLinks(field, id, (value as Id[] | undefined) ?? [], created, storedLinks(field, wc)),
  afterCreateMany: (field, created, wc) => wc.store.addLinks(field, created.flatMap(({ id, value }) => [...new Set((value as Id[] | undefined) ?? [])].map((target) => [id, target] as const))),
  lookups: () => ['', 'n'],
  filterValue(field, raw) {
    const id = parseId(field.target as ModelMeta, raw);
    if (id === null) throw new FilterValueError(`“${raw}” is not a valid UUID.`);
    return id;
  },
  // Every value must be linked (tags: AND semantics).
  comparison: 'links',
  info(field, ic) {
    const info: FieldInfo = baseInfo(field, 'field');
    if (opts(field).slugField) return info;
    info.child = { type: 'nested object', required: false, read_only: false, label: '', children: ic.nestedInfo(field) };
    return info;
  },
};

declare module '../metadata/model-meta' {
  interface ResolvedField {
    /** Many-to-many: where the links are kept. */
    link?: LinkSpec;
  }
}
