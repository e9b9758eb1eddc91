import { Field, ForeignKey, Model, NaturalKey, OrganizationalModel, naturalize, type Values, type WriteContext, ValidationError } from '../../framework';
import { COMPONENT_DISPLAY } from './component-names';
import { DeviceType } from './device-type';

/** A slot of a parent device type that can hold a child device. */
@Model({
  path: 'device-bay-templates',
  display: COMPONENT_DISPLAY,
  brief: ['name'],
  ordering: ['device_type', '_name'],
  search: ['name'],
  uniqueTogether: [['device_type', 'name']],
  filters: {
    devicetype_id: { path: 'device_type', by: 'id' },
  },
})
export class DeviceBayTemplate extends OrganizationalModel {
  @ForeignKey(() => DeviceType, { onDelete: 'cascade', related: 'device_bay_templates', idFilter: false })
  device_type!: DeviceType;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  /** Only parent device types have bays. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const type = await wc.store.get(DeviceType, values.device_type as string);
    if (type && type.subdevice_role !== 'parent') {
      throw ValidationError.model(`Subdevice role of device type (${String(type.model)}) must be set to "parent" to allow device bays.`);
    }
  }
}
