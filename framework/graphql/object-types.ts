import {
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
} from 'graphql';
import type { FeatureGraphQLField } from '../features/registry';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { Id } from '../query/id';
import { fieldTest, TRUE } from '../query/predicate';
import { representedFields } from '../serializer/representation';
import { LATEST_VERSION } from '../versioning/version';
import { argumentPredicate, filterArguments, windowOf } from './arguments';
import { isGraphQLName, rootFieldName, typeName } from './names';
import { restId, type GraphObject, type GraphReads } from './reads';
import { scalarField, storedColumnFields, valueType } from './scalar-fields';
import { GenericScalar, UUIDScalar } from './scalars';
import { genericNames } from '../fields/generic-foreign-key';
import { modelTypeExtensions, type RestNeeds } from './rest-keys';

type Field = GraphQLFieldConfig<GraphObject, GraphReads>;
type Args = Record<string, unknown>;

/** REST keys with no GraphQL field (Nautobot's types leave them out or spell them differently). */
const REST_ONLY = new Set(['display', 'notes_url', 'custom_fields', 'computed_fields', 'relationships']);

/** The REST keys a generic relation's resolvers read: the relation and its type and id fields. */
function genericKeys(field: FieldMeta): string[] {
  const names = genericNames(field.options, (field.options as { relation?: string }).relation ?? field.name);
  return [field.name, names.type, names.id];
}

/**
 * The object types of the models in the schema, built on first use from the metadata: fields from
 * the REST representation, relations both ways, and the fields features add.
 */
export class ObjectTypes {
  private readonly types = new Map<ModelMeta, GraphQLObjectType>();
  private readonly restNeeds = new Map<ModelMeta, RestNeeds>();
  private readonly enumNames = new Set<string>();
  private readonly typeNames = new Set<string>();
  private readonly unions = new Map<string, { key: string; type: GraphQLUnionType }>();
  constructor(
    private readonly registry: Registry,
    private readonly models: ReadonlySet<ModelMeta>,
    private readonly dynamic: ReadonlyMap<ModelMeta, readonly FeatureGraphQLField[]>,
  ) {}

  typeOf(model: ModelMeta): GraphQLObjectType {
    let type = this.types.get(model);
    if (!type) {
      // Two applications may declare classes of one name (a plugin's `Device`): the later one is
      // prefixed with its application.
      let name = typeName(model);
      if (this.typeNames.has(name)) name = `${model.app.label.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}${name}`;
      this.typeNames.add(name);
      const restNeeds: RestNeeds = new Map();
      this.restNeeds.set(model, restNeeds);
      type = new GraphQLObjectType<GraphObject, GraphReads>({ name, fields: () => this.fieldsOf(model), extensions: modelTypeExtensions({ model, restNeeds }) });
      this.types.set(model, type);
    }
    return type;
  }

  private fieldsOf(model: ModelMeta): GraphQLFieldConfigMap<GraphObject, GraphReads> {
    const fields: GraphQLFieldConfigMap<GraphObject, GraphReads> = {};
    const restNeeds = this.restNeeds.get(model) as RestNeeds;
    // `reads`: the REST keys the resolver reads (null: it may read any).
    const add = (name: string, config: Field, reads: readonly string[] | null) => {
      if (!isGraphQLName(name) || name in fields) return;
      fields[name] = config;
      restNeeds.set(name, reads);
    };
    add('id', { type: new GraphQLNonNull(model.integerPk ? GraphQLID : UUIDScalar), resolve: (o) => (model.integerPk ? String(o.rest.id) : o.rest.id) }, []);
    for (const field of representedFields(model, { brief: false, nested: false, version: LATEST_VERSION })) {
      if (REST_ONLY.has(field.name) || field.kind.annotation || field.name === 'id') continue;
      const config = this.fieldConfig(field);
      const keys = field.kind.relation === 'generic' ? genericKeys(field) : [field.name];
      if (config) add(field.name, config, keys);
      // Beside a generic relation's union, one field per target (`interface`, `vminterface`), null unless the object is one.
      if (field.kind.relation === 'generic') for (const target of this.genericTargets(field)) add(target.name, this.genericTargetField(field, target), keys);
      for (const [name, column] of Object.entries(storedColumnFields(field))) add(name, { type: column.type, resolve: column.read }, [field.name]);
    }
    if (!('url' in fields)) add('url', { type: GraphQLString, resolve: (o) => o.rest.url ?? null }, []);
    const data = model.fields.find((f) => f.options.feature === 'custom_fields');
    if (data) add('_custom_field_data', { type: GenericScalar, resolve: async (o) => (await o.stored())[data.name] ?? {} }, []);
    // A feature field whose name clashes with a model field is left out, as Nautobot drops it.
    for (const extra of this.dynamic.get(model) ?? []) {
      const config = this.featureField(extra);
      if (config) add(rootFieldName(extra.name), config, null);
    }
    // Relations found by the object's id, which every representation has.
    for (const relation of model.reverse) {
      const name = (relation.field.options as { related?: string }).related;
      if (name && this.models.has(relation.model)) add(name, this.reverseField(relation.model, relation.field), []);
    }
    for (const relation of model.reverseLinks) {
      const name = (relation.field.options as { related?: string }).related;
      if (name && this.models.has(relation.model)) add(name, this.reverseLinkField(relation.model, relation.field), []);
    }
    for (const source of this.models) {
      for (const g of source.fields) {
        if (g.kind.relation !== 'generic' || !this.genericTargets(g).includes(model)) continue;
        add(rootFieldName(source.verboseNamePlural), this.genericReverseField(source, g, model), []);
      }
    }
    return fields;
  }

  /** A field a feature adds: a scalar, or objects named by id, each visible to the caller only. */
  private featureField(extra: FeatureGraphQLField): Field | null {
    const value = async (o: GraphObject) => extra.read({ rest: o.rest, values: await o.stored() });
    if (extra.type === 'string') return { type: GraphQLString, resolve: value };
    if (extra.type === 'value') return extra.field ? { type: valueType(extra.field), resolve: value } : null;
    const target = extra.target ? this.registry.get(extra.target) : undefined;
    if (!target || !this.models.has(target)) return null;
    if (extra.type === 'object') {
      return {
        type: this.typeOf(target),
        resolve: async (o, _args, reads) => {
          const id = (await value(o)) as Id | null;
          return id === null ? null : ((await this.objectsByIds(reads, target, [id]))[0] ?? null);
        },
      };
    }
    return { type: new GraphQLList(this.typeOf(target)), resolve: async (o, _args, reads) => this.objectsByIds(reads, target, ((await value(o)) as Id[] | null) ?? []) };
  }

  private fieldConfig(field: FieldMeta): Field | null {
    const target = field.target;
    if (field.kind.relation === 'foreign-key' && target) return this.models.has(target) ? this.forwardField(field, target) : null;
    if (field.kind.relation === 'many-to-many' && target) return this.models.has(target) ? this.linkedField(field, target) : null;
    if (field.kind.relation === 'generic') return this.genericField(field);
    if (target) {
      if (!this.models.has(target)) return null;
      return field.kind.schema?.(field, 'read', { version: LATEST_VERSION, nested: () => ({}), related: () => ({}) }).type === 'array'
        ? this.restListField(field, target)
        : this.restObjectField(field, target);
    }
    const scalar = scalarField(field, this.enumNames);
    return { type: scalar.type, resolve: (o) => scalar.read(o) };
  }

  /**
   * A foreign key: the object, or null. An optional one the caller may not view reads as null; a
   * required one stays visible (a device's site), as REST shows it nested.
   */
  private forwardField(field: FieldMeta, target: ModelMeta): Field {
    const restricted = field.nullable;
    return {
      type: this.typeOf(target),
      resolve: async (o, _args, reads) => {
        // The nested representation names the id; a status shows its slug, so its id is read from the row.
        const shown = o.rest[field.name];
        if (shown === null || shown === undefined) return null;
        const id = typeof shown === 'object' && 'id' in (shown as object) ? restId(shown) : ((await o.stored())[field.name] as Id | null);
        if (id === null || id === undefined) return null;
        const batch = reads.batch(`object:${target.label}:${restricted}`, (ids) => reads.byIds(target, ids, restricted));
        return (await batch.load(id)) ?? null;
      },
    };
  }

  private objectsByIds(reads: GraphReads, target: ModelMeta, ids: readonly Id[]): Promise<GraphObject[]> {
    const batch = reads.batch(`object:${target.label}:true`, (keys) => reads.byIds(target, keys, true));
    return Promise.all(ids.map((id) => batch.load(id))).then((list) => list.filter((x): x is GraphObject => !!x));
  }

  /** A many-to-many field (tags, tagged VLANs): the linked objects the caller may view, in the target's ordering. */
  private linkedField(field: FieldMeta, target: ModelMeta): Field {
    return {
      type: new GraphQLList(this.typeOf(target)),
      resolve: async (o, _args, reads) => {
        const shown = o.rest[field.name];
        const ids = Array.isArray(shown) && shown.every((x) => x !== null && typeof x === 'object' && 'id' in x) ? shown.map((x) => restId(x) as Id) : (((await o.stored())[field.name] as Id[] | undefined) ?? []);
        return this.objectsByIds(reads, target, ids);
      },
    };
  }

  private restListField(field: FieldMeta, target: ModelMeta): Field {
    return {
      type: new GraphQLList(this.typeOf(target)),
      resolve: (o, _args, reads) => this.objectsByIds(reads, target, ((o.rest[field.name] as Array<{ id: Id }> | null) ?? []).map((x) => x.id)),
    };
  }

  private restObjectField(field: FieldMeta, target: ModelMeta): Field {
    return {
      type: this.typeOf(target),
      resolve: async (o, _args, reads) => {
        const id = (o.rest[field.name] as { id?: Id } | null | undefined)?.id;
        return id === undefined ? null : ((await this.objectsByIds(reads, target, [id]))[0] ?? null);
      },
    };
  }

  private genericTargets(field: FieldMeta): ModelMeta[] {
    const relation = (field.options as { relation?: string }).relation ?? field.name;
    const holder = field.model.field(genericNames(field.options, relation).type) ?? field;
    return ((holder.resolved as { targets?: ModelMeta[] }).targets ?? []).filter((m) => this.models.has(m));
  }

  /** A generic relation (`assigned_object`): a union of its targets' types. */
  private genericField(field: FieldMeta): Field | null {
    const targets = this.genericTargets(field);
    if (targets.length === 0) return null;
    const relation = (field.options as { relation?: string }).relation ?? field.name;
    const names = genericNames(field.options, relation);
    const pascal = field.name.split('_').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
    const union = this.unionOf(`${pascal}Type`, `${field.model.cls.name}${pascal}Type`, targets);
    return {
      type: union,
      resolve: async (o, _args, reads) => {
        const label = (o.rest[names.type] ?? (await o.stored())[names.type]) as string | null;
        const id = restId(o.rest[names.id]) ?? ((await o.stored())[names.id] as Id | null);
        const target = targets.find((t) => t.label === label);
        if (!target || id === null || id === undefined) return null;
        return (await this.objectsByIds(reads, target, [id]))[0] ?? null;
      },
    };
  }

  /** One union per set of targets: the relation's name, or the model's and the relation's when taken by another set. */
  private unionOf(name: string, fallback: string, targets: ModelMeta[]): GraphQLUnionType {
    const key = targets.map((t) => t.label).sort().join(',');
    for (const candidate of [name, fallback]) {
      const existing = this.unions.get(candidate);
      if (existing && existing.key === key) return existing.type;
      if (existing) continue;
      const type = new GraphQLUnionType({
        name: candidate,
        types: () => targets.map((t) => this.typeOf(t)),
        resolveType: (o: GraphObject) => this.typeOf(o.model).name,
      });
      this.unions.set(candidate, { key, type });
      return type;
    }
    throw new Error(`GraphQL: no free name for the union of ${key}`);
  }

  private genericTargetField(field: FieldMeta, target: ModelMeta): Field {
    const relation = (field.options as { relation?: string }).relation ?? field.name;
    const names = genericNames(field.options, relation);
    return {
      type: this.typeOf(target),
      resolve: async (o, _args, reads) => {
        const label = (o.rest[names.type] ?? (await o.stored())[names.type]) as string | null;
        const id = restId(o.rest[names.id]) ?? ((await o.stored())[names.id] as Id | null);
        if (label !== target.label || id === null || id === undefined) return null;
        return (await this.objectsByIds(reads, target, [id]))[0] ?? null;
      },
    };
  }

  /** A reverse foreign key (`device.interfaces`): the child's filters, limit and offset. */
  private reverseField(child: ModelMeta, via: FieldMeta): Field {
    if (via.options.unique) {
      return {
        type: this.typeOf(child),
        resolve: async (o, _args, reads) => {
          const batch = reads.batch(`reverse:${child.label}.${via.name}`, (owners) => reads.pointing(child, via, owners, TRUE));
          return ((await batch.load(o.rest.id as Id)) ?? [])[0] ?? null;
        },
      };
    }
    return {
      type: new GraphQLList(this.typeOf(child)),
      args: filterArguments(child),
      resolve: async (o, args: Args, reads) => {
        const window = windowOf(args);
        const key = `reverse:${child.label}.${via.name}:${JSON.stringify(args)}`;
        const batch = reads.batch(key, async (owners) => reads.pointing(child, via, owners, await argumentPredicate(reads, child, args)));
        const list = (await batch.load(o.rest.id as Id)) ?? [];
        return list.slice(window.offset, window.limit === null ? undefined : window.offset + window.limit);
      },
    };
  }

  /**
   * The other side of a many-to-many field (`vlan.interfaces_as_tagged`): the owners linked to each
   * object, in the owner's ordering, those the caller may view only.
   */
  private reverseLinkField(owner: ModelMeta, field: FieldMeta): Field {
    return {
      type: new GraphQLList(this.typeOf(owner)),
      resolve: async (o, _args, reads) => {
        const batch = reads.batch(`links:${owner.label}.${field.name}`, (targets) => reads.linking(owner, field, targets));
        return (await batch.load(o.rest.id as Id)) ?? [];
      },
    };
  }

  /** Objects of `source` whose generic relation names this one (`interface.ip_addresses`). */
  private genericReverseField(source: ModelMeta, g: FieldMeta, model: ModelMeta): Field {
    const relation = (g.options as { relation?: string }).relation ?? g.name;
    const typeField = source.field(genericNames(g.options, relation).type) as FieldMeta;
    const idField = source.field(genericNames(g.options, relation).id) as FieldMeta;
    return {
      type: new GraphQLList(this.typeOf(source)),
      resolve: async (o, _args, reads) => {
        const key = `generic:${source.label}.${relation}:${model.label}`;
        const batch = reads.batch(key, (owners) => reads.pointing(source, idField, owners, fieldTest(typeField, 'exact', [model.label])));
        return (await batch.load(o.rest.id as Id)) ?? [];
      },
    };
  }
}
