import {
  NotesUrl,
  Field,
  ForeignKey,
  Model,
  PrimaryModel,
  RelatedCount,
  ValidationError,
  displayOf,
  type Values,
  type WriteContext,
} from '../../framework';
import { Device } from '../dcim/device';
import { Site } from '../dcim/site';
import { Location } from '../dcim/location';
import { checkLocation } from '../dcim/location-rules';
import { Tenant } from '../tenancy/tenant';
import { ClusterGroup } from './cluster-group';
import { ClusterType } from './cluster-type';
import { VirtualMachine } from './virtual-machine';

/** A pool of hosts (devices) that runs virtual machines. */
@Model({
  path: 'clusters',
  display: 'name',
  brief: ['name', 'virtualmachine_count'],
  ordering: ['name'],
  features: ['locations', 'dynamic_groups'],
  search: ['name', 'comments'],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    devices: { path: 'devices' },
    has_devices: { has: 'devices' },
    virtual_machines: { path: 'virtual_machines' },
    has_virtual_machines: { has: 'virtual_machines' },
  },
})
export class Cluster extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @ForeignKey(() => ClusterType, { onDelete: 'protect', related: 'clusters' })
  type!: ClusterType;

  @ForeignKey(() => ClusterGroup, { nullable: true, onDelete: 'protect', related: 'clusters' })
  group!: ClusterGroup | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'clusters' })
  tenant!: Tenant | null;

  @ForeignKey(() => Site, { nullable: true, onDelete: 'protect', related: 'clusters' })
  site!: Site | null;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'clusters' })
  location!: Location | null;

  @Field.Text()
  comments!: string;

  @RelatedCount(() => Device, 'cluster')
  device_count!: number;

  @RelatedCount(() => VirtualMachine, 'cluster')
  virtualmachine_count!: number;

  /** Host devices must stay in the cluster's site when the site changes. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkLocation(values, wc, 'Clusters');
    if (wc.creating || !values.site) return;
    const elsewhere = await wc.store.count(Device, { cluster: wc.id }) - (await wc.store.count(Device, { cluster: wc.id, site: values.site }));
    if (elsewhere) {
      const site = await displayOf(wc, Site, values.site as string);
      throw new ValidationError({ site: [`${elsewhere} devices are assigned as hosts for this cluster but are not in site ${site}`] });
    }
  }
}
