import { Field, ForeignKey, Model, NotesUrl, PrimaryModel, RelatedCount, type Id, type Values, type WriteContext } from '../../framework';
import { Device } from './device';
import { checkMaster, masterJoins, releaseMembers } from './virtual-chassis-rules';

/** Devices managed as one (a switch stack), with one master. */
@Model({
  path: 'virtual-chassis',
  display: 'name',
  brief: ['name', 'master', 'member_count'],
  ordering: ['name'],
  search: ['name', 'domain'],
  filters: {
    region: { path: 'master.site.region' },
    region_id: { path: 'master.site.region' },
    site: { path: 'master.site', naturalKey: 'slug' },
    site_id: { path: 'master.site', by: 'id' },
    tenant: { path: 'master.tenant', naturalKey: 'slug' },
    tenant_id: { path: 'master.tenant', by: 'id' },
    members: { path: 'members', naturalKey: 'name' },
    has_members: { has: 'members' },
  },
})
export class VirtualChassis extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 64 })
  name!: string;

  @Field.String({ maxLength: 30, blank: true })
  domain!: string;

  @ForeignKey(() => Device, { nullable: true, onDelete: 'protect', unique: true, related: 'vc_master_for', naturalKey: 'name' })
  master!: Device | null;

  @RelatedCount(() => Device, 'virtual_chassis')
  member_count!: number;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkMaster(values, wc);
  }

  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    if (wc.creating) await masterJoins(values, wc);
  }

  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    await releaseMembers(ids, wc);
  }
}
