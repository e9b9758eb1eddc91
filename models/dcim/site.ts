import {
  NotesUrl,
  Field,
  ForeignKey,
  Model,
  NaturalKey,
  PrimaryModel,
  RelatedCount,
  StatusField,
  TimeZoneField,
} from '../../framework';
import { Status } from '../extras/status';
import { Tenant } from '../tenancy/tenant';
import { VirtualMachine } from '../virtualization/virtual-machine';
import { Device } from './device';
import { Region } from './region';
import { Rack } from './rack';

/** A physical place (building, campus, PoP) holding racks, devices, prefixes and VLANs. */
@Model({
  path: 'sites',
  display: 'name',
  brief: ['name', 'slug'],
  ordering: ['_name'],
  search: ['name', 'facility', 'description', 'physical_address', 'shipping_address', 'contact_name', 'contact_phone', 'contact_email', 'comments', 'asn'],
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    clusters: { path: 'clusters', by: 'id' },
    has_clusters: { has: 'clusters' },
    devices: { path: 'devices' },
    has_devices: { has: 'devices' },
    prefixes: { path: 'prefixes', by: 'id' },
    has_prefixes: { has: 'prefixes' },
    vlans: { path: 'vlans', by: 'id' },
    has_vlans: { has: 'vlans' },
    vlan_groups: { path: 'vlan_groups', naturalKey: 'slug' },
    locations: { path: 'locations' },
    has_locations: { has: 'locations' },
    racks: { path: 'racks', by: 'id' },
    has_racks: { has: 'racks' },
    rack_groups: { path: 'rack_groups', naturalKey: 'slug' },
    has_rack_groups: { has: 'rack_groups' },
    has_vlan_groups: { has: 'vlan_groups' },
  },
})
export class Site extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @NaturalKey('name')
  _name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @StatusField(() => Status)
  status!: Status;

  @ForeignKey(() => Region, { nullable: true, onDelete: 'set_null', related: 'sites' })
  region!: Region | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'sites' })
  tenant!: Tenant | null;

  @Field.String({ maxLength: 50, blank: true })
  facility!: string;

  @Field.Integer({ big: true, nullable: true, min: 1, max: 4294967295, label: 'ASN' })
  asn!: number | null;

  @TimeZoneField()
  time_zone!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @Field.String({ maxLength: 200, blank: true })
  physical_address!: string;

  @Field.String({ maxLength: 200, blank: true })
  shipping_address!: string;

  @Field.Decimal({ digits: 8, places: 6, nullable: true, help: 'GPS coordinate (latitude)' })
  latitude!: number | null;

  @Field.Decimal({ digits: 9, places: 6, nullable: true, help: 'GPS coordinate (longitude)' })
  longitude!: number | null;

  @Field.String({ maxLength: 50, blank: true })
  contact_name!: string;

  @Field.String({ maxLength: 20, blank: true })
  contact_phone!: string;

  @Field.Email({ label: 'Contact E-mail' })
  contact_email!: string;

  @Field.Text()
  comments!: string;

  @RelatedCount(() => Device, 'site')
  device_count!: number;

  @RelatedCount(() => Rack, 'site')
  rack_count!: number;

  /** Virtual machines belong to a site through their cluster. */
  @RelatedCount(() => VirtualMachine, 'cluster.site')
  virtualmachine_count!: number;
}
