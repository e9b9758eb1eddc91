import { randomUUID } from 'node:crypto';
import { JoinTable, ManyToMany as TypeormManyToMany } from 'typeorm';
import { Params } from '../store/params';
import { FieldError } from '../errors';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions, Json, ModelClass, Thunk } from '../metadata/types';
import type { LinkSpec } from '../query/predicate';
import { objectEmitter, orderBy } from '../serializer/representation';
import { flattenAttributes, resolveRelated } from '../serializer/related';
import { SelectBuilder, type Id } from '../serializer/select';
import type { WriteContext } from '../serializer/write-context';
import { baseInfo, pyRepr, pyTypeName } from './common';
import { parseId } from './foreign-key';
import { FilterValueError, type FieldKind, type FieldInfo } from './kind';
import { containsLabel } from './content-types';

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

function opts(field: FieldMeta): ManyToManyOptions {
  return field.opts<ManyToManyOptions>();
}

export function linkOf(field: FieldMeta): LinkSpec {
  return field.extra.link as LinkSpec;
}

function targetName(options: ManyToManyOptions): string {
  const cls = (options.target as Thunk<ModelClass>)();
  return ((cls as unknown as { netinvModelName?: string }).netinvModelName ?? cls.name).toLowerCase();
}

/** Loads the nested form of linked objects for a page of owners, in the target's ordering. */
function linkLoader(field: FieldMeta, ownerIdIndex: number, version: import('../versioning/version').ApiVersion, key: string) {
  const target = field.target as ModelMeta;
  const link = linkOf(field);
  const slugField = opts(field).slugField;
  const cache = new Map<string, { sql: string; ownerIndex: number; emit: (row: unknown[], rc: import('../serializer/render-context').RenderContext) => Json }>();
  return {
    key,
    idIndex: ownerIdIndex,
    async load(ids: Id[], rc: import('../serializer/render-context').RenderContext): Promise<Map<Id, Json>> {
      const dialect = rc.db.dialect;
      let compiled = cache.get(dialect.name);
      if (!compiled) {
        const sb = new SelectBuilder(target, dialect);
        const q = dialect.quote;
        let emit: (row: unknown[], rc: import('../serializer/render-context').RenderContext) => Json;
        if (slugField) {
          const slugIndex = sb.add(`${q('t0')}.${q(target.field(slugField)?.column as string)}`);
          emit = (row) => row[slugIndex] as Json;
        } else {
          emit = objectEmitter(target, sb.root, { brief: true, nested: true, version });
        }
        const ownerIndex = sb.add(`${q('lk')}.${q(link.owner)}`);
        const order = orderBy(target, sb.root, dialect);
        const from = `${q(target.table)} ${q('t0')} JOIN ${q(link.table)} ${q('lk')} ON ${q('lk')}.${q(link.target)} = ${q('t0')}.${q(target.pk.column as string)}`;
        const sql = `SELECT ${sb.exprs.join(', ')} FROM ${from}${sb.joins.length ? ' ' + sb.joins.join(' ') : ''} WHERE %WHERE% ORDER BY ${order}`;
        compiled = { sql, ownerIndex, emit };
        cache.set(dialect.name, compiled);
      }
      const params = new Params(dialect);
      const q = dialect.quote;
      let where = `${q('lk')}.${q(link.owner)} IN (${params.list(ids)})`;
      if (link.discriminator) where += ` AND ${q('lk')}.${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
      const rows = await rc.db.rows(compiled.sql.replace('%WHERE%', where), params.values);
      const out = new Map<Id, Json>();
      for (const row of rows) {
        const owner = row[compiled.ownerIndex] as Id;
        let list = out.get(owner) as Json[] | undefined;
        if (!list) out.set(owner, (list = []));
        list.push(compiled.emit(row, rc));
      }
      return out;
    },
  };
}

async function currentLinks(field: FieldMeta, ids: Id[], wc: { tx: WriteContext['tx'] }): Promise<Map<Id, Id[]>> {
  const link = linkOf(field);
  const params = new Params(wc.tx.dialect);
  const q = wc.tx.dialect.quote;
  let where = `${q(link.owner)} IN (${params.list(ids)})`;
  if (link.discriminator) where += ` AND ${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
  const rows = await wc.tx.rows(`SELECT ${q(link.owner)}, ${q(link.target)} FROM ${q(link.table)} WHERE ${where}`, params.values);
  const out = new Map<Id, Id[]>();
  for (const id of ids) out.set(id, []);
  for (const [owner, target] of rows) out.get(owner as Id)?.push(target as Id);
  return out;
}

/** Targets named by one attribute each, with DRF SlugRelatedField's messages. */
async function parseSlugs(target: ModelMeta, slugField: string, input: unknown[], wc: WriteContext): Promise<Id[]> {
  const q = wc.tx.dialect.quote;
  const column = target.field(slugField)?.column as string;
  const ids: Id[] = [];
  for (const item of input) {
    if (typeof item !== 'string' && typeof item !== 'number') throw new FieldError('Invalid value.');
    const rows = await wc.tx.rows(
      `SELECT ${q(target.pk.column as string)} FROM ${q(target.table)} WHERE ${q(column)} = ${wc.tx.dialect.placeholder(1)}`,
      [String(item)],
    );
    if (rows.length === 0) throw new FieldError(`Object with ${slugField}=${String(item)} does not exist.`);
    ids.push(rows[0][0] as Id);
  }
  return [...new Set(ids)];
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
      field.extra.link = {
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
    field.extra.link = {
      table: `${field.model.table}_${field.name}`,
      owner: `${field.model.name}_id`,
      target: `${target.name}_id`,
    } satisfies LinkSpec;
  },
  column: () => null,
  reader(field, scope, mode) {
    const key = `${scope.model.label}.${field.name}:${scope.key}`;
    const loader = linkLoader(field, scope.idIndex, mode.version, key);
    scope.addLoader(loader);
    const idIndex = loader.idIndex;
    return (row, rc) => (rc.loaded.get(key)?.get(row[idIndex] as Id) as Json[] | undefined) ?? [];
  },
  async parse(field, input, wc) {
    if (!Array.isArray(input)) throw new FieldError(`Expected a list of items but got type "${pyTypeName(input)}".`);
    const target = field.target as ModelMeta;
    const slugField = opts(field).slugField;
    if (slugField) return parseSlugs(target, slugField, input, wc);
    const ids: Id[] = [];
    for (const item of input) {
      if (opts(field).writeBy === 'nested') {
        ids.push((await resolveRelated(target, item, wc, false)) as Id);
        continue;
      }
      if (item !== null && typeof item === 'object') throw new FieldError(`Incorrect type. Expected pk value, received ${pyTypeName(item)}.`);
      const id = parseId(target, item);
      if (id === null) throw new FieldError(`Incorrect type. Expected pk value, received ${pyTypeName(item)}.`);
      const q = wc.tx.dialect.quote;
      const found = await wc.tx.rows(`SELECT 1 FROM ${q(target.table)} WHERE ${q(target.pk.column as string)} = ${wc.tx.dialect.placeholder(1)}`, [id]);
      if (found.length === 0) throw new FieldError(`Invalid pk "${String(item)}" - object does not exist.`);
      ids.push(id);
    }
    const restrict = opts(field).restrictBy;
    if (restrict && ids.length) {
      const params = new Params(wc.tx.dialect);
      const q = wc.tx.dialect.quote;
      const rows = await wc.tx.rows(
        `SELECT ${q(target.pk.column as string)} FROM ${q(target.table)} WHERE ${q(target.pk.column as string)} IN (${params.list(ids)}) AND ${containsLabel(q(restrict), field.model.label, params)}`,
        params.values,
      );
      const allowed = new Set(rows.map((r) => r[0]));
      const index = ids.findIndex((id) => !allowed.has(id));
      if (index >= 0) {
        const bad = input[index] as unknown;
        throw new FieldError(
          bad !== null && typeof bad === 'object'
            ? `Related object not found using the provided attributes: ${pyRepr(flattenAttributes(bad as Record<string, unknown>))}`
            : `Related object not found using the provided ID: ${String(bad)}`,
        );
      }
    }
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
  async loadMany(field, ids, db) {
    return (await currentLinks(field, ids, { tx: db })) as Map<Id, unknown>;
  },
  async afterWrite(field, id, value, wc, created) {
    const link = linkOf(field);
    const wanted = new Set((value as Id[] | undefined) ?? []);
    const existing = created ? [] : ((await currentLinks(field, [id], wc)).get(id) ?? []);
    const q = wc.tx.dialect.quote;
    const removed = existing.filter((t) => !wanted.has(t));
    const added = [...wanted].filter((t) => !existing.includes(t));
    if (removed.length) {
      const params = new Params(wc.tx.dialect);
      let sql = `DELETE FROM ${q(link.table)} WHERE ${q(link.owner)} = ${params.add(id)} AND ${q(link.target)} IN (${params.list(removed)})`;
      if (link.discriminator) sql += ` AND ${q(link.discriminator.column)} = ${params.add(link.discriminator.value)}`;
      await wc.tx.run(sql, params.values);
    }
    if (added.length) {
      const params = new Params(wc.tx.dialect);
      const columns = [link.owner, link.target, ...(link.discriminator ? [link.discriminator.column] : []), ...(link.idColumn ? [link.idColumn] : [])];
      const tuples = added.map((t) => {
        const values: unknown[] = [id, t];
        if (link.discriminator) values.push(link.discriminator.value);
        if (link.idColumn) values.push(randomUUID());
        return `(${params.list(values)})`;
      });
      await wc.tx.run(`INSERT INTO ${q(link.table)} (${columns.map(q).join(', ')}) VALUES ${tuples.join(', ')}`, params.values);
    }
  },
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
