import { ChoiceField, Field, Model, NotesUrl, PrimaryModel, StatusField, ValidationError, type Id, type Values, type WriteContext } from '../../framework';
import { Status } from '../extras/status';
import { FailoverStrategyChoices } from './component-choices';
import { Device } from './device';

/** Devices that back each other up (a firewall pair), with a failover strategy; members carry a priority. */
@Model({
  features: ['dynamic_groups'],
  path: 'device-redundancy-groups',
  display: 'name',
  brief: ['name', 'slug', 'failover_strategy'],
  ordering: ['name'],
  search: ['name', 'comments'],
})
export class DeviceRedundancyGroup extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ChoiceField(FailoverStrategyChoices, { blank: true, single: true })
  failover_strategy!: string;

  @Field.Text()
  comments!: string;

  @StatusField(() => Status)
  status!: Status;

  /** Members of deleted groups lose their priority with the group. */
  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    await wc.store.updateWhere(Device, { device_redundancy_group__in: ids }, { device_redundancy_group: null, device_redundancy_group_priority: null });
  }
}

/** A device's redundancy priority needs a group. */
export function checkRedundancyPriority(values: Values): void {
  if (values.device_redundancy_group_priority != null && !values.device_redundancy_group) {
    throw ValidationError.field('device_redundancy_group_priority', 'Must assign a redundancy group when defining a redundancy group priority.');
  }
}
