import { randomBytes } from 'node:crypto';
import {
  BaseModel,
  Field,
  ForeignKey,
  Model,
  PermissionDenied,
  fieldTest,
  FALSE,
  type Predicate,
  type RequestContext,
  type Values,
  type WriteContext,
} from '../../framework';
import { User } from './user';

export function generateKey(): string {
  return randomBytes(20).toString('hex');
}

/**
 * An API key of a user: optionally read-only and/or expiring. Each user, superusers included,
 * sees and edits only their own tokens, with the users.*_token permissions (implicit for superusers).
 */
@Model({
  path: 'tokens',
  graphql: false,
  display: { fields: ['key', 'user.username'], render: (v) => `${String(v.key).slice(-6)} (${String(v['user.username'])})` },
  brief: ['key', 'write_enabled'],
  ordering: ['created'],
  search: ['description'],
  basicAuth: true,
})
export class Token extends BaseModel {
  /** Only the requesting user's own tokens, for superusers too (Nautobot's TokenViewSet.get_queryset). */
  static scope(ctx: RequestContext): Predicate {
    return !ctx.user ? FALSE : fieldTest(ctx.registry.forClass(Token).field('user') as never, 'exact', [ctx.user.id]);
  }

  @Field.DateTime({ readOnly: true, autoNowAdd: true })
  created!: Date;

  @Field.DateTime({ nullable: true })
  expires!: Date | null;

  // Matched exactly on authentication, so a key of other characters could never be used.
  @Field.String({ maxLength: 40, minLength: 40, unique: true, required: false, default: generateKey, blankMessage: 'This field cannot be blank.', pattern: /^[0-9a-fA-F]*$/, patternMessage: 'A key is 40 hexadecimal characters.' })
  key!: string;

  @Field.Boolean({ default: true })
  write_enabled!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  /** Always the requesting user; never taken from the body. */
  @ForeignKey(() => User, { onDelete: 'cascade', hidden: true, readOnly: true, related: 'tokens', lookups: false })
  user!: User;

  static beforeSave(values: Values, wc: WriteContext): void {
    if (!wc.creating) return;
    if (!wc.actor) throw new PermissionDenied();
    values.user = wc.actor.id;
  }
}
