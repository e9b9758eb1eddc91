import {
  NotesUrl,
  ComputedField,
  Field,
  Filter,
  ForeignKey,
  Model,
  NaturalKey,
  PrimaryModel,
  StatusField,
  ValidationError,
  displayOf,
  naturalize,
  type Predicate,
  type Predicates,
  type Values,
  type WriteContext,
  FirstOf,
  ChoiceField,
} from '../../framework';
import { IPAddress } from '../ipam/ip-address';
import { checkPrimaryIps } from '../ipam/primary-ip';
import { Status } from '../extras/status';
import { ConfigContextSchema } from '../extras/config-context';
import { checkLocalContext } from '../extras/local-context';
import { Tenant } from '../tenancy/tenant';
import { Cluster } from '../virtualization/cluster';
import { DeviceRole } from './device-role';
import { DeviceType } from './device-type';
import { Platform } from './platform';
import { Site } from './site';
import { Manufacturer } from './manufacturer';
import { DeviceFaceChoices } from './choices';
import { checkClusterLocation, checkPlacement } from './device-placement';
import { Location } from './location';
import { Rack } from './rack';
import { DEVICE_COMPONENT_FILTERS, hasRelated } from './device-component-filters';
import { instantiateComponents } from './device-components';
import { DeviceRedundancyGroup, checkRedundancyPriority } from './device-redundancy-group';
import { VirtualChassis } from './virtual-chassis';
import { checkChassisMembership, checkChassisPosition, masterMayUse } from './virtual-chassis-rules';

/** A physical piece of equipment (router, switch, server) at a site. */
@Model({
  path: 'devices',
  display: {
    fields: ['name', 'device_type.manufacturer.name', 'device_type.model', 'id'],
    // Unnamed devices show their make and model with the id, as Nautobot does.
    render: (v) => (v.name ? String(v.name) : `${String(v['device_type.manufacturer.name'])} ${String(v['device_type.model'])} (${String(v.id)})`),
  },
  brief: ['name'],
  ordering: ['_name'],
  search: ['name', 'serial', 'asset_tag', 'device_type.manufacturer.name', 'comments'],
  uniqueTogether: [['site', 'tenant', 'name']],
  briefOnWrites: true,
  features: ['locations', 'dynamic_groups'],
  // The list's order (`_name`, then id), read from an index instead of sorting every device.
  indexTogether: [['local_context_data_owner_content_type', 'local_context_data_owner_object_id'], ['_name', 'id']],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    local_context_data: { has: 'local_context_data' },
    manufacturer: { path: 'device_type.manufacturer', naturalKey: 'slug' },
    manufacturer_id: { path: 'device_type.manufacturer', by: 'id' },
    model: { path: 'device_type', naturalKey: 'slug' },
    is_full_depth: { path: 'device_type.is_full_depth' },
    mac_address: { path: 'interfaces.mac_address' },
    has_interfaces: { has: 'interfaces' },
    interfaces: { has: 'interfaces' },
    rack_group_id: { path: 'rack.group' },
    ...DEVICE_COMPONENT_FILTERS,
  },
})
export class Device extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 64, nullable: true, blank: true })
  name!: string | null;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @ForeignKey(() => DeviceType, { onDelete: 'protect', related: 'instances', naturalFilter: false })
  device_type!: DeviceType;

  @ForeignKey(() => DeviceRole, { onDelete: 'protect', related: 'devices', filterName: 'role' })
  device_role!: DeviceRole;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'devices' })
  tenant!: Tenant | null;

  @ForeignKey(() => Platform, { nullable: true, onDelete: 'set_null', related: 'devices' })
  platform!: Platform | null;

  @Field.String({ maxLength: 255, blank: true, label: 'Serial number', lookups: false })
  serial!: string;

  @Field.String({ maxLength: 100, nullable: true, blank: true, unique: true, verboseName: 'Asset tag' })
  asset_tag!: string | null;

  @ForeignKey(() => Site, { onDelete: 'protect', related: 'devices' })
  site!: Site;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'devices' })
  location!: Location | null;

  @ForeignKey(() => Rack, { nullable: true, onDelete: 'protect', related: 'devices', naturalFilter: false })
  rack!: Rack | null;

  @Field.Integer({ min: 1, max: 32767, nullable: true, label: 'Position (U)', help: 'The lowest-numbered unit occupied by the device' })
  position!: number | null;

  @ChoiceField(DeviceFaceChoices, { blank: true, single: true, label: 'Rack face' })
  face!: string;
  /** The device whose bay holds this one, with the bay (the dcim application's provider). */
  @ComputedField({ label: 'Parent device', readOnly: true })
  parent_device!: unknown;

  @StatusField(() => Status)
  status!: Status;

  @FirstOf(['primary_ip6', 'primary_ip4'], { label: 'Primary IP' })
  primary_ip!: unknown;

  @ForeignKey(() => IPAddress, { nullable: true, onDelete: 'set_null', unique: true, label: 'Primary IPv4', related: 'primary_ip4_for', naturalFilter: false, idFilter: false })
  primary_ip4!: IPAddress | null;

  @ForeignKey(() => IPAddress, { nullable: true, onDelete: 'set_null', unique: true, label: 'Primary IPv6', related: 'primary_ip6_for', naturalFilter: false, idFilter: false })
  primary_ip6!: IPAddress | null;

  @ForeignKey(() => Cluster, { nullable: true, onDelete: 'set_null', related: 'devices', naturalFilter: false })
  cluster!: Cluster | null;

  @ForeignKey(() => VirtualChassis, { nullable: true, onDelete: 'set_null', related: 'members', naturalFilter: false })
  virtual_chassis!: VirtualChassis | null;

  @Field.Integer({ nullable: true, min: 0, max: 255, label: 'VC position' })
  vc_position!: number | null;

  @Field.Integer({ nullable: true, min: 0, max: 255, label: 'VC priority' })
  vc_priority!: number | null;

  @ForeignKey(() => DeviceRedundancyGroup, { nullable: true, onDelete: 'set_null', idFilter: false })
  device_redundancy_group!: DeviceRedundancyGroup | null;

  @Field.Integer({ nullable: true, min: 1, max: 32767 })
  device_redundancy_group_priority!: number | null;

  @Field.Text({ lookups: false })
  comments!: string;

  @ForeignKey(() => ConfigContextSchema, { nullable: true, onDelete: 'set_null', related: 'devices', label: 'Local context schema' })
  local_context_schema!: ConfigContextSchema | null;

  @Field.JSON({ object: true })
  local_context_data!: Record<string, unknown> | null;

  /** The Git repository that provides the local context data, if one does (not shown, as in Nautobot's API). */
  @Field.String({ maxLength: 100, nullable: true, default: null, readOnly: true, hidden: true, lookups: false })
  local_context_data_owner_content_type!: string | null;

  @Field.UUID({ nullable: true, default: null, readOnly: true, hidden: true, lookups: false })
  local_context_data_owner_object_id!: string | null;

  /** The matching config contexts merged with the local context data (extras' config-context provider). */
  @ComputedField({ optOut: 'exclude' })
  config_context!: Record<string, unknown>;

  /** `serial` matches case-insensitively and only the last value counts (Nautobot's `serial__iexact`). */
  @Filter({ type: 'string', help: 'Serial number (case-insensitive)' })
  static serial(value: string, p: Predicates): Predicate {
    return p.lookup('serial', 'iexact', value);
  }

  /** Nautobot's Device.clean rules for the fields netinv has, then its null-tenant name check. */
  @Filter({ type: 'boolean', help: 'Has a primary IPv4 or IPv6 address' })
  static has_primary_ip(value: boolean, p: Predicates): Predicate {
    const set = p.or([p.lookup('primary_ip4', 'isnull', false), p.lookup('primary_ip6', 'isnull', false)]);
    return value ? set : p.not(set);
  }

  /** A new device gets the components its type's templates describe. */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    if (wc.creating) await instantiateComponents(values, wc);
  }

  /** Devices with both front and rear ports (true), or not (false). */
  @Filter({ type: 'boolean', help: 'Has pass-through ports' })
  static pass_through_ports(value: boolean, p: Predicates): Predicate {
    return hasRelated(p, value, ['front_ports', 'rear_ports'], true);
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkPlacement(values, wc);
    await checkLocalContext(values, wc);
    await checkPrimaryIps(values, wc, 'dcim.interface', 'device', await masterMayUse(wc));
    const platform = values.platform ? await wc.store.get(Platform, values.platform as string) : null;
    if (platform?.manufacturer) {
      const type = await wc.store.get(DeviceType, values.device_type as string);
      if (type && type.manufacturer !== platform.manufacturer) {
        const limited = await displayOf(wc, Manufacturer, platform.manufacturer as string);
        const actual = await displayOf(wc, Manufacturer, type.manufacturer as string);
        throw new ValidationError({
          platform: [`The assigned platform is limited to ${limited} device types, but this device's type belongs to ${actual}.`],
        });
      }
    }
    const cluster = values.cluster ? await wc.store.get(Cluster, values.cluster as string) : null;
    if (cluster?.site && cluster.site !== values.site) {
      const site = await displayOf(wc, Site, cluster.site as string);
      throw new ValidationError({ cluster: [`The assigned cluster belongs to a different site (${site})`] });
    }
    await checkClusterLocation(values, wc, cluster);
    await checkChassisMembership(values, wc);
    checkRedundancyPriority(values);
    // (site, tenant, name) is unique, but SQL never finds two null tenants equal: checked here.
    if (values.name && (values.tenant === null || values.tenant === undefined)) {
      if (await wc.store.count(Device, { name: values.name, site: values.site, tenant: null }, { exceptId: wc.id })) {
        throw new ValidationError({ name: ['A device with this name already exists.'] });
      }
    }
    await checkChassisPosition(values, wc);
  }
}
