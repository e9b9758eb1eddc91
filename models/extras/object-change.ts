import { BaseModel, ChoiceField, Field, ForeignKey, GenericForeignKey, Model } from '../../framework';
import { User } from '../users/user';
import { ObjectChangeAction } from './choices';

const PAST_TENSE: Record<string, string> = { create: 'created', update: 'updated', delete: 'deleted' };

/**
 * One change-log record, written by the server in the transaction of the change it describes
 * (see change-log.ts); the API only reads them.
 */
@Model({
  path: 'object-changes',
  operations: ['list', 'retrieve'],
  display: {
    fields: ['changed_object_type', 'object_repr', 'action', 'user_name'],
    render: (v) =>
      `${String(v.changed_object_type).replace('.', ' | ')} ${String(v.object_repr)} ${PAST_TENSE[String(v.action)] ?? String(v.action)} by ${String(v.user_name)}`,
  },
  ordering: ['-time'],
  search: ['user_name', 'object_repr'],
  indexTogether: [['request_id'], ['time']],
})
export class ObjectChange extends BaseModel {
  @Field.DateTime({ readOnly: true })
  time!: Date;

  @ForeignKey(() => User, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'changes' })
  user!: User | null;

  @Field.String({ maxLength: 150, readOnly: true })
  user_name!: string;

  @Field.UUID({ readOnly: true })
  request_id!: string;

  @ChoiceField(ObjectChangeAction, { readOnly: true })
  action!: ObjectChangeAction;

  /** Every change-logged model; the nested object is null once it is deleted. */
  @GenericForeignKey({ forFeature: 'changelog' })
  changed_object!: unknown;

  /** Filterable, not shown: the object's display when the change was made. */
  @Field.String({ maxLength: 200, readOnly: true, writeOnly: true })
  object_repr!: string;

  /** The object in database form (stored fields by name, foreign keys as ids), as Nautobot records it. */
  @Field.JSON({ readOnly: true, lookups: false })
  object_data!: Record<string, unknown>;

  /** Not shown: the object in API form, kept for webhooks' `prechange` snapshots. */
  @Field.JSON({ readOnly: true, lookups: false, hidden: true })
  object_data_v2!: Record<string, unknown>;
}
