import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount } from '../../framework';
import { Prefix } from './prefix';
import { VLAN } from './vlan';

/** The function of a prefix or VLAN (production, management…). */
@Model({
  path: 'roles',
  display: 'name',
  brief: ['name', 'slug', 'prefix_count', 'vlan_count'],
  ordering: ['weight', 'name'],
  search: ['name', 'slug'],
})
export class Role extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.Integer({ min: 0, max: 32767, default: 1000 })
  weight!: number;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Prefix, 'role')
  prefix_count!: number;

  @RelatedCount(() => VLAN, 'role')
  vlan_count!: number;
}
