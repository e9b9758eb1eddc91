import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount } from '../../framework';
import { Cluster } from './cluster';

/** The kind of virtualisation platform a cluster runs (VMware vSphere, Proxmox…). */
@Model({
  path: 'cluster-types',
  display: 'name',
  brief: ['name', 'slug', 'cluster_count'],
  ordering: ['name'],
  search: ['name', 'slug'],
  filters: {
    clusters: { path: 'clusters' },
    has_clusters: { has: 'clusters' },
  },
})
export class ClusterType extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Cluster, 'type')
  cluster_count!: number;
}
