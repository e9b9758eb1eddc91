import { NotesUrl, ComputedField, Field, ForeignKey, Filter, Model, OrganizationalModel, RelatedCount, type Predicate, type Predicates } from '../../framework';
import { VirtualMachine } from '../virtualization/virtual-machine';
import { Device } from './device';
import { Manufacturer } from './manufacturer';
import { networkDriverMappings } from './network-drivers';

/** The software running on a device or VM (Junos, EOS), with driver names for automation libraries. */
@Model({
  path: 'platforms',
  display: 'name',
  brief: ['name', 'slug', 'device_count', 'virtualmachine_count'],
  ordering: ['name'],
  search: ['name', 'slug'],
  filters: {
    devices: { path: 'devices', by: 'id' },
    has_devices: { has: 'devices' },
    virtual_machines: { path: 'virtual_machines', by: 'id' },
    has_virtual_machines: { has: 'virtual_machines' },
  },
})
export class Platform extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  /** Optionally limits the platform to devices of this vendor (checked on the device). */
  @ForeignKey(() => Manufacturer, { nullable: true, onDelete: 'protect', related: 'platforms' })
  manufacturer!: Manufacturer | null;

  @Field.String({ maxLength: 50, blank: true, label: 'NAPALM driver' })
  napalm_driver!: string;

  @Field.JSON({ label: 'NAPALM arguments' })
  napalm_args!: unknown;

  @Field.String({ maxLength: 100, blank: true })
  network_driver!: string;

  @ComputedField({ from: ['network_driver'], compute: (v) => networkDriverMappings(v.network_driver) })
  network_driver_mappings!: Record<string, string>;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Device, 'platform')
  device_count!: number;

  @RelatedCount(() => VirtualMachine, 'platform')
  virtualmachine_count!: number;

  /** Nautobot filters the stored JSON as text (`napalm_args__icontains`). */
  @Filter({ type: 'string', multiple: 'or', help: 'NAPALM arguments containing the text' })
  static napalm_args(_value: string, p: Predicates, values: string[]): Predicate {
    return p.or(values.map((v) => p.lookup('napalm_args', 'icontains', v)));
  }
}
