import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount } from '../../framework';
import { VirtualMachine } from '../virtualization/virtual-machine';
import { Device } from './device';

/** The function of a device (leaf, spine, firewall); also offered to VMs when `vm_role` is set. */
@Model({
  path: 'device-roles',
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
export class DeviceRole extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 6, pattern: /^[0-9a-f]{6}$/, patternMessage: 'Enter a valid hexadecimal RGB color code.', default: '9e9e9e', required: false })
  color!: string;

  @Field.Boolean({ default: true, label: 'VM Role' })
  vm_role!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Device, 'device_role')
  device_count!: number;

  @RelatedCount(() => VirtualMachine, 'role')
  virtualmachine_count!: number;
}
