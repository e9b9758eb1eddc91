import {
  ChoiceField,
  Field,
  Filter,
  ForeignKey,
  Model,
  NaturalKey,
  NotesUrl,
  PrimaryModel,
  RelatedCount,
  StatusField,
  ValidationError,
  type Id,
  type Predicate,
  type Predicates,
  type Values,
  type WriteContext,
} from '../../framework';
import { Status } from '../extras/status';
import { Tenant } from '../tenancy/tenant';
import { RackDimensionUnitChoices, RackTypeChoices, RackWidthChoices } from './choices';
import { Device } from './device';
import { Location } from './location';
import { checkLocation } from './location-rules';
import { RackGroup } from './rack-group';
import { RackRole } from './rack-role';
import { Site } from './site';
import { DeviceType } from './device-type';
import { moved, moveRackContents } from './propagation';
import { PowerFeed } from './power-feed';

/** A physical equipment rack at a site, `u_height` units tall, into which devices are mounted. */
@Model({
  path: 'racks',
  display: {
    fields: ['name', 'facility_id'],
    render: (v) => (v.facility_id ? `${String(v.name)} (${String(v.facility_id)})` : String(v.name)),
  },
  brief: ['name', 'device_count'],
  ordering: ['site._name', 'group._tree_sort', '_name'],
  search: ['name', 'facility_id', 'serial', 'asset_tag', 'comments'],
  uniqueTogether: [['group', 'name'], ['group', 'facility_id']],
  features: ['locations', 'dynamic_groups'],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    devices: { path: 'devices', by: 'id' },
    has_devices: { has: 'devices' },
    reservations: { path: 'reservations', by: 'id' },
    has_reservations: { has: 'reservations' },
  },
})
export class Rack extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100 })
  name!: string;

  @NaturalKey('name')
  _name!: string;

  @Field.String({ maxLength: 50, nullable: true, blank: true, label: 'Facility ID', help: 'Locally-assigned identifier' })
  facility_id!: string | null;

  @ForeignKey(() => Site, { onDelete: 'protect', related: 'racks' })
  site!: Site;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'racks' })
  location!: Location | null;

  @ForeignKey(() => RackGroup, { nullable: true, onDelete: 'set_null', related: 'racks', help: 'Assigned group' })
  group!: RackGroup | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'racks' })
  tenant!: Tenant | null;

  @StatusField(() => Status)
  status!: Status;

  @ForeignKey(() => RackRole, { nullable: true, onDelete: 'protect', related: 'racks', help: 'Functional role' })
  role!: RackRole | null;

  @Field.String({ maxLength: 255, blank: true, label: 'Serial number', lookups: false })
  serial!: string;

  @Field.String({ maxLength: 50, nullable: true, blank: true, unique: true, verboseName: 'Asset tag', help: 'A unique tag used to identify this rack' })
  asset_tag!: string | null;

  @ChoiceField(RackTypeChoices, { blank: true })
  type!: string;

  @ChoiceField(RackWidthChoices, { default: 19, required: false, help: 'Rail-to-rail width' })
  width!: number;

  @Field.Integer({ min: 1, max: 100, default: 42, required: false, label: 'Height (U)', help: 'Height in rack units' })
  u_height!: number;

  @Field.Boolean({ default: false, label: 'Descending units', help: 'Units are numbered top-to-bottom' })
  desc_units!: boolean;

  @Field.Integer({ min: 0, max: 32767, nullable: true, help: 'Outer dimension of rack (width)' })
  outer_width!: number | null;

  @Field.Integer({ min: 0, max: 32767, nullable: true, help: 'Outer dimension of rack (depth)' })
  outer_depth!: number | null;

  @ChoiceField(RackDimensionUnitChoices, { blank: true, single: true })
  outer_unit!: string;

  @Field.Text()
  comments!: string;

  @RelatedCount(() => Device, 'rack')
  device_count!: number;

  @RelatedCount(() => PowerFeed, 'rack')
  powerfeed_count!: number;

  /** `serial` matches case-insensitively and only the last value counts (Nautobot's `serial__iexact`). */
  @Filter({ type: 'string', help: 'Serial number (case-insensitive)' })
  static serial(value: string, p: Predicates): Predicate {
    return p.lookup('serial', 'iexact', value);
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const group = values.group ? await wc.store.get(RackGroup, values.group as Id) : null;
    if (group && group.site !== values.site) {
      const site = await wc.store.get(Site, values.site as Id);
      throw ValidationError.model(`Assigned rack group must belong to parent site (${String(site?.name)}).`);
    }
    const lineage = await checkLocation(values, wc, 'Racks');
    if (lineage && group?.location && !lineage.some((l) => l.id === group.location)) {
      const groupLocation = await wc.store.get(Location, group.location as Id);
      throw ValidationError.field(
        'group',
        `The assigned rack group "${String(group.name)}" belongs to a location ("${String(groupLocation?.name)}") that does not include location "${String(lineage[0].name)}".`,
      );
    }
    const hasDimension = values.outer_width !== null && values.outer_width !== undefined || values.outer_depth !== null && values.outer_depth !== undefined;
    if (hasDimension && !values.outer_unit) throw ValidationError.model('Must specify a unit when setting an outer width/depth');
    // Nautobot blanks a dimensionless unit on the stored rack; a unit the body sends is written again.
    if (!wc.creating && !hasDimension && values.outer_unit && !wc.sent.has('outer_unit')) values.outer_unit = '';
    if (!wc.creating) await checkHeight(values, wc);
  }

  /** Devices follow their rack to another site or location. */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    if (moved(values, wc)) await moveRackContents(wc, wc.id, values.site as Id, (values.location as Id | null) ?? null);
  }
}

/** The rack cannot shrink below the top of the device mounted highest (Nautobot looks at that one only). */
async function checkHeight(values: Values, wc: WriteContext): Promise<void> {
  const mounted = await wc.store.find(Device, { rack: wc.id, position__isnull: false });
  if (!mounted.length) return;
  const top = mounted.reduce((a, b) => ((b.position as number) > (a.position as number) ? b : a));
  const type = await wc.store.get(DeviceType, top.device_type as Id);
  const needed = (top.position as number) + Number(type?.u_height ?? 1) - 1;
  if ((values.u_height as number) < needed) {
    throw ValidationError.field('u_height', `Rack must be at least ${needed}U tall to house currently installed devices.`);
  }
}
