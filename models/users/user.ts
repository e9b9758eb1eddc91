import { BaseModel, Field, ManyToMany, Model, PasswordField } from '../../framework';
import { Group } from './group';

/** A login account. Not change-logged: no created/last_updated, tags or custom fields. */
@Model({
  path: 'users',
  graphql: false,
  display: 'username',
  brief: ['username'],
  ordering: ['username'],
  search: ['username', 'first_name', 'last_name', 'email'],
  naturalKey: 'username',
})
export class User extends BaseModel {
  @Field.String({
    maxLength: 150,
    unique: true,
    pattern: /^[\w.@+-]+$/,
    patternMessage: 'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
  })
  username!: string;

  @PasswordField()
  password!: string;

  @Field.String({ maxLength: 150, blank: true })
  first_name!: string;

  @Field.String({ maxLength: 150, blank: true })
  last_name!: string;

  @Field.Email({ label: 'Email address' })
  email!: string;

  @Field.Boolean({ default: false, label: 'Staff status' })
  is_staff!: boolean;

  @Field.Boolean({ default: true, label: 'Active' })
  is_active!: boolean;

  @Field.DateTime({ required: false, default: () => new Date() })
  date_joined!: Date;

  @ManyToMany(() => Group, { writeBy: 'pk', required: false, filterName: 'group', related: 'users' })
  groups!: Group[];

  /** Preferences behind /api/users/config/ (never part of the user's representation). */
  @Field.JSON({ default: () => ({}), hidden: true, readOnly: true, lookups: false })
  config_data!: Record<string, unknown>;

  /** Not part of the API (as in Nautobot); set by `netinv createsuperuser`. */
  @Field.Boolean({ default: false, hidden: true, readOnly: true, lookups: false })
  is_superuser!: boolean;
}
