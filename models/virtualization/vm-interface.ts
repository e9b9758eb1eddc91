import {
  NotesUrl,
  BaseModel,
  ChoiceField,
  CustomFieldsField,
  Field,
  ForeignKey,
  MACAddressField,
  ManyToMany,
  Model,
  NaturalKey,
  StatusField,
  TagsField,
  naturalizeInterface,
  Filter,
  type Predicate,
  type Predicates,
  type Values,
  type WriteContext,
} from '../../framework';
import { VLAN } from '../ipam/vlan';
import { checkVlanAssignment } from '../ipam/vlan-assignment';
import { addressOrIdAttributes } from '../ipam/network-filters';
import { Cluster } from './cluster';
import { InterfaceModeChoices } from '../dcim/choices';
import { Status } from '../extras/status';
import { VirtualMachine } from './virtual-machine';

/**
 * A network interface of a virtual machine. Not change-logged in Nautobot (no `created` or
 * `last_updated`), and unlike device interfaces its parent and bridge are not checked to belong
 * to the same VM.
 */
@Model({
  path: 'interfaces',
  name: 'vminterface',
  verboseName: 'VM interface',
  display: 'name',
  brief: ['virtual_machine', 'name'],
  ordering: ['virtual_machine.name', 'virtual_machine', '_name'],
  search: ['name'],
  uniqueTogether: [['virtual_machine', 'name']],
  filters: {
    cluster: { path: 'virtual_machine.cluster' },
    cluster_id: { path: 'virtual_machine.cluster', by: 'id' },
    child_interfaces: { path: 'child_interfaces' },
    has_child_interfaces: { has: 'child_interfaces' },
    bridged_interfaces: { path: 'bridged_interfaces' },
    has_bridged_interfaces: { has: 'bridged_interfaces' },
    tagged_vlans: { path: 'tagged_vlans', naturalKey: 'vid' },
    has_tagged_vlans: { has: 'tagged_vlans' },
  },
})
export class VMInterface extends BaseModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => VirtualMachine, { onDelete: 'cascade', related: 'interfaces' })
  virtual_machine!: VirtualMachine;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalizeInterface(name, 100))
  _name!: string;

  @Field.Boolean({ default: true })
  enabled!: boolean;

  /** API 1.2 and 1.3 have no status: an interface created there is active. */
  @StatusField(() => Status, { since: '1.4', defaultSlug: 'active' })
  status!: Status;

  @ForeignKey(() => VMInterface, { nullable: true, onDelete: 'cascade', related: 'child_interfaces', idFilter: false, label: 'Parent interface' })
  parent_interface!: VMInterface | null;

  @ForeignKey(() => VMInterface, { nullable: true, onDelete: 'set_null', related: 'bridged_interfaces', idFilter: false, label: 'Bridge interface' })
  bridge!: VMInterface | null;

  @Field.Integer({ nullable: true, min: 1, max: 65536, label: 'MTU' })
  mtu!: number | null;

  @MACAddressField({ label: 'MAC Address' })
  mac_address!: string | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ChoiceField(InterfaceModeChoices, { blank: true, single: true })
  mode!: string;

  @ForeignKey(() => VLAN, { nullable: true, onDelete: 'set_null', related: 'vminterfaces_as_untagged', idFilter: false, naturalKey: 'vid', label: 'Untagged VLAN' })
  untagged_vlan!: VLAN | null;

  @ManyToMany(() => VLAN, { writeBy: 'pk', required: false, lookups: false, related: 'vminterfaces_as_tagged', label: 'Tagged VLANs' })
  tagged_vlans!: string[];

  @TagsField()
  tags!: string[];

  @CustomFieldsField()
  custom_fields!: Record<string, unknown>;

  /** Interfaces carrying any of these IP addresses (ids, or address strings with or without mask). */
  @Filter({ type: 'address', multiple: 'or', help: 'IP addresses (ID or address)' })
  static ip_addresses(_value: string, p: Predicates, values: string[]): Predicate {
    return p.or(values.map((v) => p.pointedAtBy('ipam.ipaddress', 'assigned_object', addressOrIdAttributes(v))));
  }

  @Filter({ type: 'boolean', help: 'Has IP addresses' })
  static has_ip_addresses(value: boolean, p: Predicates): Predicate {
    const any = p.pointedAtBy('ipam.ipaddress', 'assigned_object', {});
    return value ? any : p.not(any);
  }

  /** The serializer's VLAN mode rules; tagged VLANs must be global or at the VM's (cluster's) site. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkVlanAssignment(values, wc, async () => {
      const [vm] = await wc.store.find(VirtualMachine, { id: values.virtual_machine });
      const [cluster] = vm ? await wc.store.find(Cluster, { id: vm.cluster }) : [];
      return { noun: 'virtual machine', site: (cluster?.site as string | null | undefined) ?? null, checkUntaggedSite: false };
    });
  }
}
