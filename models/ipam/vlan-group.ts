import { NotesUrl, Field, ForeignKey, Model, OrganizationalModel, RelatedCount, type Values, type WriteContext } from '../../framework';
import { Site } from '../dcim/site';
import { Location } from '../dcim/location';
import { checkLocation } from '../dcim/location-rules';
import { VLAN } from './vlan';

/** A set of VLANs sharing a numbering space, optionally bound to a site. */
@Model({
  path: 'vlan-groups',
  verboseName: 'VLAN group',
  display: 'name',
  brief: ['name', 'slug', 'vlan_count'],
  ordering: ['site.name', 'name'],
  features: ['locations'],
  search: ['name', 'slug'],
  uniqueTogether: [['site', 'name'], ['site', 'slug']],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
  },
})
export class VLANGroup extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100 })
  name!: string;

  /** Unique only together with the site, so generated slugs get no numeric suffix. */
  @Field.Slug({ maxLength: 100, from: 'name', unique: false })
  slug!: string;

  @ForeignKey(() => Site, { nullable: true, onDelete: 'protect', related: 'vlan_groups' })
  site!: Site | null;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'vlan_groups' })
  location!: Location | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => VLAN, 'group')
  vlan_count!: number;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkLocation(values, wc, 'VLAN groups');
  }
}
