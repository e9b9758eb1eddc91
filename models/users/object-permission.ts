import {
  BaseModel, ContentTypesField, Field, ManyToMany, Model, ormFilter, ValidationError, FieldError,
  type JsonObject, type Values, type WriteContext,
} from '../../framework';
import { Group } from './group';
import { User } from './user';

/** Object types a permission may name besides data models (Nautobot allows these back in). */
export const PERMISSION_EXTRA_TYPES = ['auth.group', 'users.token', 'users.objectpermission', 'users.user'];

/**
 * Grants actions on object types to users and groups, optionally limited by constraints: a JSON
 * object of Django-style lookups (ANDed), or a list of such objects (ORed).
 */
@Model({
  path: 'permissions',
  graphql: false,
  verboseName: 'object permission',
  display: 'name',
  brief: ['name', 'enabled', 'object_types', 'groups', 'users', 'actions'],
  ordering: ['name'],
  search: ['name', 'description'],
})
export class ObjectPermission extends BaseModel {
  @Field.String({ maxLength: 100 })
  name!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @Field.Boolean({ default: true })
  enabled!: boolean;

  @ContentTypesField({ required: true, label: 'Object types' })
  object_types!: string[];

  @ManyToMany(() => Group, { writeBy: 'pk', required: false, filterName: 'group', related: 'object_permissions' })
  groups!: Group[];

  @ManyToMany(() => User, { writeBy: 'pk', required: false, filterName: 'user', related: 'object_permissions' })
  users!: User[];

  @Field.JSON({ help: 'The list of actions granted by this permission' })
  actions!: string[];

  @Field.JSON({ nullable: true, default: null, help: 'Queryset filter matching the applicable objects of the selected type(s)' })
  constraints!: JsonObject | JsonObject[] | null;

  /** Actions are names; constraints are checked now, with the engine that will apply them. */
  static clean(values: Values, wc: WriteContext): void {
    const actions = values.actions;
    if (!Array.isArray(actions) || actions.length === 0 || !actions.every((a) => typeof a === 'string' && a.length > 0 && a.length <= 30)) {
      throw ValidationError.field('actions', 'Enter a list of action names of at most 30 characters.');
    }
    const constraints = values.constraints;
    if (constraints === null || constraints === undefined) return;
    const sets = Array.isArray(constraints) ? constraints : [constraints];
    if (!sets.every((c) => c !== null && typeof c === 'object' && !Array.isArray(c))) {
      throw ValidationError.field('constraints', 'Constraints must be a JSON object or a list of JSON objects.');
    }
    for (const label of values.object_types as string[]) {
      const model = wc.registry.get(label);
      if (!model) continue;
      for (const set of sets as JsonObject[]) {
        try {
          ormFilter(model, substituteUser(set, '00000000-0000-4000-8000-000000000000'));
        } catch (err) {
          if (err instanceof FieldError) throw ValidationError.field('constraints', `Invalid filter for ${label}: ${err.messages.join(' ')}`);
          throw err;
        }
      }
    }
  }
}

/** `"$user"` in a constraint stands for the requesting user's id. */
export function substituteUser(constraints: JsonObject, userId: string): Record<string, unknown> {
  const swap = (v: unknown): unknown => (v === '$user' ? userId : Array.isArray(v) ? v.map(swap) : v);
  return Object.fromEntries(Object.entries(constraints).map(([k, v]) => [k, swap(v)]));
}
