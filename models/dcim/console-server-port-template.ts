import { ChoiceField, Field, ForeignKey, Model, NaturalKey, OrganizationalModel, naturalize } from '../../framework';
import { ConsolePortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { DeviceType } from './device-type';

/** A console server port a device type describes; copied to every new device of the type. */
@Model({
  path: 'console-server-port-templates',
  display: COMPONENT_DISPLAY,
  brief: ['name'],
  ordering: ['device_type', '_name'],
  search: ['name'],
  uniqueTogether: [['device_type', 'name']],
  filters: {
    devicetype_id: { path: 'device_type', by: 'id' },
  },
})
export class ConsoleServerPortTemplate extends OrganizationalModel {
  @ForeignKey(() => DeviceType, { onDelete: 'cascade', related: 'console_server_port_templates', idFilter: false })
  device_type!: DeviceType;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(ConsolePortTypeChoices, { blank: true, single: true })
  type!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;
}
