import {
  BaseModel,
  ChoiceField,
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  PrimaryModel,
  ValidationError,
  type Values,
  type WriteContext,
} from '../../framework';
import { User } from '../users/user';
import { JobResultStatus, JobSource } from './choices';
import { jobCatalogOf, OVERRIDABLE } from './job-catalog';

/**
 * The record of a job class found at start (a plugin's or the jobs directory's). Created and
 * refreshed by the server; the API edits its metadata only.
 */
@Model({
  path: 'jobs',
  name: 'job',
  operations: ['list', 'retrieve', 'update', 'delete'],
  display: 'name',
  brief: ['source', 'module_name', 'job_class_name', 'grouping', 'name', 'slug'],
  ordering: ['grouping', 'name'],
  search: ['name', 'slug', 'grouping', 'description'],
  uniqueTogether: [['source', 'module_name', 'job_class_name'], ['grouping', 'name']],
})
export class JobModel extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ChoiceField(JobSource, { readOnly: true, plain: true })
  source!: JobSource;

  @Field.String({ maxLength: 100, readOnly: true })
  module_name!: string;

  @Field.String({ maxLength: 100, readOnly: true })
  job_class_name!: string;

  @Field.String({ maxLength: 255 })
  grouping!: string;

  @Field.Boolean({ default: false })
  grouping_override!: boolean;

  @Field.String({ maxLength: 100 })
  name!: string;

  @Field.Boolean({ default: false })
  name_override!: boolean;

  @Field.Slug({ maxLength: 320, unique: true, from: 'job_class_name' })
  slug!: string;

  @Field.Text({ blank: true, default: '', lookups: false })
  description!: string;

  @Field.Boolean({ default: false })
  description_override!: boolean;

  @Field.Boolean({ readOnly: true, default: true })
  installed!: boolean;

  @Field.Boolean({ default: false })
  enabled!: boolean;

  @Field.Boolean({ readOnly: true, default: false })
  is_job_hook_receiver!: boolean;

  @Field.Boolean({ readOnly: true, default: false })
  is_job_button_receiver!: boolean;

  @Field.Boolean({ default: true })
  has_sensitive_variables!: boolean;

  @Field.Boolean({ default: false })
  has_sensitive_variables_override!: boolean;

  @Field.Boolean({ default: false })
  approval_required!: boolean;

  @Field.Boolean({ default: false })
  approval_required_override!: boolean;

  @Field.Boolean({ default: true })
  commit_default!: boolean;

  @Field.Boolean({ default: false })
  commit_default_override!: boolean;

  @Field.Boolean({ default: false })
  hidden!: boolean;

  @Field.Boolean({ default: false })
  hidden_override!: boolean;

  @Field.Boolean({ default: false })
  read_only!: boolean;

  @Field.Boolean({ default: false })
  read_only_override!: boolean;

  @Field.Integer({ min: 0, default: 0 })
  soft_time_limit!: number;

  @Field.Boolean({ default: false })
  soft_time_limit_override!: boolean;

  @Field.Integer({ min: 0, default: 0 })
  time_limit!: number;

  @Field.Boolean({ default: false })
  time_limit_override!: boolean;

  @Field.JSON({ default: [], nullable: false, lookups: false })
  task_queues!: string[];

  @Field.Boolean({ default: false })
  task_queues_override!: boolean;

  /** Non-overridden attributes follow the class on every save, as in Nautobot. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const registered = jobCatalogOf(wc.registry)?.find(values);
    if (registered && values.installed) {
      const fromClass = registered.attributes;
      for (const name of OVERRIDABLE) if (!values[`${name}_override`]) values[name] = fromClass[name];
    }
    if (values.approval_required && values.has_sensitive_variables) {
      const key = wc.sent.has('approval_required') ? 'approval_required' : 'has_sensitive_variables';
      throw ValidationError.field(key, 'A job with sensitive variables cannot also be marked as requiring approval');
    }
  }
}

/** A queued one-off or recurring run of a job, possibly awaiting approval. */
@Model({
  path: 'scheduled-jobs',
  operations: ['list', 'retrieve'],
  display: { fields: ['name', 'interval'], render: (v) => `${String(v.name)}: ${String(v.interval)}` },
  brief: ['name', 'start_time', 'interval', 'crontab'],
  search: ['name', 'job_class', 'description'],
  ordering: [],
})
export class ScheduledJob extends BaseModel {
  @Field.String({ maxLength: 200, readOnly: true })
  name!: string;

  @ForeignKey(() => User, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'scheduled_jobs' })
  user!: User | null;

  @ForeignKey(() => JobModel, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'scheduled_jobs', naturalKey: 'slug' })
  job_model!: JobModel | null;

  @Field.String({ maxLength: 200, readOnly: true })
  task!: string;

  @Field.String({ maxLength: 30, readOnly: true, lookups: false })
  interval!: string;

  @Field.String({ maxLength: 200, nullable: true, readOnly: true, default: null, lookups: false })
  queue!: string | null;

  @Field.String({ maxLength: 255, readOnly: true })
  job_class!: string;

  @Field.DateTime({ nullable: true, readOnly: true })
  last_run_at!: Date | null;

  @Field.Integer({ min: 0, default: 0, readOnly: true })
  total_run_count!: number;

  @Field.DateTime({ readOnly: true })
  date_changed!: Date;

  @Field.Text({ blank: true, default: '', readOnly: true, lookups: false })
  description!: string;

  @ForeignKey(() => User, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'approved_scheduled_jobs', lookups: false, naturalFilter: false, idFilter: false })
  approved_by_user!: User | null;

  @Field.Boolean({ default: false, readOnly: true })
  approval_required!: boolean;

  @Field.DateTime({ nullable: true, readOnly: true, lookups: false })
  approved_at!: Date | null;

  @Field.String({ maxLength: 255, blank: true, default: '', readOnly: true, lookups: false })
  crontab!: string;

  /** Only in the nested form, as in Nautobot. */
  @Field.DateTime({ readOnly: true, hidden: true })
  start_time!: Date;

  /** When the schedule fires next; null once a one-off schedule has fired. */
  @Field.DateTime({ nullable: true, readOnly: true, hidden: true })
  next_run_at!: Date | null;

  /** The run's inputs: `{data, commit}`. */
  @Field.JSON({ readOnly: true, hidden: true, lookups: false })
  kwargs!: Record<string, unknown>;

  @Field.Boolean({ default: true, readOnly: true, hidden: true })
  enabled!: boolean;
}

/**
 * One execution of a job; also the queue entry the workers claim: `pending` rows are claimed
 * into `running` with a lease that the running worker renews.
 */
@Model({
  path: 'job-results',
  name: 'jobresult',
  operations: ['list', 'retrieve', 'delete'],
  display: 'job_id',
  brief: ['name', 'created', 'completed', 'user', 'status'],
  ordering: ['-created'],
  search: ['name', 'job_model.name', 'user.username'],
  indexTogether: [['status', 'run_after']],
})
export class JobResult extends BaseModel {
  @Field.DateTime({ readOnly: true })
  created!: Date;

  @Field.DateTime({ nullable: true, readOnly: true })
  completed!: Date | null;

  @Field.String({ maxLength: 255, readOnly: true })
  name!: string;

  @ForeignKey(() => JobModel, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'results', naturalKey: 'slug' })
  job_model!: JobModel | null;

  @Field.String({ maxLength: 100, readOnly: true })
  obj_type!: string;

  @ChoiceField(JobResultStatus, { readOnly: true, briefAsObject: true })
  status!: JobResultStatus;

  @ForeignKey(() => User, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'job_results' })
  user!: User | null;

  @Field.JSON({ readOnly: true, lookups: false })
  data!: unknown;

  @Field.UUID({ readOnly: true, unique: true })
  job_id!: string;

  @Field.JSON({ readOnly: true, lookups: false })
  job_kwargs!: unknown;

  @ForeignKey(() => ScheduledJob, { nullable: true, onDelete: 'set_null', readOnly: true, related: 'results', lookups: false, naturalFilter: false, idFilter: false })
  schedule!: ScheduledJob | null;

  /** The run's inputs as the worker needs them, kept even when `job_kwargs` hides them. */
  @Field.JSON({ readOnly: true, hidden: true, lookups: false })
  run_args!: Record<string, unknown>;

  /** Not claimed before this time. */
  @Field.DateTime({ readOnly: true, hidden: true })
  run_after!: Date;

  /** While running: the worker holds the row until then and renews it; past it, the worker is dead. */
  @Field.DateTime({ nullable: true, readOnly: true, hidden: true })
  lease_until!: Date | null;

  @Field.String({ maxLength: 100, blank: true, default: '', readOnly: true, hidden: true })
  worker!: string;

  @Field.Boolean({ default: false, readOnly: true, hidden: true })
  cancel_requested!: boolean;
}

/** One log line written by a running job. */
@Model({
  path: 'job-logs',
  name: 'joblogentry',
  operations: ['list', 'retrieve'],
  display: { fields: ['created'], render: (v) => isoPlus(v.created) },
  ordering: ['created'],
  search: ['grouping', 'message', 'log_level'],
})
export class JobLogEntry extends BaseModel {
  @Field.String({ maxLength: 255, nullable: true, default: null, readOnly: true })
  absolute_url!: string | null;

  @Field.DateTime({ readOnly: true })
  created!: Date;

  @Field.String({ maxLength: 100, default: 'main', readOnly: true })
  grouping!: string;

  @ForeignKey(() => JobResult, { onDelete: 'cascade', readOnly: true, related: 'logs', asId: true })
  job_result!: JobResult;

  @Field.String({ maxLength: 32, default: 'default', readOnly: true })
  log_level!: string;

  @Field.String({ maxLength: 200, nullable: true, default: null, readOnly: true })
  log_object!: string | null;

  @Field.Text({ blank: true, default: '', readOnly: true })
  message!: string;
}

/** Python's isoformat of an aware UTC datetime: microseconds and `+00:00`. */
function isoPlus(value: unknown): string {
  const d = value instanceof Date ? value : new Date(String(value));
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/**
 * A job worker's sign of life, renewed while it runs: requests that need a worker (a Git
 * repository's sync) answer 503 while no row is current, as Nautobot does without Celery workers.
 */
@Model({ path: null, name: 'jobworker', display: 'worker' })
export class JobWorkerBeat extends BaseModel {
  @Field.String({ maxLength: 100, unique: true })
  worker!: string;

  /** The worker counts as alive until then. */
  @Field.DateTime()
  alive_until!: Date;
}
