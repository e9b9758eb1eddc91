import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount, TreeDepth, TreeParent } from '../../framework';
import { Site } from './site';

/** A node in a geographic tree (continent, country, metro…) that sites are placed in. */
@Model({
  path: 'regions',
  display: 'name',
  brief: ['name', 'slug', 'site_count', '_depth'],
  ordering: ['_tree_sort'],
  search: ['name', 'slug'],
  filters: {
    has_children: { has: 'children' },
    sites: { path: 'sites' },
    has_sites: { has: 'sites' },
  },
})
export class Region extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @TreeParent()
  parent!: Region | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Site, 'region', { cumulative: true })
  site_count!: number;

  @TreeDepth()
  _depth!: number;
}
