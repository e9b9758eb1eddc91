import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount } from '../../framework';
import { DeviceType } from './device-type';
import { Platform } from './platform';

/** A hardware vendor; owns device types and may restrict platforms. */
@Model({
  path: 'manufacturers',
  display: 'name',
  brief: ['name', 'slug', 'devicetype_count'],
  ordering: ['name'],
  search: ['name', 'slug'],
  filters: {
    device_types: { path: 'device_types' },
    has_device_types: { has: 'device_types' },
    platforms: { path: 'platforms' },
    has_platforms: { has: 'platforms' },
  },
})
export class Manufacturer extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => DeviceType, 'manufacturer')
  devicetype_count!: number;

  @RelatedCount(() => Platform, 'manufacturer')
  platform_count!: number;
}
