import { NotesUrl, Field, ForeignKey, ManyToMany, Model, PrimaryModel, RelatedCount } from '../../framework';
import { Tenant } from '../tenancy/tenant';
import { IPAddress } from './ip-address';
import { Prefix } from './prefix';
import { RouteTarget } from './route-target';

/** A virtual routing and forwarding table: its own address space. */
@Model({
  path: 'vrfs',
  verboseName: 'VRF',
  display: { fields: ['name', 'rd'], render: (v) => (v.rd === null || v.rd === undefined ? String(v.name) : `${String(v.name)} (${String(v.rd)})`) },
  brief: ['name', 'rd', 'prefix_count'],
  ordering: ['name', 'rd'],
  search: ['name', 'rd', 'description'],
  naturalKey: 'rd',
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
  },
})
export class VRF extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100 })
  name!: string;

  @Field.String({ maxLength: 21, nullable: true, unique: true, label: 'Route distinguisher', default: null })
  rd!: string | null;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'vrfs' })
  tenant!: Tenant | null;

  @Field.Boolean({ default: true, label: 'Enforce unique space' })
  enforce_unique!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ManyToMany(() => RouteTarget, { writeBy: 'pk', required: false, filterName: 'import_target', related: 'importing_vrfs' })
  import_targets!: RouteTarget[];

  @ManyToMany(() => RouteTarget, { writeBy: 'pk', required: false, filterName: 'export_target', related: 'exporting_vrfs' })
  export_targets!: RouteTarget[];

  @RelatedCount(() => IPAddress, 'vrf')
  ipaddress_count!: number;

  @RelatedCount(() => Prefix, 'vrf')
  prefix_count!: number;
}
