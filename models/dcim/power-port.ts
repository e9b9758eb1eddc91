import { ChoiceField, ComputedField, Field, ForeignKey, Model, NaturalKey, NotesUrl, naturalize, type Values } from '../../framework';
import { checkDraw } from './component-template-rules';
import { PowerPortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS, PathEndpoint, CONNECTED_ENDPOINT, CONNECTED_ENDPOINT_TYPE, CONNECTED_ENDPOINT_REACHABLE, CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS } from './device-component';
import { Cable } from './cable';
import { Device } from './device';

/** A power inlet on a device. */
@Model({
  features: [CABLE_TERMINATIONS],
  path: 'power-ports',
  display: COMPONENT_DISPLAY,
  brief: ['device', 'name', 'cable'],
  ordering: ['device._name', 'device', '_name'],
  search: ['name', 'label', 'description'],
  uniqueTogether: [['device', 'name']],
  filters: {
    ...COMPONENT_FILTERS,
    power_outlets: { path: 'power_outlets', naturalKey: 'name' },
    has_power_outlets: { has: 'power_outlets' },
  },
})
export class PowerPort extends PathEndpoint {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'power_ports', naturalKey: 'name' })
  device!: Device;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(PowerPortTypeChoices, { blank: true })
  type!: string;

  @Field.Integer({ nullable: true, min: 1, max: 32767, help: 'Maximum power draw (watts)' })
  maximum_draw!: number | null;

  @Field.Integer({ nullable: true, min: 1, max: 32767, help: 'Allocated power draw (watts)' })
  allocated_draw!: number | null;

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

  static clean(values: Values): void {
    checkDraw(values);
  }
}
