import { ChoiceField, Field, ForeignKey, Model, NaturalKey, OrganizationalModel, naturalize } from '../../framework';
import { PortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { DeviceType } from './device-type';

/** A rear port a device type describes, with the number of front positions it carries. */
@Model({
  path: 'rear-port-templates',
  display: COMPONENT_DISPLAY,
  brief: ['name'],
  ordering: ['device_type', '_name'],
  search: ['name'],
  uniqueTogether: [['device_type', 'name']],
  filters: {
    devicetype_id: { path: 'device_type', by: 'id' },
    front_port_templates: { path: 'front_port_templates', by: 'id' },
    has_front_port_templates: { has: 'front_port_templates' },
  },
})
export class RearPortTemplate extends OrganizationalModel {
  @ForeignKey(() => DeviceType, { onDelete: 'cascade', related: 'rear_port_templates', idFilter: false })
  device_type!: DeviceType;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(PortTypeChoices, { single: true })
  type!: string;

  @Field.Integer({ min: 1, max: 1024, default: 1, required: false })
  positions!: number;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;
}
