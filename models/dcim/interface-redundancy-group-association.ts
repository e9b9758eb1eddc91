import { Field, ForeignKey, Model, ChangeLoggedModel, TagsField } from '../../framework';
import { Interface } from './interface';
import { InterfaceRedundancyGroup } from './interface-redundancy-group';

/** An interface's membership in a redundancy group, with its priority. */
@Model({
  path: 'interface-redundancy-group-associations',
  display: {
    fields: ['interface_redundancy_group.name', 'interface.device.name', 'interface.name', 'priority'],
    render: (v) => `${String(v['interface_redundancy_group.name'])}: ${String(v['interface.device.name'])} ${String(v['interface.name'])}: ${String(v.priority)}`,
  },
  brief: ['priority'],
  ordering: ['interface_redundancy_group', '-priority'],
  uniqueTogether: [['interface_redundancy_group', 'interface']],
})
export class InterfaceRedundancyGroupAssociation extends ChangeLoggedModel {
  @TagsField()
  tags!: string[];

  @ForeignKey(() => Interface, { onDelete: 'cascade', related: 'redundancy_group_associations', naturalKey: 'name', idFilter: false })
  interface!: Interface;

  @ForeignKey(() => InterfaceRedundancyGroup, { onDelete: 'cascade', related: 'associations', naturalKey: 'name', idFilter: false })
  interface_redundancy_group!: InterfaceRedundancyGroup;

  @Field.Integer({ min: 0, max: 32767 })
  priority!: number;
}
