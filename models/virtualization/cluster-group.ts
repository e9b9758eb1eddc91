import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount } from '../../framework';
import { Cluster } from './cluster';

/** An optional grouping of clusters (by region, purpose…). */
@Model({
  path: 'cluster-groups',
  display: 'name',
  brief: ['name', 'slug', 'cluster_count'],
  ordering: ['name'],
  search: ['name', 'slug'],
  filters: {
    clusters: { path: 'clusters' },
    has_clusters: { has: 'clusters' },
  },
})
export class ClusterGroup extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Cluster, 'group')
  cluster_count!: number;
}
