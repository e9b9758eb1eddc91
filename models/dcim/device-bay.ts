import { Field, ForeignKey, Model, NaturalKey, NotesUrl, PrimaryModel, naturalize, type Values, type WriteContext } from '../../framework';
import { COMPONENT_DISPLAY } from './component-names';
import { COMPONENT_FILTERS } from './device-component';
import { Device } from './device';
import { checkDeviceBay, checkInstalledOnce } from './device-bay-rules';

/** A slot in a parent device into which a child device is installed. */
@Model({
  path: 'device-bays',
  display: COMPONENT_DISPLAY,
  brief: ['device', 'name'],
  ordering: ['device._name', 'device', '_name'],
  search: ['name', 'label', 'description'],
  uniqueTogether: [['device', 'name']],
  filters: {
    ...COMPONENT_FILTERS,
  },
})
export class DeviceBay extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Device, { onDelete: 'cascade', related: 'device_bays', naturalKey: 'name' })
  device!: Device;

  @Field.String({ maxLength: 64 })
  name!: string;

  @NaturalKey('name', (name) => naturalize(name, 100))
  _name!: string;

  @Field.String({ maxLength: 64, blank: true, help: 'Physical label' })
  label!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ForeignKey(() => Device, { nullable: true, onDelete: 'set_null', unique: true, related: 'parent_bay', naturalKey: 'name', idFilter: false })
  installed_device!: Device | null;

  static async prepare(values: Values, wc: WriteContext): Promise<void> {
    await checkInstalledOnce(values, wc);
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkDeviceBay(values, wc);
  }
}
