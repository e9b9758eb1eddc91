import {
  NotesUrl,
  ChoiceField,
  Field,
  Filter,
  ForeignKey,
  MACAddressField,
  ManyToMany,
  Model,
  NaturalKey,
  ComputedField,
  RelatedCount,
  StatusField,
  ValidationError,
  naturalizeInterface,
  type Predicate,
  type Predicates,
  type Values,
  type WriteContext,
} from '../../framework';
import { Status } from '../extras/status';
import { IPAddress } from '../ipam/ip-address';
import { VLAN } from '../ipam/vlan';
import { checkVlanAssignment } from '../ipam/vlan-assignment';
import { InterfaceModeChoices, InterfaceTypeChoices, VIRTUAL_INTERFACE_TYPES, WIRELESS_INTERFACE_TYPES } from './choices';
import { Device } from './device';
import { withChassisMembers } from './chassis-interfaces';
import { checkSameDeviceOrChassis } from './interface-chassis-rules';
import { PathEndpoint, CONNECTED_ENDPOINT, CONNECTED_ENDPOINT_TYPE, CONNECTED_ENDPOINT_REACHABLE, CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS } from './device-component';
import { Cable } from './cable';

/** An interface's text in messages: its name, with the label in parentheses when there is one. */
function describe(values: Values): string {
  return values.label ? `${String(values.name)} (${String(values.label)})` : String(values.name);
}

/** A network interface on a device (physical, LAG, virtual, wireless). */
@Model({
  features: [CABLE_TERMINATIONS],
  path: 'interfaces',
  display: { fields: ['name', 'label'], render: (v) => describe(v) },
  brief: ['device', 'name', 'cable'],
  ordering: ['device._name', 'device', '_name'],
  search: ['name', 'label', 'description'],
  uniqueTogether: [['device', 'name']],
  filters: {
    region: { path: 'device.site.region' },
    region_id: { path: 'device.site.region' },
    site: { path: 'device.site', naturalKey: 'slug' },
    site_id: { path: 'device.site', by: 'id' },
    child_interfaces: { path: 'child_interfaces' },
    has_child_interfaces: { has: 'child_interfaces' },
    bridged_interfaces: { path: 'bridged_interfaces' },
    has_bridged_interfaces: { has: 'bridged_interfaces' },
    member_interfaces: { path: 'member_interfaces' },
    has_member_interfaces: { has: 'member_interfaces' },
    tagged_vlans: { path: 'tagged_vlans', naturalKey: 'vid' },
    has_tagged_vlans: { has: 'tagged_vlans' },
  },
})
export class Interface extends PathEndpoint {
  @NotesUrl()
  notes_url!: string;

  // Filtered by the named `device`/`device_id` filters below, as Nautobot's method filters do.
  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'interfaces', lookups: false })
  device!: Device;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalizeInterface(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  /** API 1.2 and 1.3 have no status: an interface created there is active. */
  @StatusField(() => Status, { since: '1.4', defaultSlug: 'active' })
  status!: Status;

  @ChoiceField(InterfaceTypeChoices)
  type!: string;

  @Field.Boolean({ default: true })
  enabled!: boolean;

  @ForeignKey(() => Interface, { nullable: true, onDelete: 'cascade', related: 'child_interfaces', idFilter: false, label: 'Parent interface' })
  parent_interface!: Interface | null;

  @ForeignKey(() => Interface, { nullable: true, onDelete: 'set_null', related: 'bridged_interfaces', idFilter: false, label: 'Bridge interface' })
  bridge!: Interface | null;

  @ForeignKey(() => Interface, { nullable: true, onDelete: 'set_null', related: 'member_interfaces', label: 'Parent LAG' })
  lag!: Interface | null;

  @Field.Integer({ nullable: true, min: 1, max: 65536, label: 'MTU' })
  mtu!: number | null;

  @MACAddressField({ label: 'MAC Address' })
  mac_address!: string | null;

  @Field.Boolean({ default: false, label: 'Management only', help: 'This interface is used only for out-of-band management' })
  mgmt_only!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ChoiceField(InterfaceModeChoices, { blank: true, single: true })
  mode!: string;

  @ForeignKey(() => VLAN, { nullable: true, onDelete: 'set_null', related: 'interfaces_as_untagged', idFilter: false, naturalKey: 'vid', label: 'Untagged VLAN' })
  untagged_vlan!: VLAN | null;

  @ManyToMany(() => VLAN, { writeBy: 'pk', required: false, lookups: false, related: 'interfaces_as_tagged', label: 'Tagged VLANs' })
  tagged_vlans!: string[];

  @ForeignKey(() => Cable, CABLE_FK)
  cable!: Cable | null;

  @ComputedField(CABLE_PEER)
  cable_peer!: unknown;

  @ComputedField(CABLE_PEER_TYPE)
  cable_peer_type!: string | null;

  @ComputedField(CONNECTED_ENDPOINT)
  connected_endpoint!: unknown;

  @ComputedField(CONNECTED_ENDPOINT_TYPE)
  connected_endpoint_type!: string | null;

  @ComputedField(CONNECTED_ENDPOINT_REACHABLE)
  connected_endpoint_reachable!: boolean | null;

  /** IP addresses assigned to this interface. */
  @RelatedCount(() => IPAddress, 'assigned_object', { label: 'Count ipaddresses' })
  count_ipaddresses!: number;

  /** Interfaces of these devices (and, with virtual chassis, of their other members), by name. */
  @Filter({ type: 'string', multiple: 'or', help: 'Device (name)' })
  static device(_value: string, p: Predicates, names: string[]): Predicate {
    return withChassisMembers(p, 'name', names);
  }

  /** Interfaces of these devices (and, with virtual chassis, of their other members), by id. */
  @Filter({ type: 'uuid', multiple: 'or', help: 'Device (ID)' })
  static device_id(_value: string, p: Predicates, ids: string[]): Predicate {
    return withChassisMembers(p, 'id', ids);
  }

  /** Interfaces of one device and of the other members of its virtual chassis. */
  @Filter({ type: 'uuid', help: 'Device (ID), with its virtual chassis' })
  static device_with_common_vc(value: string, p: Predicates): Predicate {
    return p.or([p.lookup('device', 'exact', value), p.lookup('device__virtual_chassis__members__id', 'exact', value)]);
  }

  /** `physical` (cable-able types), `virtual` (virtual, bridge, LAG) or `wireless`; anything else matches nothing. */
  @Filter({ type: 'string', help: 'Kind of interface: physical, virtual or wireless' })
  static kind(value: string, p: Predicates): Predicate {
    const kind = value.trim().toLowerCase();
    if (kind === 'physical') return p.not(p.lookup('type', 'in', [...VIRTUAL_INTERFACE_TYPES, ...WIRELESS_INTERFACE_TYPES]));
    if (kind === 'virtual') return p.lookup('type', 'in', VIRTUAL_INTERFACE_TYPES);
    if (kind === 'wireless') return p.lookup('type', 'in', WIRELESS_INTERFACE_TYPES);
    return p.or([]);
  }

  /** Interfaces where this VLAN (by id) is untagged or tagged. */
  @Filter({ type: 'uuid', help: 'VLAN (ID), tagged or untagged' })
  static vlan_id(value: string, p: Predicates): Predicate {
    return p.or([p.lookup('untagged_vlan', 'exact', value), p.lookup('tagged_vlans__id', 'exact', value)]);
  }

  /** Interfaces where a VLAN with this VID is untagged or tagged. */
  @Filter({ type: 'integer', help: 'VLAN (VID), tagged or untagged' })
  static vlan(value: number, p: Predicates): Predicate {
    return p.or([p.lookup('untagged_vlan__vid', 'exact', value), p.lookup('tagged_vlans__vid', 'exact', value)]);
  }

  /** Nautobot's Interface serializer and clean: VLAN modes, then LAG, parent and bridge on the interface's device or virtual chassis. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const device = values.device as string;
    await checkVlanAssignment(values, wc, async () => {
      const [owner] = await wc.store.find(Device, { id: device });
      return { noun: 'device', site: (owner?.site as string | null | undefined) ?? null, checkUntaggedSite: true };
    });
    if (values.lag) {
      if (values.lag === wc.id) throw new ValidationError({ lag: ['A LAG interface cannot be its own parent.'] });
      const lag = (await wc.store.get(Interface, values.lag as string)) as Values;
      await checkSameDeviceOrChassis(wc, device, lag, 'lag', 'LAG interface');
      if (values.type === 'virtual') throw new ValidationError({ lag: ['Virtual interfaces cannot have a parent LAG interface.'] });
    }
    if (values.parent_interface) {
      if (values.parent_interface === wc.id) throw new ValidationError({ parent_interface: ['An interface cannot be its own parent.'] });
      if (values.type !== 'virtual') {
        throw new ValidationError({ parent_interface: ['Only virtual interfaces may be assigned to a parent interface.'] });
      }
      const parent = (await wc.store.get(Interface, values.parent_interface as string)) as Values;
      if (parent.type === 'virtual') {
        throw new ValidationError({ parent_interface: ['Virtual interfaces may not be parents of other interfaces.'] });
      }
      await checkSameDeviceOrChassis(wc, device, parent, 'parent_interface', 'parent interface');
    }
    if (values.bridge) {
      if (values.bridge === wc.id) throw new ValidationError({ bridge: ['An interface cannot be bridged to itself.'] });
      const bridge = (await wc.store.get(Interface, values.bridge as string)) as Values;
      await checkSameDeviceOrChassis(wc, device, bridge, 'bridge', 'bridge interface');
    }
  }
}
