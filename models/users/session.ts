import { BaseModel, Field, ForeignKey, Model } from '../../framework';
import { User } from './user';

/** A browser login for the browsable API: a random key in a cookie and its CSRF token. */
@Model({
  path: null,
  display: { fields: ['user.username'], render: (v) => `session of ${String(v['user.username'])}` },
  ordering: ['expires'],
})
export class Session extends BaseModel {
  @Field.String({ maxLength: 64, unique: true })
  key!: string;

  @Field.String({ maxLength: 64 })
  csrf!: string;

  @ForeignKey(() => User, { onDelete: 'cascade', related: 'sessions' })
  user!: User;

  @Field.DateTime()
  expires!: Date;
}
