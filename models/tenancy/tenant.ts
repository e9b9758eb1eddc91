import { NotesUrl, Field, ForeignKey, Model, PrimaryModel, RelatedCount } from '../../framework';
import { Device } from '../dcim/device';
import { Site } from '../dcim/site';
import { Cluster } from '../virtualization/cluster';
import { VirtualMachine } from '../virtualization/virtual-machine';
import { TenantGroup } from './tenant-group';

/** The owner (customer, department, team) objects are assigned to. */
@Model({
  path: 'tenants',
  display: 'name',
  brief: ['name', 'slug'],
  ordering: ['group.name', 'name'],
  search: ['name', 'slug', 'description', 'comments'],
})
export class Tenant extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @ForeignKey(() => TenantGroup, { nullable: true, onDelete: 'set_null', related: 'tenants' })
  group!: TenantGroup | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @Field.Text()
  comments!: string;

  @RelatedCount(() => Device, 'tenant')
  device_count!: number;

  @RelatedCount(() => Site, 'tenant')
  site_count!: number;

  @RelatedCount(() => VirtualMachine, 'tenant')
  virtualmachine_count!: number;

  @RelatedCount(() => Cluster, 'tenant')
  cluster_count!: number;
}
