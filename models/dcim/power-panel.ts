import {
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  PrimaryModel,
  RelatedCount,
  ValidationError,
  type Id,
  type Values,
  type WriteContext,
} from '../../framework';
import { Location } from './location';
import { checkLocation } from './location-rules';
import { PowerFeed } from './power-feed';
import { RackGroup } from './rack-group';
import { Site } from './site';

/** An electrical distribution panel at a site that power feeds come from. */
@Model({
  path: 'power-panels',
  display: 'name',
  brief: ['name', 'powerfeed_count'],
  ordering: ['site._name', 'name'],
  search: ['name'],
  uniqueTogether: [['site', 'name']],
  features: ['locations'],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
    // Nautobot's `rack_group_id` takes slugs as well as UUIDs.
    rack_group_id: { path: 'rack_group' },
    power_feeds: { path: 'powerfeeds', naturalKey: 'name' },
    has_power_feeds: { has: 'powerfeeds' },
  },
})
export class PowerPanel extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Site, { onDelete: 'protect', related: 'power_panels' })
  site!: Site;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'powerpanels' })
  location!: Location | null;

  @ForeignKey(() => RackGroup, { nullable: true, onDelete: 'protect', related: 'power_panels', idFilter: false })
  rack_group!: RackGroup | null;

  @Field.String({ maxLength: 100 })
  name!: string;

  @RelatedCount(() => PowerFeed, 'power_panel')
  powerfeed_count!: number;

  /** Nautobot checks the location first, then the rack group against the site and the location. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const lineage = await checkLocation(values, wc, 'Power panels');
    const group = values.rack_group ? await wc.store.get(RackGroup, values.rack_group as Id) : null;
    if (!group) return;
    if (group.site !== values.site) {
      const [site, groupSite] = await Promise.all([wc.store.get(Site, values.site as Id), wc.store.get(Site, group.site as Id)]);
      throw ValidationError.model(`Rack group ${String(group.name)} (${String(groupSite?.name)}) is in a different site than ${String(site?.name)}`);
    }
    if (lineage && group.location && !lineage.some((l) => l.id === group.location)) {
      const groupLocation = await wc.store.get(Location, group.location as Id);
      throw ValidationError.field(
        'rack_group',
        `Rack group "${String(group.name)}" belongs to a location ("${String(groupLocation?.name)}") that does not contain "${String(lineage[0].name)}".`,
      );
    }
  }
}
