import { ChoiceField, Field, ForeignKey, Model, NaturalKey, OrganizationalModel, naturalizeInterface } from '../../framework';
import { InterfaceTypeChoices } from './choices';
import { COMPONENT_DISPLAY } from './component-names';
import { DeviceType } from './device-type';

/** A network interface a device type describes; copied to every new device of the type. */
@Model({
  path: 'interface-templates',
  display: COMPONENT_DISPLAY,
  brief: ['name'],
  ordering: ['device_type', '_name'],
  search: ['name'],
  uniqueTogether: [['device_type', 'name']],
  filters: {
    devicetype_id: { path: 'device_type', by: 'id' },
  },
})
export class InterfaceTemplate extends OrganizationalModel {
  @ForeignKey(() => DeviceType, { onDelete: 'cascade', related: 'interface_templates', idFilter: false })
  device_type!: DeviceType;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalizeInterface(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(InterfaceTypeChoices, { single: true })
  type!: string;

  @Field.Boolean({ default: false, label: 'Management only' })
  mgmt_only!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;
}
