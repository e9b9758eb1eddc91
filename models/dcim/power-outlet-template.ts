import { ChoiceField, Field, ForeignKey, Model, NaturalKey, OrganizationalModel, naturalize, type Values, type WriteContext } from '../../framework';
import { sameTypeTemplate } from './component-template-rules';
import { PowerOutletTypeChoices, PowerOutletFeedLegChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { DeviceType } from './device-type';
import { PowerPortTemplate } from './power-port-template';

/** A power outlet a device type describes, optionally fed by one of its power port templates. */
@Model({
  path: 'power-outlet-templates',
  display: COMPONENT_DISPLAY,
  brief: ['name'],
  ordering: ['device_type', '_name'],
  search: ['name'],
  uniqueTogether: [['device_type', 'name']],
  filters: {
    devicetype_id: { path: 'device_type', by: 'id' },
    power_port_template: { path: 'power_port', naturalKey: 'name' },
  },
})
export class PowerOutletTemplate extends OrganizationalModel {
  @ForeignKey(() => DeviceType, { onDelete: 'cascade', related: 'power_outlet_templates', idFilter: false })
  device_type!: DeviceType;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(PowerOutletTypeChoices, { blank: true, single: true })
  type!: string;

  @ForeignKey(() => PowerPortTemplate, { nullable: true, onDelete: 'set_null', related: 'power_outlet_templates', naturalFilter: false, idFilter: false })
  power_port!: PowerPortTemplate | null;

  @ChoiceField(PowerOutletFeedLegChoices, { blank: true, single: true, help: 'Phase (for three-phase feeds)' })
  feed_leg!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await sameTypeTemplate(wc, values, 'power_port', (pp) => `Parent power port (${pp}) must belong to the same device type`);
  }
}
