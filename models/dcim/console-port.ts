import { ChoiceField, ComputedField, Field, ForeignKey, Model, NaturalKey, NotesUrl, naturalize } from '../../framework';
import { ConsolePortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS, PathEndpoint, CONNECTED_ENDPOINT, CONNECTED_ENDPOINT_TYPE, CONNECTED_ENDPOINT_REACHABLE, CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS } from './device-component';
import { Cable } from './cable';
import { Device } from './device';

/** A console (serial management) port on a device. */
@Model({
  features: [CABLE_TERMINATIONS],
  path: 'console-ports',
  display: COMPONENT_DISPLAY,
  brief: ['device', 'name', 'cable'],
  ordering: ['device._name', 'device', '_name'],
  search: ['name', 'label', 'description'],
  uniqueTogether: [['device', 'name']],
  filters: {
    ...COMPONENT_FILTERS,
  },
})
export class ConsolePort extends PathEndpoint {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'console_ports', naturalKey: 'name' })
  device!: Device;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @ChoiceField(ConsolePortTypeChoices, { blank: true })
  type!: string;

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
}
