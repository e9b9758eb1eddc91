import { PreconditionFailed } from '../errors';
import { Params } from '../store/params';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { FieldOptions, Json, ModelClass, Thunk } from '../metadata/types';
import type { Registry, ResolvingKind } from '../metadata/registry';
import { objectEmitter, orderBy } from '../serializer/representation';
import type { RenderContext } from '../serializer/render-context';
import { SelectBuilder, type Id } from '../serializer/select';
import type { ApiVersion } from '../versioning/version';
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

function loader(field: FieldMeta, idIndex: number, version: ApiVersion, key: string) {
  const target = field.target as ModelMeta;
  const fk = target.field(opts(field).via) as FieldMeta;
  const cache = new Map<string, { sql: string; ownerIndex: number; emit: ReturnType<typeof objectEmitter> }>();
  return {
    key,
    idIndex,
    async load(ids: Id[], rc: RenderContext): Promise<Map<Id, Json>> {
      const dialect = rc.db.dialect;
      let compiled = cache.get(dialect.name);
      if (!compiled) {
        const sb = new SelectBuilder(target, dialect);
        const emit = objectEmitter(target, sb.root, { brief: true, nested: true, version });
        const ownerIndex = sb.root.column(fk.column as string);
        compiled = { sql: `${sb.selectFrom()} WHERE %WHERE% ORDER BY ${orderBy(target, sb.root, dialect)}`, ownerIndex, emit };
        cache.set(dialect.name, compiled);
      }
      const params = new Params(dialect);
      const q = dialect.quote;
      const where = `${q('t0')}.${q(fk.column as string)} IN (${params.list(ids)})`;
      const out = new Map<Id, Json>();
      for (const row of await rc.db.rows(compiled.sql.replace('%WHERE%', where), params.values)) {
        const owner = row[compiled.ownerIndex] as Id;
        const list = (out.get(owner) as Json[] | undefined) ?? [];
        list.push(compiled.emit(row, rc));
        out.set(owner, list);
      }
      return out;
    },
  };
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
    const key = `${scope.model.label}.${field.name}:${scope.key}`;
    const l = loader(field, scope.idIndex, mode.version, key);
    scope.addLoader(l);
    const o = opts(field);
    const legacy = o.listSince !== undefined && mode.version.lt(o.listSince);
    return (row, rc) => {
      const list = (rc.loaded.get(key)?.get(row[l.idIndex] as Id) as Json[] | undefined) ?? [];
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
