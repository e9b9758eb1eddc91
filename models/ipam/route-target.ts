import { NotesUrl, Field, Filter, ForeignKey, Model, PrimaryModel, type Predicates } from '../../framework';
import { Tenant } from '../tenancy/tenant';

/** A BGP extended community (`65000:100`) that VRFs import and export. */
@Model({
  path: 'route-targets',
  display: 'name',
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description'],
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
  },
})
export class RouteTarget extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 21, unique: true })
  name!: string;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'route_targets' })
  tenant!: Tenant | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @Filter({ type: 'uuid', multiple: 'or', help: 'Imported by these VRFs (id)', lookups: ['n'] })
  static importing_vrf_id(_v: string, p: Predicates, values: string[]) {
    return p.or(values.map((v) => p.lookup('importing_vrfs__id', 'exact', v)));
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Imported by these VRFs (route distinguisher)', lookups: ['n'] })
  static importing_vrf(_v: string, p: Predicates, values: string[]) {
    return p.or(values.map((v) => p.lookup('importing_vrfs__rd', 'exact', v)));
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Exported by these VRFs (id)', lookups: ['n'] })
  static exporting_vrf_id(_v: string, p: Predicates, values: string[]) {
    return p.or(values.map((v) => p.lookup('exporting_vrfs__id', 'exact', v)));
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Exported by these VRFs (route distinguisher)', lookups: ['n'] })
  static exporting_vrf(_v: string, p: Predicates, values: string[]) {
    return p.or(values.map((v) => p.lookup('exporting_vrfs__rd', 'exact', v)));
  }
}
