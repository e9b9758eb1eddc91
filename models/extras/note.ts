import {
  ChangeLoggedModel,
  displayOf,
  Field,
  ForeignKey,
  GenericForeignKey,
  Model,
  PermissionDenied,
  slugify,
  type Values,
  type WriteContext,
} from '../../framework';
import { User } from '../users/user';

/**
 * Nautobot's note slug: the object's name (50 characters at most) and the time of writing,
 * with `-2`, `-3`… when notes written in the same millisecond would share it.
 */
async function generatedSlug(values: Values, wc: WriteContext): Promise<string> {
  const target = wc.registry.get(String(values.assigned_object_type));
  const name = target ? await displayOf(wc, target.cls, values.assigned_object_id as string) : '';
  const base = slugify(`${name.slice(0, 50)}-${new Date().toISOString()}`).slice(0, 90);
  let slug = base;
  for (let n = 2; await wc.store.count(Note, { slug }, { exceptId: wc.id }); n++) slug = `${base}-${n}`;
  return slug;
}

/** A free-text (Markdown) comment on any object, with its author and time. */
@Model({
  path: 'notes',
  display: 'slug',
  brief: ['assigned_object', 'note', 'user', 'slug'],
  // `created` is a date: the time of the last change keeps notes of one day oldest first.
  ordering: ['created', 'last_updated'],
  search: ['user_name', 'note'],
})
export class Note extends ChangeLoggedModel {
  /** The author: always the requester, never taken from the body. */
  @ForeignKey(() => User, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'notes' })
  user!: User | null;

  @Field.String({ maxLength: 150, readOnly: true, required: false, default: '' })
  user_name!: string;

  @GenericForeignKey({ types: ['*'], required: true })
  assigned_object!: unknown;

  @Field.Text({ blank: false, required: true })
  note!: string;

  @Field.Slug({ maxLength: 100, required: false, blank: true })
  slug!: string;

  /** Before validation, so that the generated slug is checked for uniqueness like a sent one. */
  static async prepare(values: Values, wc: WriteContext): Promise<void> {
    if (wc.creating) {
      if (!wc.actor) throw new PermissionDenied();
      values.user = wc.actor.id;
      values.user_name = wc.actor.username;
    }
    if (!values.slug) values.slug = await generatedSlug(values, wc);
  }
}
