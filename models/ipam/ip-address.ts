import {
  NotesUrl,
  ChoiceField, Field, Filter, ForeignKey, GenericForeignKey, hostText, Model, NetworkField, parseNetwork, PrimaryModel, ReverseList, StatusField,
  ValidationError, FieldError, type IPNetwork, type Predicates, type Values, type WriteContext,
  DataKey,
} from '../../framework';
import { withChassisMembers } from '../dcim/chassis-interfaces';
import { Status } from '../extras/status';
import { Tenant } from '../tenancy/tenant';
import { IPAddressRole, SHARED_ADDRESS_ROLES } from './choices';
import { addressSearch, optionalNetwork, presentInVrf } from './network-filters';
import { VRF } from './vrf';

/** One address with its mask, optionally in a VRF. */
@Model({
  features: ['dynamic_groups'],
  path: 'ip-addresses',
  verboseName: 'IP address',
  verboseNamePlural: 'IP addresses',
  display: 'address',
  brief: ['family', 'address'],
  ordering: ['address'],
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
  },
})
export class IPAddress extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @NetworkField({ role: 'host', noun: 'IP address', help: 'IPv4 or IPv6 address (with mask)' })
  address!: IPNetwork;

  @ForeignKey(() => VRF, { nullable: true, onDelete: 'protect', related: 'ip_addresses', label: 'VRF' })
  vrf!: VRF | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'ip_addresses' })
  tenant!: Tenant | null;

  @StatusField(() => Status)
  status!: Status;

  @ChoiceField(IPAddressRole, { blank: true, nullable: false, help: 'The functional role of this IP' })
  role!: string;

  /** The interface (of a device or a virtual machine) the address is configured on. */
  @GenericForeignKey({ types: ['dcim.interface', 'virtualization.vminterface'] })
  assigned_object!: unknown;

  @ForeignKey(() => IPAddress, { nullable: true, onDelete: 'set_null', label: 'NAT (Inside)', naturalKey: false })
  nat_inside!: IPAddress | null;

  /** Addresses whose `nat_inside` is this one: a list from API 1.3, a single address before. */
  @ReverseList(() => IPAddress, 'nat_inside', {
    label: 'NAT (Outside)',
    listSince: '1.3',
    legacyMessage: 'This object does not conform to pre-1.3 behavior. Please correct data or use API version 1.3',
  })
  nat_outside!: IPAddress[];

  @Field.String({
    maxLength: 255,
    blank: true,
    label: 'DNS Name',
    pattern: /^[0-9A-Za-z._-]+$/,
    patternMessage: 'Only alphanumeric characters, hyphens, periods, and underscores are allowed in DNS names',
  })
  dns_name!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const address = values.address as IPNetwork;
    const status = values.status as string | null;
    if (address.family === 4 && status && status === (await slaacStatusId(wc))) {
      throw ValidationError.field('status', 'Only IPv6 addresses can be assigned SLAAC status');
    }
    const vrfId = values.vrf as string | null;
    if (!vrfId || SHARED_ADDRESS_ROLES.has(String(values.role ?? ''))) return;
    const [vrf] = await wc.store.find(VRF, { id: vrfId });
    if (!vrf?.enforce_unique) return;
    const text = hostText(address);
    const duplicates = (await wc.store.find(IPAddress, { vrf: vrfId, address__net_host: text })).filter(
      (r) => r.id !== wc.id && !SHARED_ADDRESS_ROLES.has(String(r.role ?? '')),
    );
    if (duplicates.length) {
      const label = vrf.rd ? `${String(vrf.name)} (${String(vrf.rd)})` : String(vrf.name);
      throw ValidationError.field('address', `Duplicate IP address found in VRF ${label}: ${text}`);
    }
  }

  @Filter({ type: 'string', help: 'Addresses whose host lies inside this network' })
  static parent(value: string, p: Predicates) {
    return optionalNetwork(value) ? p.lookup('address', 'net_host_contained', value) : p.or([]);
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Address, with mask (host and length) or without (host)' })
  static address(_value: string, p: Predicates, values: string[]) {
    return p.or(values.map((v) => {
      let n: IPNetwork;
      try {
        n = parseNetwork(v);
      } catch (err) {
        throw new FieldError((err as Error).message);
      }
      const host = p.lookup('address', 'net_host', v);
      return v.includes('/') ? p.and([host, p.lookup('address', 'mask_length', n.length)]) : host;
    }));
  }

  @Filter({ type: 'integer', help: 'Mask length' })
  static mask_length(value: number, p: Predicates) {
    return value === 0 ? p.and([]) : p.lookup('address', 'mask_length', value);
  }

  @Filter({ type: 'uuid', help: 'In this VRF or in a VRF exporting a route target it imports' })
  static present_in_vrf_id(value: string, p: Predicates) {
    return presentInVrf(value, p, 'id');
  }

  @Filter({ type: 'string', help: 'As present_in_vrf_id, by route distinguisher' })
  static present_in_vrf(value: string, p: Predicates) {
    return presentInVrf(value, p, 'rd');
  }

  /** On an interface of these devices or, for a chassis master, of its other members (Nautobot's `vc_interfaces`). */
  @Filter({ type: 'string', multiple: 'or', help: 'Assigned to an interface of these devices (names)' })
  static device(_v: string, p: Predicates, values: string[]) {
    return p.generic('assigned_object', 'dcim.interface', (q) => withChassisMembers(q, 'name', values));
  }

  /** As `device`, by id. */
  @Filter({ type: 'uuid', multiple: 'or', help: 'Assigned to an interface of these devices (ids)' })
  static device_id(_v: string, p: Predicates, values: string[]) {
    return p.generic('assigned_object', 'dcim.interface', (q) => withChassisMembers(q, 'id', values));
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Assigned to an interface of these virtual machines (names)' })
  static virtual_machine(_v: string, p: Predicates, values: string[]) {
    return p.generic('assigned_object', 'virtualization.vminterface', { virtual_machine__name__in: values });
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Assigned to an interface of these virtual machines (ids)' })
  static virtual_machine_id(_v: string, p: Predicates, values: string[]) {
    return p.generic('assigned_object', 'virtualization.vminterface', { virtual_machine__in: values });
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Assigned to these device interfaces (id or name)', lookups: ['n'] })
  static interface(_v: string, p: Predicates, values: string[]) {
    return byIdOrName(p, 'dcim.interface', values);
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Assigned to these device interfaces (ids)', lookups: ['n'] })
  static interface_id(_v: string, p: Predicates, values: string[]) {
    return p.generic('assigned_object', 'dcim.interface', { id__in: values });
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Assigned to these VM interfaces (id or name)', lookups: ['n'] })
  static vminterface(_v: string, p: Predicates, values: string[]) {
    return byIdOrName(p, 'virtualization.vminterface', values);
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Assigned to these VM interfaces (ids)', lookups: ['n'] })
  static vminterface_id(_v: string, p: Predicates, values: string[]) {
    return p.generic('assigned_object', 'virtualization.vminterface', { id__in: values });
  }

  @Filter({ type: 'boolean', help: 'Assigned to an interface (true) or not (false)' })
  static assigned_to_interface(value: boolean, p: Predicates) {
    return p.lookup('assigned_object_id', 'isnull', !value);
  }

  @Filter({ type: 'string', help: 'DNS name, description, or hosts inside the given (partial) address' })
  static q(value: string, p: Predicates) {
    return addressSearch(value, p);
  }
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Interfaces named by UUID or by name (names repeat across devices: all of them match). */
function byIdOrName(p: Predicates, label: string, values: string[]) {
  const ids = values.filter((v) => UUID.test(v));
  const names = values.filter((v) => !UUID.test(v));
  return p.or([
    ...(ids.length ? [p.generic('assigned_object', label, { id__in: ids })] : []),
    ...(names.length ? [p.generic('assigned_object', label, { name__in: names })] : []),
  ]);
}

const SLAAC_STATUS_ID = new DataKey<string | null>('ipam:slaac-status-id');

/** Id of the SLAAC status, looked up once per request (bulk creates validate many addresses). */
async function slaacStatusId(wc: WriteContext): Promise<string | null> {
  const key = SLAAC_STATUS_ID;
  if (wc.features.has(key)) return wc.features.get(key) ?? null;
  // A status not enabled for addresses cannot be an address's: only an enabled one is looked up.
  const slaac = await wc.store.statusFor(wc.registry.forClass(Status), 'slaac', 'ipam.ipaddress');
  const id = slaac === null ? null : String(slaac);
  wc.features.set(key, id);
  return id;
}
