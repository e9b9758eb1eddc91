import { ChoiceField, ComputedField, Field, ForeignKey, Model, NaturalKey, NotesUrl, naturalize } from '../../framework';
import { ConsolePortTypeChoices } from './component-choices';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS, PathEndpoint, UNCABLED } from './device-component';
import { Device } from './device';

/** A console (serial management) port on a device. */
@Model({
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

  @ComputedField(UNCABLED)
  cable!: null;

  @ComputedField(UNCABLED)
  cable_peer!: null;

  @ComputedField(UNCABLED)
  cable_peer_type!: null;

  @ComputedField(UNCABLED)
  connected_endpoint!: null;

  @ComputedField(UNCABLED)
  connected_endpoint_type!: null;

  @ComputedField(UNCABLED)
  connected_endpoint_reachable!: null;
}
