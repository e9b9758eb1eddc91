import {
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  OrganizationalModel,
  RelatedCount,
  TreeDepth,
  TreeParent,
  ValidationError,
  type Id,
  type Values,
  type WriteContext,
} from '../../framework';
import { Location } from './location';
import { checkLocation } from './location-rules';
import { Rack } from './rack';
import { moved, moveGroupContents } from './propagation';
import { Site } from './site';

/** A tree of groupings of racks within one site (a hall, a row). */
@Model({
  path: 'rack-groups',
  display: 'name',
  brief: ['name', 'slug', 'rack_count', '_depth'],
  ordering: ['_tree_sort'],
  search: ['name', 'slug'],
  uniqueTogether: [['site', 'name'], ['site', 'slug']],
  features: ['locations'],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
    racks: { path: 'racks', by: 'id' },
    has_racks: { has: 'racks' },
    children: { path: 'children', naturalKey: 'slug', descendants: false },
    has_children: { has: 'children' },
  },
})
export class RackGroup extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100 })
  name!: string;

  /** Unique only together with the site, so generated slugs get no numeric suffix. */
  @Field.Slug({ maxLength: 100, from: 'name', unique: false })
  slug!: string;

  @ForeignKey(() => Site, { onDelete: 'cascade', related: 'rack_groups' })
  site!: Site;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'cascade', related: 'rack_groups' })
  location!: Location | null;

  @TreeParent()
  parent!: RackGroup | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Rack, 'group', { cumulative: true })
  rack_count!: number;

  @TreeDepth()
  _depth!: number;

  /** Child groups, racks and their devices follow the group to another site or location. */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    if (moved(values, wc)) await moveGroupContents(wc, wc.id, values.site as Id, (values.location as Id | null) ?? null);
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const parent = values.parent ? await wc.store.get(RackGroup, values.parent as Id) : null;
    if (parent && parent.site !== values.site) {
      const site = await wc.store.get(Site, values.site as Id);
      throw new ValidationError({ __all__: [`Parent rack group (${String(parent.name)}) must belong to the same site (${String(site?.name)})`] });
    }
    const lineage = await checkLocation(values, wc, 'Rack groups');
    if (lineage && parent?.location && !lineage.some((l) => l.id === parent.location)) {
      const parentLocation = await wc.store.get(Location, parent.location as Id);
      throw new ValidationError({
        location: [`Location "${String(lineage[0].name)}" is not descended from parent rack group "${String(parent.name)}" location "${String(parentLocation?.name)}".`],
      });
    }
  }
}
