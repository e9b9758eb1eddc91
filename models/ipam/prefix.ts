import {
  NotesUrl,
  Field, Filter, ForeignKey, Model, NetworkField, networkText, PrimaryModel, StatusField, ValidationError,
  type IPNetwork, type Predicates, type Values, type WriteContext,
} from '../../framework';
import { Site } from '../dcim/site';
import { Location } from '../dcim/location';
import { checkLocation } from '../dcim/location-rules';
import { Status } from '../extras/status';
import { Tenant } from '../tenancy/tenant';
import { networkSearch, optionalNetwork, presentInVrf } from './network-filters';
import { Role } from './role';
import { VLAN } from './vlan';
import { VRF } from './vrf';

/** An IPv4 or IPv6 network: the unit of address planning. */
@Model({
  path: 'prefixes',
  display: 'prefix',
  brief: ['family', 'prefix'],
  ordering: ['vrf.name', 'prefix'],
  features: ['locations', 'dynamic_groups'],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
  },
})
export class Prefix extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @NetworkField({ role: 'network', noun: 'prefix', help: 'IPv4 or IPv6 network with mask' })
  prefix!: IPNetwork;

  @ForeignKey(() => Site, { nullable: true, onDelete: 'protect', related: 'prefixes' })
  site!: Site | null;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'prefixes' })
  location!: Location | null;

  @ForeignKey(() => VRF, { nullable: true, onDelete: 'protect', related: 'prefixes', label: 'VRF' })
  vrf!: VRF | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'prefixes' })
  tenant!: Tenant | null;

  @ForeignKey(() => VLAN, { nullable: true, onDelete: 'protect', related: 'prefixes', label: 'VLAN', naturalKey: false })
  vlan!: VLAN | null;

  @StatusField(() => Status)
  status!: Status;

  @ForeignKey(() => Role, { nullable: true, onDelete: 'set_null', related: 'prefixes' })
  role!: Role | null;

  @Field.Boolean({ default: false, label: 'Is a pool', help: 'All IP addresses within this prefix are considered usable' })
  is_pool!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  /** Duplicates are refused inside a VRF that enforces unique space. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkLocation(values, wc, 'Prefixes');
    const vrfId = values.vrf as string | null;
    if (!vrfId) return;
    const [vrf] = await wc.store.find(VRF, { id: vrfId });
    if (!vrf?.enforce_unique) return;
    const text = networkText(values.prefix as IPNetwork);
    const duplicates = (await wc.store.find(Prefix, { vrf: vrfId, prefix__net_equals: text })).filter((r) => r.id !== wc.id);
    if (duplicates.length) {
      const label = vrf.rd ? `${String(vrf.name)} (${String(vrf.rd)})` : String(vrf.name);
      throw ValidationError.field('prefix', `Duplicate prefix found in VRF ${label}: ${text}`);
    }
  }

  @Filter({ type: 'string', help: 'Exact network (host bits ignored)' })
  static prefix(value: string, p: Predicates) {
    const n = optionalNetwork(value);
    return n ? p.lookup('prefix', 'net_equals', networkText(n)) : p.or([]);
  }

  @Filter({ type: 'string', help: 'Prefixes strictly inside this network' })
  static within(value: string, p: Predicates) {
    return optionalNetwork(value) ? p.lookup('prefix', 'net_contained', value) : p.or([]);
  }

  @Filter({ type: 'string', help: 'Prefixes inside or equal to this network' })
  static within_include(value: string, p: Predicates) {
    return optionalNetwork(value) ? p.lookup('prefix', 'net_contained_or_equal', value) : p.or([]);
  }

  @Filter({ type: 'string', help: 'Prefixes containing or equal to this network or address' })
  static contains(value: string, p: Predicates) {
    return optionalNetwork(value) ? p.lookup('prefix', 'net_contains_or_equals', value) : p.or([]);
  }

  @Filter({ type: 'integer', help: 'Prefix length' })
  static mask_length(value: number, p: Predicates) {
    return p.lookup('prefix', 'mask_length', value);
  }

  @Filter({ type: 'integer', name: 'mask_length__gte', help: 'Prefix length at least' })
  static mask_length_gte(value: number, p: Predicates) {
    return p.lookup('prefix', 'mask_length_gte', value);
  }

  @Filter({ type: 'integer', name: 'mask_length__lte', help: 'Prefix length at most' })
  static mask_length_lte(value: number, p: Predicates) {
    return p.lookup('prefix', 'mask_length_lte', value);
  }

  @Filter({ type: 'integer', help: 'VLAN number (1-4094)' })
  static vlan_vid(value: number, p: Predicates) {
    return p.lookup('vlan__vid', 'exact', value);
  }

  @Filter({ type: 'uuid', help: 'In this VRF or in a VRF exporting a route target it imports' })
  static present_in_vrf_id(value: string, p: Predicates) {
    return presentInVrf(value, p, 'id');
  }

  @Filter({ type: 'string', help: 'As present_in_vrf_id, by route distinguisher' })
  static present_in_vrf(value: string, p: Predicates) {
    return presentInVrf(value, p, 'rd');
  }

  @Filter({ type: 'string', help: 'Description, or networks inside or around the given (partial) address' })
  static q(value: string, p: Predicates) {
    return networkSearch(value, p, 'prefix');
  }
}
