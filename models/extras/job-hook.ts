import {
  ChangeLoggedModel,
  ChoiceField,
  ContentTypesField,
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  OrganizationalModel,
  ValidationError,
  type Values,
  type WriteContext,
} from '../../framework';
import { ButtonClass } from './choices';
import { JobModel } from './job';

const ACTIONS = [
  ['type_create', 'create'],
  ['type_update', 'update'],
  ['type_delete', 'delete'],
] as const;

/** The job a hook or button names must be a receiver of that kind (Nautobot's limit_choices_to message). */
async function requireReceiver(values: Values, wc: WriteContext, flag: 'is_job_hook_receiver' | 'is_job_button_receiver'): Promise<Values> {
  const job = values.job ? await wc.store.get(JobModel, values.job as string) : null;
  if (!job || job[flag] !== true) throw ValidationError.field('job', `Invalid pk "${String(values.job)}" - object does not exist.`);
  return job;
}

/** Runs a job-hook receiver when objects of the selected models are created, updated or deleted. */
@Model({
  path: 'job-hooks',
  display: 'name',
  brief: ['name'],
  ordering: ['name'],
  search: ['name'],
})
export class JobHook extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @ContentTypesField({ forFeature: 'changelog' })
  content_types!: string[];

  @ForeignKey(() => JobModel, { onDelete: 'cascade', related: 'job_hooks', asId: true, naturalKey: 'slug' })
  job!: JobModel;

  @Field.Boolean({ default: true })
  enabled!: boolean;

  @Field.Boolean({ default: false, help: 'Call this job hook when a matching object is created.' })
  type_create!: boolean;

  @Field.Boolean({ default: false, help: 'Call this job hook when a matching object is updated.' })
  type_update!: boolean;

  @Field.Boolean({ default: false, help: 'Call this job hook when a matching object is deleted.' })
  type_delete!: boolean;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const job = await requireReceiver(values, wc, 'is_job_hook_receiver');
    if (!ACTIONS.some(([flag]) => values[flag] === true)) {
      throw ValidationError.model('You must select at least one type: create, update, and/or delete.');
    }
    // One hook per job, content type and action: each clash is reported under its action.
    const others = (await wc.store.find(JobHook, { job: values.job })).filter((h) => h.id !== wc.id);
    const types = new Set(values.content_types as string[]);
    const errors: Record<string, string[]> = {};
    for (const other of others) {
      for (const ct of (other.content_types as string[]).filter((c) => types.has(c)).sort()) {
        for (const [flag, action] of ACTIONS) {
          if (values[flag] && other[flag]) (errors[flag] ??= []).push(`A job hook already exists for ${action} on ${ct.replace('.', ' | ')} to job ${String(job.name)}`);
        }
      }
    }
    if (Object.keys(errors).length) throw new ValidationError(errors);
  }
}

/** A button on object pages of the selected models that runs a job-button receiver for the object. */
@Model({
  path: 'job-buttons',
  display: 'name',
  brief: ['name'],
  ordering: ['group_name', 'weight', 'name'],
  search: ['name', 'job.name', 'text'],
})
export class JobButton extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => JobModel, { onDelete: 'cascade', related: 'job_buttons', asId: true, naturalKey: 'slug' })
  job!: JobModel;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @ContentTypesField()
  content_types!: string[];

  @Field.String({ maxLength: 500 })
  text!: string;

  @Field.Integer({ min: 0, max: 32767, default: 100 })
  weight!: number;

  @Field.String({ maxLength: 50, blank: true, default: '' })
  group_name!: string;

  @ChoiceField(ButtonClass, { plain: true, default: 'default', maxLength: 30 })
  button_class!: ButtonClass;

  @Field.Boolean({ default: true })
  confirmation!: boolean;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await requireReceiver(values, wc, 'is_job_button_receiver');
  }
}
