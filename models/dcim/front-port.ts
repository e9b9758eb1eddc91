import { ChoiceField, ComputedField, Field, ForeignKey, Model, NaturalKey, NotesUrl, naturalize, type Values, type WriteContext } from '../../framework';
import { checkFrontPort } from './component-rules';
import { PortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS, CableEnd, CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS } from './device-component';
import { Cable } from './cable';
import { Device } from './device';
import { RearPort } from './rear-port';

/** A front (patch-panel) port passing through to a position of a rear port of the same device. */
@Model({
  features: [CABLE_TERMINATIONS],
  path: 'front-ports',
  display: COMPONENT_DISPLAY,
  brief: ['device', 'name', 'cable'],
  ordering: ['device._name', 'device', '_name'],
  search: ['name', 'label', 'description'],
  uniqueTogether: [['device', 'name'], ['rear_port', 'rear_port_position']],
  filters: {
    ...COMPONENT_FILTERS,
  },
})
export class FrontPort extends CableEnd {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'front_ports', naturalKey: 'name' })
  device!: Device;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(PortTypeChoices, { single: true })
  type!: string;

  @ForeignKey(() => RearPort, { onDelete: 'cascade', related: 'front_ports', naturalKey: 'name', idFilter: false })
  rear_port!: RearPort;

  @Field.Integer({ min: 1, max: 1024, default: 1, required: false })
  rear_port_position!: number;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ForeignKey(() => Cable, CABLE_FK)
  cable!: Cable | null;

  @ComputedField(CABLE_PEER)
  cable_peer!: unknown;

  @ComputedField(CABLE_PEER_TYPE)
  cable_peer_type!: string | null;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkFrontPort(values, wc);
  }
}
