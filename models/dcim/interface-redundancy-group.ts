import { ChoiceField, Field, ForeignKey, Model, NotesUrl, PrimaryModel, ReverseList, StatusField } from '../../framework';
import { Status } from '../extras/status';
import { IPAddress } from '../ipam/ip-address';
import { RedundancyProtocolChoices } from './component-choices';
import { InterfaceRedundancyGroupAssociation } from './interface-redundancy-group-association';

/** Interfaces sharing a virtual IP address through a first-hop redundancy protocol (HSRP, VRRP…). */
@Model({
  path: 'interface-redundancy-groups',
  display: 'name',
  brief: ['name', 'protocol'],
  ordering: ['name'],
  search: ['name'],
})
export class InterfaceRedundancyGroup extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @StatusField(() => Status)
  status!: Status;

  @ChoiceField(RedundancyProtocolChoices, { single: true })
  protocol!: string;

  /** The group's memberships; members are added through the associations endpoint. */
  @ReverseList(() => InterfaceRedundancyGroupAssociation, 'interface_redundancy_group')
  interfaces!: unknown[];

  // Deleting the virtual IP deletes the group, as in Nautobot.
  @ForeignKey(() => IPAddress, { nullable: true, onDelete: 'cascade', related: 'interface_redundancy_groups', naturalFilter: false, idFilter: false })
  virtual_ip!: IPAddress | null;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @Field.String({ maxLength: 50, blank: true, label: 'Protocol group ID' })
  protocol_group_id!: string;
}
