import { ChoiceField, Field, ForeignKey, Model, NaturalKey, OrganizationalModel, naturalize, type Values, type WriteContext } from '../../framework';
import { checkRearPortTemplate } from './component-template-rules';
import { PortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { DeviceType } from './device-type';
import { RearPortTemplate } from './rear-port-template';

/** A front port a device type describes, mapped to a position of one of its rear port templates. */
@Model({
  path: 'front-port-templates',
  display: COMPONENT_DISPLAY,
  brief: ['name'],
  ordering: ['device_type', '_name'],
  search: ['name'],
  uniqueTogether: [['device_type', 'name'], ['rear_port', 'rear_port_position']],
  filters: {
    devicetype_id: { path: 'device_type', by: 'id' },
    rear_port_template: { path: 'rear_port', by: 'id' },
  },
})
export class FrontPortTemplate extends OrganizationalModel {
  @ForeignKey(() => DeviceType, { onDelete: 'cascade', related: 'front_port_templates', idFilter: false })
  device_type!: DeviceType;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(PortTypeChoices, { single: true })
  type!: string;

  @ForeignKey(() => RearPortTemplate, { onDelete: 'cascade', related: 'front_port_templates', naturalFilter: false, idFilter: false })
  rear_port!: RearPortTemplate;

  @Field.Integer({ min: 1, max: 1024, default: 1, required: false })
  rear_port_position!: number;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkRearPortTemplate(values, wc);
  }
}
