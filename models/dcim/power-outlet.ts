import { ChoiceField, ComputedField, Field, ForeignKey, Model, NaturalKey, NotesUrl, naturalize, type Values, type WriteContext } from '../../framework';
import { checkOutletPowerPort } from './component-rules';
import { PowerOutletTypeChoices, PowerOutletFeedLegChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS, PathEndpoint, CONNECTED_ENDPOINT, CONNECTED_ENDPOINT_TYPE, CONNECTED_ENDPOINT_REACHABLE, CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS } from './device-component';
import { Cable } from './cable';
import { Device } from './device';
import { PowerPort } from './power-port';

/** A power outlet on a device (a PDU), optionally fed by one of its power ports. */
@Model({
  features: [CABLE_TERMINATIONS],
  path: 'power-outlets',
  display: COMPONENT_DISPLAY,
  brief: ['device', 'name', 'cable'],
  ordering: ['device._name', 'device', '_name'],
  search: ['name', 'label', 'description'],
  uniqueTogether: [['device', 'name']],
  filters: {
    ...COMPONENT_FILTERS,
    power_port: { path: 'power_port', by: 'id' },
  },
})
export class PowerOutlet extends PathEndpoint {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'power_outlets', naturalKey: 'name' })
  device!: Device;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(PowerOutletTypeChoices, { blank: true })
  type!: string;

  @ForeignKey(() => PowerPort, { nullable: true, onDelete: 'set_null', related: 'power_outlets', naturalFilter: false, idFilter: false })
  power_port!: PowerPort | null;

  @ChoiceField(PowerOutletFeedLegChoices, { blank: true, single: true, help: 'Phase (for three-phase feeds)' })
  feed_leg!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ForeignKey(() => Cable, CABLE_FK)
  cable!: Cable | null;

  @ComputedField(CABLE_PEER)
  cable_peer!: unknown;

  @ComputedField(CABLE_PEER_TYPE)
  cable_peer_type!: string | null;

  @ComputedField(CONNECTED_ENDPOINT)
  connected_endpoint!: unknown;

  @ComputedField(CONNECTED_ENDPOINT_TYPE)
  connected_endpoint_type!: string | null;

  @ComputedField(CONNECTED_ENDPOINT_REACHABLE)
  connected_endpoint_reachable!: boolean | null;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkOutletPowerPort(values, wc);
  }
}
