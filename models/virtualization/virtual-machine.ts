import {
  NotesUrl,
  ComputedField,
  Field,
  ForeignKey,
  Model,
  PrimaryModel,
  RelatedVia,
  StatusField,
  ValidationError,
  type Values,
  type WriteContext,
  FirstOf,
  Filter,
  type Predicate,
  type Predicates,
} from '../../framework';
import { IPAddress } from '../ipam/ip-address';
import { addressOrIdAttributes } from '../ipam/network-filters';
import { checkPrimaryIps } from '../ipam/primary-ip';
import { DeviceRole } from '../dcim/device-role';
import { Platform } from '../dcim/platform';
import { Site } from '../dcim/site';
import { Location } from '../dcim/location';
import { Status } from '../extras/status';
import { ConfigContextSchema } from '../extras/config-context';
import { checkLocalContext } from '../extras/local-context';
import { Tenant } from '../tenancy/tenant';
import { Cluster } from './cluster';

/** A virtual machine running in a cluster. */
@Model({
  features: ['dynamic_groups'],
  indexTogether: [['local_context_data_owner_content_type', 'local_context_data_owner_object_id']],
  path: 'virtual-machines',
  display: 'name',
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'comments'],
  uniqueTogether: [['cluster', 'tenant', 'name']],
  briefOnWrites: true,
  filters: {
    local_context_data: { has: 'local_context_data' },
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    cluster_group: { path: 'cluster.group' },
    cluster_group_id: { path: 'cluster.group', by: 'id' },
    cluster_type: { path: 'cluster.type' },
    cluster_type_id: { path: 'cluster.type', by: 'id' },
    region: { path: 'cluster.site.region' },
    region_id: { path: 'cluster.site.region' },
    site: { path: 'cluster.site' },
    site_id: { path: 'cluster.site', by: 'id' },
    location: { path: 'cluster.location' },
    mac_address: { path: 'interfaces.mac_address' },
    interfaces: { path: 'interfaces' },
    has_interfaces: { has: 'interfaces' },
    services: { path: 'services' },
    has_services: { has: 'services' },
  },
})
export class VirtualMachine extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 64 })
  name!: string;

  @StatusField(() => Status)
  status!: Status;


  /** Always the cluster's site. */
  @RelatedVia(() => Site, 'cluster.site')
  site!: Site | null;

  /** Always the cluster's location. */
  @RelatedVia(() => Location, 'cluster.location')
  location!: Location | null;

  // `cluster` filters by id only and keeps the last value; `cluster_id` takes several.
  @ForeignKey(() => Cluster, { onDelete: 'protect', related: 'virtual_machines', naturalKey: false, single: true })
  cluster!: Cluster;

  /** Only roles offered for VMs; another is refused as if it did not exist. */
  @ForeignKey(() => DeviceRole, { nullable: true, onDelete: 'protect', related: 'virtual_machines', limit: { vm_role: true } })
  role!: DeviceRole | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'virtual_machines' })
  tenant!: Tenant | null;

  @ForeignKey(() => Platform, { nullable: true, onDelete: 'set_null', related: 'virtual_machines' })
  platform!: Platform | null;

  @FirstOf(['primary_ip6', 'primary_ip4'], { label: 'Primary IP' })
  primary_ip!: unknown;

  @ForeignKey(() => IPAddress, { nullable: true, onDelete: 'set_null', unique: true, label: 'Primary IPv4', related: 'primary_ip4_for_vm', naturalFilter: false, idFilter: false })
  primary_ip4!: IPAddress | null;

  @ForeignKey(() => IPAddress, { nullable: true, onDelete: 'set_null', unique: true, label: 'Primary IPv6', related: 'primary_ip6_for_vm', naturalFilter: false, idFilter: false })
  primary_ip6!: IPAddress | null;

  @Field.Integer({ nullable: true, min: 0, max: 32767, label: 'vCPUs' })
  vcpus!: number | null;

  @Field.Integer({ nullable: true, min: 0, max: 2147483647, label: 'Memory (MB)' })
  memory!: number | null;

  @Field.Integer({ nullable: true, min: 0, max: 2147483647, label: 'Disk (GB)' })
  disk!: number | null;

  @Field.Text()
  comments!: string;

  @Field.JSON({ object: true })
  local_context_data!: Record<string, unknown> | null;

  /** The Git repository that provides the local context data, if one does (not shown, as in Nautobot's API). */
  @Field.String({ maxLength: 100, nullable: true, default: null, readOnly: true, hidden: true, lookups: false })
  local_context_data_owner_content_type!: string | null;

  @Field.UUID({ nullable: true, default: null, readOnly: true, hidden: true, lookups: false })
  local_context_data_owner_object_id!: string | null;

  @ForeignKey(() => ConfigContextSchema, { nullable: true, onDelete: 'set_null', related: 'virtual_machines', label: 'Local context schema' })
  local_context_schema!: ConfigContextSchema | null;

  /** The matching config contexts merged with the local context data (extras' config-context provider). */
  @ComputedField({ optOut: 'exclude' })
  config_context!: Record<string, unknown>;

  @Filter({ type: 'boolean', help: 'Has a primary IPv4 or IPv6 address' })
  static has_primary_ip(value: boolean, p: Predicates): Predicate {
    const set = p.or([p.lookup('primary_ip4', 'isnull', false), p.lookup('primary_ip6', 'isnull', false)]);
    return value ? set : p.not(set);
  }

  /** VMs whose primary IPv4 is one of these addresses (ids, or address strings with or without mask). */
  @Filter({ type: 'address', multiple: 'or', help: 'Primary IPv4 (ID or address)' })
  static primary_ip4(_value: string, p: Predicates, values: string[]): Predicate {
    return p.or(values.map((v) => p.match(addressOrIdAttributes(v, 'primary_ip4__'))));
  }

  /** As `primary_ip4`, for the primary IPv6. */
  @Filter({ type: 'address', multiple: 'or', help: 'Primary IPv6 (ID or address)' })
  static primary_ip6(_value: string, p: Predicates, values: string[]): Predicate {
    return p.or(values.map((v) => p.match(addressOrIdAttributes(v, 'primary_ip6__'))));
  }

  /** (cluster, tenant, name) is unique, but SQL never finds two null tenants equal: checked here. */

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkLocalContext(values, wc);
    await checkPrimaryIps(values, wc, 'virtualization.vminterface', 'virtual_machine');
    if (values.tenant !== null && values.tenant !== undefined) return;
    if (await wc.store.count(VirtualMachine, { name: values.name, cluster: values.cluster, tenant: null }, { exceptId: wc.id })) {
      throw new ValidationError({ name: ['A virtual machine with this name already exists in the assigned cluster.'] });
    }
  }
}
