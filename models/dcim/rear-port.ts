import { ChoiceField, ComputedField, Field, ForeignKey, Model, NaturalKey, NotesUrl, naturalize, type Values, type WriteContext } from '../../framework';
import { checkRearPortPositions } from './component-rules';
import { PortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS, CableEnd, CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS } from './device-component';
import { Cable } from './cable';
import { Device } from './device';

/** A rear port of a device, carrying the positions of its front ports. */
@Model({
  features: [CABLE_TERMINATIONS],
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

  @ForeignKey(() => Cable, CABLE_FK)
  cable!: Cable | null;

  @ComputedField(CABLE_PEER)
  cable_peer!: unknown;

  @ComputedField(CABLE_PEER_TYPE)
  cable_peer_type!: string | null;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkRearPortPositions(values, wc);
  }
}
