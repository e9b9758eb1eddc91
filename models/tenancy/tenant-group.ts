import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount, TreeDepth, TreeParent } from '../../framework';
import { Tenant } from './tenant';

/** A node in the tree organising tenants. */
@Model({
  path: 'tenant-groups',
  display: 'name',
  brief: ['name', 'slug', 'tenant_count', '_depth'],
  ordering: ['_tree_sort'],
  search: ['name', 'slug'],
})
export class TenantGroup extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @TreeParent()
  parent!: TenantGroup | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Tenant, 'group', { cumulative: true })
  tenant_count!: number;

  @TreeDepth()
  _depth!: number;
}
