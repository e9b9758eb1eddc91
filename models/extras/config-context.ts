import {
  NotesUrl,
  ChangeLoggedModel,
  ComputedField,
  ContentTypeField,
  Field,
  ForeignKey,
  ManyToMany,
  Model,
  OrganizationalModel,
  ValidationError,
  type Values,
  type WriteContext,
} from '../../framework';
import { DeviceRole } from '../dcim/device-role';
import { DeviceType } from '../dcim/device-type';
import { Platform } from '../dcim/platform';
import { Region } from '../dcim/region';
import { Site } from '../dcim/site';
import { Tenant } from '../tenancy/tenant';
import { TenantGroup } from '../tenancy/tenant-group';
import { Cluster } from '../virtualization/cluster';
import { ClusterGroup } from '../virtualization/cluster-group';
import { DynamicGroup } from './dynamic-group';
import { schemaErrors, schemaShapeError } from './json-schema';
import { Tag } from './tag';

const OBJECT_MESSAGE = 'JSON data must be in object form. Example: {"foo": 123}';

/**
 * Records a Git repository manages carry their owner in `owner_content_type` + `owner_object_id`
 * (writable, as in Nautobot); `owner` shows it nested (owner.provider.ts).
 */
const owner = { provider: 'owner', label: 'Owner' };

/** `[<owner>] <name>` for a record a Git repository manages, else the name. */
const ownedDisplay = {
  fields: ['name'],
  objects: { owner: { type: 'owner_content_type', id: 'owner_object_id' } },
  render: (v: Record<string, unknown>) => (v.owner ? `[${String(v.owner)}] ${String(v.name)}` : String(v.name)),
};

/** A JSON Schema that config-context data and devices' local context data can be checked against. */
@Model({
  path: 'config-context-schemas',
  display: ownedDisplay,
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'description', 'data_schema'],
  uniqueTogether: [['name', 'owner_content_type', 'owner_object_id']],
})
export class ConfigContextSchema extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 200 })
  name!: string;

  @Field.Slug({ maxLength: 200, from: 'name', unique: false, lookups: false })
  slug!: string;

  @ContentTypeField({ nullable: true, required: false, default: null, single: true, forFeature: 'config_context_owners' })
  owner_content_type!: string | null;

  @Field.UUID({ nullable: true, required: false, default: null })
  owner_object_id!: string | null;

  @ComputedField(owner)
  owner!: unknown;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @Field.JSON({ object: true, required: true, nullable: false, lookups: false, help: 'A JSON Schema document which is used to validate a config context object.' })
  data_schema!: Record<string, unknown>;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const shape = schemaShapeError(values.data_schema);
    if (shape) throw new ValidationError({ data_schema: [shape] });
    await uniqueAmongUnowned(values, wc, ConfigContextSchema, 'A ConfigContextSchema with this name already exists.');
  }
}

/**
 * A weighted block of JSON data merged into the `config_context` of the devices and virtual
 * machines it is assigned to. Each assignment list left empty matches every object.
 */
@Model({
  path: 'config-contexts',
  display: ownedDisplay,
  brief: ['name'],
  ordering: ['weight', 'name'],
  search: ['name', 'description', 'data'],
  uniqueTogether: [['name', 'owner_content_type', 'owner_object_id']],
})
export class ConfigContext extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100 })
  name!: string;

  @ContentTypeField({ nullable: true, required: false, default: null, single: true, forFeature: 'config_context_owners' })
  owner_content_type!: string | null;

  @Field.UUID({ nullable: true, required: false, default: null })
  owner_object_id!: string | null;

  @ComputedField(owner)
  owner!: unknown;

  @Field.Integer({ min: 0, max: 32767, default: 1000 })
  weight!: number;

  @Field.String({ maxLength: 200, blank: true, lookups: false })
  description!: string;

  @ForeignKey(() => ConfigContextSchema, { nullable: true, onDelete: 'set_null', related: 'config_contexts', idFilter: false })
  schema!: ConfigContextSchema | null;

  @Field.Boolean({ default: true })
  is_active!: boolean;

  @ManyToMany(() => Region, { writeBy: 'pk', required: false, filterName: 'region', related: 'config_contexts' })
  regions!: string[];

  @ManyToMany(() => Site, { writeBy: 'pk', required: false, filterName: 'site', related: 'config_contexts' })
  sites!: string[];

  @ManyToMany(() => DeviceRole, { writeBy: 'pk', required: false, filterName: 'role', related: 'config_contexts' })
  roles!: string[];

  @ManyToMany(() => DeviceType, { writeBy: 'pk', required: false, filterName: 'device_type', related: 'config_contexts' })
  device_types!: string[];

  @ManyToMany(() => Platform, { writeBy: 'pk', required: false, filterName: 'platform', related: 'config_contexts' })
  platforms!: string[];

  @ManyToMany(() => ClusterGroup, { writeBy: 'pk', required: false, filterName: 'cluster_group', related: 'config_contexts' })
  cluster_groups!: string[];

  @ManyToMany(() => Cluster, { writeBy: 'pk', required: false, filterName: 'cluster', related: 'config_contexts' })
  clusters!: string[];

  @ManyToMany(() => TenantGroup, { writeBy: 'pk', required: false, filterName: 'tenant_group', related: 'config_contexts' })
  tenant_groups!: string[];

  @ManyToMany(() => Tenant, { writeBy: 'pk', required: false, filterName: 'tenant', related: 'config_contexts' })
  tenants!: string[];

  /** Assigned by tag, read and written as tag slugs (not nested tags). */
  @ManyToMany(() => Tag, { required: false, filterName: 'tag', related: 'config_contexts', slugField: 'slug' })
  tags!: string[];

  /**
   * Devices and VMs in any of these dynamic groups (members computed live). Nautobot shows this
   * list only with its CONFIG_CONTEXT_DYNAMIC_GROUPS_ENABLED option on; netinv always offers it.
   */
  @ManyToMany(() => DynamicGroup, { writeBy: 'pk', required: false, lookups: false, related: 'config_contexts' })
  dynamic_groups!: string[];

  @Field.JSON({ object: true, required: true, nullable: false, lookups: false, objectMessage: OBJECT_MESSAGE })
  data!: Record<string, unknown>;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await uniqueAmongUnowned(values, wc, ConfigContext, 'A ConfigContext with this name already exists.');
    if (values.schema) {
      const schema = await wc.store.get(ConfigContextSchema, values.schema as string);
      const errors = schema ? schemaErrors(schema.data_schema, values.data) : [];
      if (errors.length) throw new ValidationError({ data: [`Validation using the JSON Schema ${String(schema?.name)} failed.`, ...errors] });
    }
  }
}

/** (name, owner) is unique, but SQL never finds two null owners equal: checked here. */
async function uniqueAmongUnowned(values: Values, wc: WriteContext, model: typeof ConfigContext | typeof ConfigContextSchema, message: string): Promise<void> {
  if (values.owner_content_type !== null && values.owner_content_type !== undefined) return;
  if (values.owner_object_id !== null && values.owner_object_id !== undefined) return;
  if (await wc.store.count(model, { name: values.name, owner_content_type: null, owner_object_id: null }, { exceptId: wc.id })) {
    throw ValidationError.model(message);
  }
}
