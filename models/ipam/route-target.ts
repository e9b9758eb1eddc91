import { Field, ForeignKey, Model, PrimaryModel } from '../../framework';
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
    tenant_group_id: { path: 'tenant.group', by: 'id' },
  },
})
export class RouteTarget extends PrimaryModel {
  @Field.String({ maxLength: 21, unique: true })
  name!: string;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'route_targets' })
  tenant!: Tenant | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;
}
