import {
  BaseModel,
  ChoiceField,
  CustomFieldsField,
  Field,
  ForeignKey,
  MACAddressField,
  Model,
  NaturalKey,
  StatusField,
  TagsField,
  naturalizeInterface,
} from '../../framework';
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
  },
})
export class VMInterface extends BaseModel {
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

  @TagsField()
  tags!: string[];

  @CustomFieldsField()
  custom_fields!: Record<string, unknown>;
}
