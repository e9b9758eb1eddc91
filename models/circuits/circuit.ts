import { Field, ForeignKey, Model, NotesUrl, PrimaryModel, ReverseOne, StatusField } from '../../framework';
import { Status } from '../extras/status';
import { Tenant } from '../tenancy/tenant';
import { CircuitTermination } from './circuit-termination';
import { CircuitType } from './circuit-type';
import { Provider } from './provider';

/** The fields of a termination as a circuit embeds it (Nautobot's circuit-specific short form). */
const TERMINATION_FORM = ['site', 'location', 'provider_network', 'connected_endpoint', 'port_speed', 'upstream_speed', 'xconnect_id', 'created', 'last_updated', 'notes_url'] as const;

/** One circuit bought from a provider, identified by the provider's circuit id (`cid`). */
@Model({
  path: 'circuits',
  display: 'cid',
  brief: ['cid'],
  ordering: ['provider.name', 'cid'],
  search: ['cid', 'terminations.xconnect_id', 'terminations.pp_info', 'terminations.description', 'description', 'comments'],
  uniqueTogether: [['provider', 'cid']],
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    provider_network_id: { path: 'terminations.provider_network', by: 'id' },
    site: { path: 'terminations.site' },
    site_id: { path: 'terminations.site', by: 'id' },
    location: { path: 'terminations.location' },
    region: { path: 'terminations.site.region' },
    region_id: { path: 'terminations.site.region' },
  },
})
export class Circuit extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, label: 'Circuit ID' })
  cid!: string;

  @ForeignKey(() => Provider, { onDelete: 'protect', related: 'circuits' })
  provider!: Provider;

  @ForeignKey(() => CircuitType, { onDelete: 'protect', related: 'circuits' })
  type!: CircuitType;

  @StatusField(() => Status)
  status!: Status;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'circuits' })
  tenant!: Tenant | null;

  @Field.Date({ nullable: true, label: 'Date installed' })
  install_date!: string | null;

  @Field.Integer({ nullable: true, min: 0, max: 2147483647, label: 'Commit rate (Kbps)' })
  commit_rate!: number | null;

  @Field.String({ maxLength: 200, blank: true, lookups: false })
  description!: string;

  @ReverseOne(() => CircuitTermination, 'circuit', { where: { field: 'term_side', value: 'A' }, form: TERMINATION_FORM, label: 'Termination a' })
  termination_a!: unknown;

  @ReverseOne(() => CircuitTermination, 'circuit', { where: { field: 'term_side', value: 'Z' }, form: TERMINATION_FORM, label: 'Termination z' })
  termination_z!: unknown;

  @Field.Text({ lookups: false })
  comments!: string;
}
