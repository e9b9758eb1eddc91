import { ChoiceField, ComputedField, Field, ForeignKey, Model, NaturalKey, NotesUrl, naturalize, type Values, type WriteContext } from '../../framework';
import { checkRearPortPositions } from './component-rules';
import { PortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS, CableEnd, UNCABLED } from './device-component';
import { Device } from './device';

/** A rear port of a device, carrying the positions of its front ports. */
@Model({
  path: 'rear-ports',
  display: COMPONENT_DISPLAY,
  brief: ['device', 'name', 'cable'],
  ordering: ['device._name', 'device', '_name'],
  search: ['name', 'label', 'description'],
  uniqueTogether: [['device', 'name']],
  filters: {
    ...COMPONENT_FILTERS,
    front_ports: { path: 'front_ports', naturalKey: 'name' },
    has_front_ports: { has: 'front_ports' },
  },
})
export class RearPort extends CableEnd {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'rear_ports', naturalKey: 'name' })
  device!: Device;

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

  @ComputedField(UNCABLED)
  cable!: null;

  @ComputedField(UNCABLED)
  cable_peer!: null;

  @ComputedField(UNCABLED)
  cable_peer_type!: null;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkRearPortPositions(values, wc);
  }
}
