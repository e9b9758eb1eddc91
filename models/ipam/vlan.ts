import {
  NotesUrl,
  Field, Filter, ForeignKey, Model, PrimaryModel, RelatedCount, StatusField, ValidationError,
  type Predicate, type Predicates, type Values, type WriteContext,
} from '../../framework';
import { Site } from '../dcim/site';
import { Location } from '../dcim/location';
import { checkLocation } from '../dcim/location-rules';
import { Status } from '../extras/status';
import { Tenant } from '../tenancy/tenant';
import { Prefix } from './prefix';
import { Role } from './role';
import { VLANGroup } from './vlan-group';

/** An 802.1Q VLAN. */
@Model({
  path: 'vlans',
  verboseName: 'VLAN',
  display: { fields: ['name', 'vid'], render: (v) => `${String(v.name)} (${String(v.vid)})` },
  brief: ['vid', 'name'],
  ordering: ['site.name', 'group.name', 'vid'],
  features: ['locations'],
  search: ['name', 'description', 'vid'],
  uniqueTogether: [['group', 'vid'], ['group', 'name']],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
  },
})
export class VLAN extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Site, { nullable: true, onDelete: 'protect', related: 'vlans' })
  site!: Site | null;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'vlans' })
  location!: Location | null;

  @ForeignKey(() => VLANGroup, { nullable: true, onDelete: 'protect', related: 'vlans' })
  group!: VLANGroup | null;

  @Field.Integer({ min: 1, max: 4094, label: 'ID' })
  vid!: number;

  @Field.String({ maxLength: 255 })
  name!: string;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'vlans' })
  tenant!: Tenant | null;

  @StatusField(() => Status)
  status!: Status;

  @ForeignKey(() => Role, { nullable: true, onDelete: 'set_null', related: 'vlans' })
  role!: Role | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Prefix, 'vlan')
  prefix_count!: number;

  /** VLANs a device's interfaces may carry: global ones and those at the device's site. */
  @Filter({ type: 'uuid', help: 'Device (ID): VLANs with no site or with the device\'s site' })
  static available_on_device(value: string, p: Predicates): Predicate {
    // An unknown device makes nothing available, global VLANs included.
    return p.and([p.exists('dcim.device', { id: value }), p.or([p.lookup('site', 'isnull', true), p.lookup('site__devices__id', 'exact', value)])]);
  }

  /** A VLAN in a group sits at the group's site (a site-less group holds site-less VLANs). */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkLocation(values, wc, 'VLANs');
    const groupId = values.group as string | null;
    if (!groupId) return;
    const [group] = await wc.store.find(VLANGroup, { id: groupId });
    if (group && (group.site ?? null) !== (values.site ?? null)) {
      const [site] = values.site ? await wc.store.find(Site, { id: values.site }) : [];
      throw ValidationError.field('group', `VLAN group must belong to the assigned site (${site ? String(site.name) : 'None'}).`);
    }
  }
}
