import { Field, IntegerPrimaryKey, Model, RelatedCount } from '../../framework';
import { User } from './user';

/** A named set of users that object permissions can be granted to. Integer ids, as in Nautobot. */
@Model({
  path: 'groups',
  graphql: false,
  label: 'auth.group',
  display: 'name',
  brief: ['name'],
  ordering: ['name'],
  search: ['name'],
  naturalKey: 'name',
})
export class Group {
  @IntegerPrimaryKey()
  id!: number;

  @Field.String({ maxLength: 150, unique: true })
  name!: string;

  @RelatedCount(() => User, 'groups')
  user_count!: number;
}
