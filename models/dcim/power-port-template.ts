import { ChoiceField, Field, ForeignKey, Model, NaturalKey, OrganizationalModel, naturalize, type Values } from '../../framework';
import { checkDraw } from './component-template-rules';
import { PowerPortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { DeviceType } from './device-type';

/** A power inlet a device type describes, with its maximum and allocated draw. */
@Model({
  path: 'power-port-templates',
  display: COMPONENT_DISPLAY,
  brief: ['name'],
  ordering: ['device_type', '_name'],
  search: ['name'],
  uniqueTogether: [['device_type', 'name']],
  filters: {
    devicetype_id: { path: 'device_type', by: 'id' },
    power_outlet_templates: { path: 'power_outlet_templates' },
    has_power_outlet_templates: { has: 'power_outlet_templates' },
  },
})
export class PowerPortTemplate extends OrganizationalModel {
  @ForeignKey(() => DeviceType, { onDelete: 'cascade', related: 'power_port_templates', idFilter: false })
  device_type!: DeviceType;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(PowerPortTypeChoices, { blank: true, single: true })
  type!: string;

  @Field.Integer({ nullable: true, min: 1, max: 32767, help: 'Maximum power draw (watts)' })
  maximum_draw!: number | null;

  @Field.Integer({ nullable: true, min: 1, max: 32767, help: 'Allocated power draw (watts)' })
  allocated_draw!: number | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  static clean(values: Values): void {
    checkDraw(values);
  }
}
