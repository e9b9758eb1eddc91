import { randomUUID } from 'node:crypto';
import {
  ActionRequest,
  FieldError,
  NotFound,
  and,
  PermissionDenied,
  Store,
  ValidationError,
  defineActions,
  describeVariable,
  fieldTest,
  fileText,
  isMultipart,
  jobVariablesOf,
  parseVariable,
  type ExtraRoute,
  type HandlerArgs,
  type RequestContext,
  type FieldMeta,
  type Id,
  type Json,
  type Values,
} from '../../framework';
import { SCHEDULE_INTERVALS } from './choices';
import { parseCrontab, nextCrontabTime, CrontabError } from './crontab';
import { JobLogEntry, JobModel, JobResult, ScheduledJob } from './job';
import { cancelLocalRun, classPathOf, jobCatalogOf, notifyJobQueue, type CatalogEntry } from './job-catalog';
import { enqueueRun } from './job-worker';

/** Nautobot requires a scheduled start at least this far ahead. */
const SCHEDULE_LEAD_MS = 15_000;

function entryOf(req: ActionRequest, job: Values): CatalogEntry | undefined {
  return jobCatalogOf(req.ctx.registry)?.find(job);
}

async function variables(req: ActionRequest) {
  const job = await req.object(req.ctx.db.reader, await req.restrict(JobModel, 'view'));
  const entry = entryOf(req, job);
  if (!entry) return { status: 404, body: { detail: 'Not found.' } };
  return { status: 200, body: jobVariablesOf(entry.job.cls).map((v) => describeVariable(v, req.ctx.registry)) as Json };
}

/** DRF's BooleanField. */
function parseBool(value: unknown): boolean | null {
  if (value === true || value === 'true' || value === 'True' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 'False' || value === 0 || value === '0') return false;
  return null;
}

interface ScheduleInput {
  name: string;
  interval: string;
  start: Date;
  crontab: string;
}

function parseSchedule(raw: unknown, now: Date): ScheduleInput | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError({ schedule: { non_field_errors: ['Invalid data. Expected a dictionary, but got ' + (Array.isArray(raw) ? 'list' : typeof raw) + '.'] } });
  const s = raw as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const interval = s.interval === undefined ? 'immediately' : String(s.interval);
  if (!(SCHEDULE_INTERVALS as readonly string[]).includes(interval)) errors.interval = [`"${interval}" is not a valid choice.`];
  if (interval !== 'immediately' && (typeof s.name !== 'string' || s.name.trim() === '')) errors.name = ['Please provide a name for the job schedule.'];
  let start = now;
  if (!errors.interval && interval !== 'immediately' && interval !== 'custom') {
    const parsed = typeof s.start_time === 'string' ? new Date(s.start_time) : null;
    if (!parsed || Number.isNaN(parsed.getTime()) || parsed.getTime() < now.getTime() + SCHEDULE_LEAD_MS - 1000) {
      errors.start_time = ['Please enter a valid date and time greater than or equal to the current date and time.'];
    } else start = parsed;
  }
  const crontab = typeof s.crontab === 'string' ? s.crontab : '';
  if (interval === 'custom') {
    try {
      parseCrontab(crontab);
    } catch (err) {
      if (!(err instanceof CrontabError)) throw err;
      errors.crontab = ['Please enter a valid crontab.'];
    }
  }
  if (Object.keys(errors).length) throw new ValidationError({ schedule: errors });
  return { name: typeof s.name === 'string' ? s.name : '', interval, start, crontab };
}

/** The job's variables from `data`: Nautobot's `{"errors": …}` bodies on bad input. */
async function parseData(req: ActionRequest, entry: CatalogEntry, raw: unknown): Promise<Record<string, Json>> {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new ValidationError({ errors: ['Job data needs to be a dict'] });
  const input = raw as Record<string, unknown>;
  const specs = jobVariablesOf(entry.job.cls);
  const known = new Set(specs.map((s) => s.name));
  const unknown = Object.keys(input).filter((k) => !known.has(k));
  if (unknown.length) throw new ValidationError({ errors: Object.fromEntries(unknown.map((k) => [k, ['Job data contained an unknown property']])) });
  const errors: Record<string, string[]> = {};
  const data: Record<string, Json> = {};
  for (const spec of specs) {
    try {
      data[spec.name] = await parseVariable(spec, input[spec.name], { registry: req.ctx.registry, db: req.ctx.db.reader });
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      errors[spec.name] = err.messages;
    }
  }
  if (Object.keys(errors).length) throw new ValidationError({ errors });
  return data;
}

const FORM_SCHEDULE_KEYS = ['name', 'start_time', 'interval', 'crontab'];

/**
 * A multipart run request (the only way to send file variables) in the JSON request's shape:
 * variables as form fields and files, the rest under `_commit`, `_task_queue` and `_schedule_*`.
 * A file variable's value is the file's text.
 */
async function formRunInput(req: ActionRequest, job: Values): Promise<Record<string, unknown>> {
  const form = await req.form();
  const entry = entryOf(req, job);
  const specs = new Map((entry ? jobVariablesOf(entry.job.cls) : []).map((s) => [s.name, s]));
  const many = (name: string) => ['MultiChoiceVar', 'MultiObjectVar'].includes(specs.get(name)?.type ?? '');
  const one = (name: string) => form.fields.get(name)?.[0];
  const input: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const [name, values] of form.fields) {
    if (name.startsWith('_')) continue;
    data[name] = many(name) ? values : values[0];
  }
  for (const [name, files] of form.files) {
    const text = fileText(files[0]);
    if (text === null) errors[name] = ['The submitted file is not UTF-8 text.'];
    else data[name] = text;
  }
  if (Object.keys(errors).length) throw new ValidationError({ errors });
  input.data = data;
  if (one('_commit') !== undefined) input.commit = one('_commit');
  if (one('_task_queue') !== undefined) input.task_queue = one('_task_queue');
  if (FORM_SCHEDULE_KEYS.some((k) => one(`_schedule_${k}`) !== undefined)) {
    input.schedule = Object.fromEntries(FORM_SCHEDULE_KEYS.filter((k) => one(`_schedule_${k}`) !== undefined).map((k) => [k, one(`_schedule_${k}`)]));
  }
  return input;
}

/** parseSchedule for a multipart request: its messages under the `_schedule_*` keys. */
function formSchedule(raw: unknown, now: Date): ScheduleInput | null {
  try {
    return parseSchedule(raw, now);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const nested = (err.detail as { schedule?: Record<string, string[]> }).schedule ?? {};
    throw new ValidationError(Object.fromEntries(Object.entries(nested).map(([k, v]) => [`_schedule_${k}`, v])));
  }
}

/** When a new schedule first fires. */
function firstRun(schedule: ScheduleInput, now: Date): Date {
  if (schedule.interval === 'custom') return nextCrontabTime(parseCrontab(schedule.crontab), now);
  return schedule.interval === 'immediately' ? now : schedule.start;
}

/**
 * What a run request started, in the forms its response shows (`form`: the result nested or in
 * full), read in the transaction that queued it: once committed, a worker may start the run (its
 * status no longer pending) before a read after the commit.
 */
type Started = { result: Json; schedule: Json };

/** Nautobot's checks of a run request in Nautobot's order, then a queued run or a schedule. */
async function startRun(req: ActionRequest, job: Values, form: 'nested' | 'full'): Promise<Started | { status: number; body: Json }> {
  if (!job.enabled) throw new PermissionDenied('This job is not enabled to be run.');
  if (!job.installed) return { status: 405, body: { detail: 'This job is not presently installed and cannot be run' } };
  const multipart = isMultipart(req.ctx.req.headers['content-type']);
  const body = multipart ? await formRunInput(req, job) : (req.body() ?? {});
  if (typeof body !== 'object' || Array.isArray(body)) throw ValidationError.nonField('Invalid data. Expected a dictionary, but got list.');
  const input = body as Record<string, unknown>;
  const now = new Date();
  const schedule = multipart ? formSchedule(input.schedule, now) : parseSchedule(input.schedule, now);
  if (job.has_sensitive_variables && schedule && schedule.interval !== 'immediately') {
    throw new ValidationError({ schedule: { interval: ['Unable to schedule job: Job may have sensitive input variables'] } });
  }
  if (job.has_sensitive_variables && job.approval_required) {
    throw new ValidationError([
      'Unable to run or schedule job: This job is flagged as possibly having sensitive variables but is also flagged as requiring approval.One of these two flags must be removed before this job can be scheduled or run.',
    ]);
  }
  const entry = entryOf(req, job);
  if (!entry) return { status: 405, body: { detail: "This job's source code could not be located and cannot be run" } };
  let commit = job.commit_default !== false;
  if (input.commit !== undefined && input.commit !== null) {
    const parsed = parseBool(input.commit);
    if (parsed === null) throw new ValidationError({ [multipart ? '_commit' : 'commit']: ['Must be a valid boolean.'] });
    commit = parsed;
  }
  const queues = (job.task_queues as string[] | null)?.length ? (job.task_queues as string[]) : ['default'];
  if (input.task_queue !== undefined && input.task_queue !== null && !queues.includes(String(input.task_queue))) {
    throw new ValidationError({ [multipart ? '_task_queue' : 'task_queue']: [`"${String(input.task_queue)}" is not a valid choice.`] });
  }
  const data = await parseData(req, entry, input.data);
  const user = req.ctx.user?.id ?? null;
  const name = classPathOf(job);
  const scheduled = job.approval_required || (schedule !== null && schedule.interval !== 'immediately');
  const created = await req.transaction(JobResult, async (tx): Promise<Started> => {
    const store = new Store(tx, req.ctx.registry);
    if (!scheduled) {
      const result = await enqueueRun(store, req.ctx.registry, { job, name, user, data, commit });
      return { result: form === 'nested' ? await req.nestedIn(tx, JobResult, result) : await req.renderIn(tx, JobResult, result), schedule: null };
    }
    const s = schedule ?? { name: String(job.name), interval: 'immediately', start: now, crontab: '' };
    const id = randomUUID();
    const step = s.interval === 'hourly' || s.interval === 'daily' || s.interval === 'weekly';
    const first = firstRun(s, now);
    await store.insert(req.meta(ScheduledJob), {
      id,
      name: (s.name || String(job.name)).slice(0, 200),
      user,
      job_model: job.id,
      task: 'nautobot.extras.jobs.run_job',
      interval: s.interval,
      queue: input.task_queue === undefined || input.task_queue === null ? null : String(input.task_queue),
      job_class: name,
      last_run_at: step ? new Date(first.getTime() - ({ hourly: 3600, daily: 86400, weekly: 604800 } as Record<string, number>)[s.interval] * 1000) : null,
      total_run_count: 0,
      date_changed: now,
      description: '',
      approved_by_user: null,
      approval_required: job.approval_required === true,
      approved_at: null,
      crontab: s.crontab,
      start_time: first,
      next_run_at: first,
      kwargs: { data, commit },
      enabled: true,
    });
    return { result: null, schedule: await req.nestedIn(tx, ScheduledJob, id) };
  });
  notifyJobQueue(req.ctx.registry);
  return created;
}

/** `POST jobs/<id>/run/`. */
async function run(req: ActionRequest) {
  const job = await req.object(req.ctx.db.reader, await req.restrict(JobModel, 'run'));
  const started = await startRun(req, job, 'nested');
  if ('status' in started) return started;
  return { status: 201, body: { schedule: started.schedule, job_result: started.result } };
}

/** The job selected by a legacy class-path URL (`/api/extras/jobs/<source>/<module>/<Class>/`), within `restrict`. */
async function jobByClassPath(ctx: RequestContext, args: HandlerArgs, action: 'view' | 'run'): Promise<{ req: ActionRequest; job: Values }> {
  const model = ctx.registry.forClass(JobModel);
  const req = new ActionRequest(ctx, { ...args, model }, model);
  const restrict = await args.restrictFor(model, action);
  const params = ctx.req.params as Record<string, string>;
  const where = and([
    restrict,
    fieldTest(model.field('source') as FieldMeta, 'exact', [params.source]),
    fieldTest(model.field('module_name') as FieldMeta, 'exact', [params.module]),
    fieldTest(model.field('job_class_name') as FieldMeta, 'exact', [params.cls]),
  ]);
  const [job] = await new Store(ctx.db.reader, ctx.registry).find(model, where);
  if (!job || !job.installed || job.hidden) throw new NotFound();
  return { req, job };
}

/** The API 1.2 job class object: the class path as `id`, the variables by type, a result. */
async function jobClassObject(req: ActionRequest, job: Values, result: Json | undefined): Promise<Record<string, Json>> {
  const path = classPathOf(job);
  const entry = entryOf(req, job);
  const out: Record<string, Json> = {
    url: `${req.ctx.baseUrl}${req.meta(JobModel).listPath}${path}/`,
    id: path,
    pk: String(job.id),
    name: String(job.name),
    description: String(job.description ?? ''),
    test_methods: [],
    vars: Object.fromEntries((entry ? jobVariablesOf(entry.job.cls) : []).map((v) => [v.name, v.type])),
  };
  if (result !== undefined) out.result = result;
  return out;
}

/** The newest finished result of a job, in full, or null. */
async function latestResult(req: ActionRequest, job: Values): Promise<Json> {
  const model = req.meta(JobResult);
  const rows = (await new Store(req.ctx.db.reader, req.ctx.registry).find(model, fieldTest(model.field('job_model') as FieldMeta, 'exact', [job.id])))
    .filter((r) => ['completed', 'failed', 'errored'].includes(String(r.status)))
    .sort((a, b) => (b.created as Date).getTime() - (a.created as Date).getTime());
  return rows.length ? req.render(JobResult, [rows[0].id as Id], false) : null;
}

/** Legacy routes addressed by class path, which pynautobot uses under the default API 1.2. */
export function legacyJobRoutes(): ExtraRoute[] {
  return [
    {
      path: '/extras/jobs/:source/:module/:cls/',
      auth: 'authenticated',
      documented: false,
      methods: {
        GET: async (ctx, args) => {
          const { req, job } = await jobByClassPath(ctx, args, 'view');
          return { status: 200, body: await jobClassObject(req, job, await latestResult(req, job)) };
        },
      },
    },
    {
      path: '/extras/jobs/:source/:module/:cls/run/',
      auth: 'authenticated',
      documented: false,
      methods: {
        POST: async (ctx, args) => {
          const { req, job } = await jobByClassPath(ctx, args, 'run');
          const started = await startRun(req, job, 'full');
          if ('status' in started) return started;
          return { status: 200, body: await jobClassObject(req, job, started.result ?? undefined) };
        },
      },
    },
  ];
}

/** `GET job-results/<id>/logs/`: a bare array, oldest first, the message as `display`. */
async function logs(req: ActionRequest) {
  await req.object(req.ctx.db.reader, await req.restrict(JobResult, 'view'));
  const model = req.meta(JobLogEntry);
  const rows = await new Store(req.ctx.db.reader, req.ctx.registry).find(model, fieldTest(model.field('job_result') as FieldMeta, 'exact', [req.id]));
  rows.sort((a, b) => (a.created as Date).getTime() - (b.created as Date).getTime());
  const rendered = (await req.render(JobLogEntry, rows.map((r) => r.id as Id), true)) as Array<Record<string, Json>>;
  return {
    status: 200,
    body: rendered.map((r) => {
      const { job_result: _omitted, ...rest } = r;
      return { ...rest, display: r.message };
    }),
  };
}

/**
 * `POST job-results/<id>/cancel/` (a netinv extension): a pending run is failed at once, a running
 * one is stopped by its worker at its next lease renewal and rolled back.
 */
async function cancel(req: ActionRequest) {
  const row = await req.object(req.ctx.db.reader, await req.restrict(JobResult, 'delete'));
  const model = req.meta(JobResult);
  if (row.status !== 'pending' && row.status !== 'running') return { status: 409, body: { detail: 'This job has already finished.' } };
  cancelLocalRun(req.ctx.registry, req.id as string);
  await req.transaction(JobResult, async (tx) => {
    const store = new Store(tx, req.ctx.registry);
    const stopped = await store.updateWhere(model, { id: req.id, status: 'pending' }, { status: 'failed', completed: new Date() });
    if (stopped === 1) {
      await store.insert(req.meta(JobLogEntry), { id: randomUUID(), job_result: req.id, created: new Date(), log_level: 'failure', message: 'The job was cancelled before it started.', grouping: 'main', log_object: null, absolute_url: null });
    } else await store.updateWhere(model, { id: req.id, status: 'running' }, { cancel_requested: true });
  });
  return { status: 202, body: await req.render(JobResult, [req.id], false) };
}

/** The caller's `approve` permission on the schedule's job, with Nautobot's message. */
async function mayApprove(req: ActionRequest, schedule: Values, message: string): Promise<Values> {
  const jobs = req.meta(JobModel);
  let restrict;
  try {
    restrict = await req.restrict(JobModel, 'approve');
  } catch (err) {
    if (err instanceof PermissionDenied) throw new PermissionDenied(message);
    throw err;
  }
  const [job] = await new Store(req.ctx.db.reader, req.ctx.registry).find(jobs, and([restrict, fieldTest(jobs.pk, 'exact', [schedule.job_model ?? null])]));
  if (!job) throw new PermissionDenied(message);
  return job;
}

/** `POST scheduled-jobs/<id>/approve/[?force=…]`: the schedule may run; the requester cannot approve it. */
async function approve(req: ActionRequest) {
  const schedule = await req.object(req.ctx.db.reader, await req.restrict(ScheduledJob, 'change'));
  await mayApprove(req, schedule, 'You do not have permission to approve this request.');
  if (schedule.user && schedule.user === req.ctx.user?.id) return { status: 403, body: 'You cannot approve your own job request!' };
  const now = new Date();
  if (schedule.interval === 'future' && (schedule.start_time as Date).getTime() < now.getTime() && !req.ctx.param('force')) {
    return { status: 400, body: "The job's start time is in the past. If you want to force a run anyway, add the `force` query parameter." };
  }
  await req.transaction(ScheduledJob, (tx) =>
    new Store(tx, req.ctx.registry).update(req.meta(ScheduledJob), req.id, { approved_by_user: req.ctx.user?.id ?? null, approved_at: now, date_changed: now }),
  );
  notifyJobQueue(req.ctx.registry);
  return { status: 200, body: await req.render(ScheduledJob, [req.id], false) };
}

/** `POST scheduled-jobs/<id>/deny/`: the schedule is deleted; an empty 200. */
async function deny(req: ActionRequest) {
  const model = req.meta(ScheduledJob);
  const [schedule] = await new Store(req.ctx.db.reader, req.ctx.registry).find(model, fieldTest(model.pk, 'exact', [req.id]));
  if (!schedule) throw new NotFound();
  await mayApprove(req, schedule, 'You do not have permission to deny this request.');
  await req.transaction(ScheduledJob, (tx) => new Store(tx, req.ctx.registry).delete(model, [req.id]));
  return { status: 200 };
}

/** `POST scheduled-jobs/<id>/dry-run/`: one run now with commit off; the full job result. */
async function dryRun(req: ActionRequest) {
  const model = req.meta(ScheduledJob);
  const [schedule] = await new Store(req.ctx.db.reader, req.ctx.registry).find(model, fieldTest(model.pk, 'exact', [req.id]));
  if (!schedule) throw new NotFound();
  const jobs = req.meta(JobModel);
  const job = schedule.job_model ? await new Store(req.ctx.db.reader, req.ctx.registry).get(jobs, schedule.job_model as Id) : null;
  if (!job || !job.enabled || !job.installed || (job.has_sensitive_variables && job.approval_required) || !entryOf(req, job)) {
    return { status: 405, body: { detail: 'Method "This job cannot be dry-run at this time." not allowed.' } };
  }
  let restrict;
  try {
    restrict = await req.restrict(JobModel, 'run');
  } catch (err) {
    if (err instanceof PermissionDenied) throw new PermissionDenied('You do not have permission to run this job.');
    throw err;
  }
  if (!(await new Store(req.ctx.db.reader, req.ctx.registry).exists(jobs, and([restrict, fieldTest(jobs.pk, 'exact', [job.id])])))) {
    throw new PermissionDenied('You do not have permission to run this job.');
  }
  const kwargs = schedule.kwargs as { data?: Record<string, Json> };
  // The result as queued (pending): once committed, a worker may start it before a read after the commit.
  const body = await req.transaction(JobResult, async (tx) => {
    const id = await enqueueRun(new Store(tx, req.ctx.registry), req.ctx.registry, { job, name: String(schedule.job_class), user: req.ctx.user?.id ?? null, data: kwargs.data ?? {}, commit: false });
    return req.renderIn(tx, JobResult, id);
  });
  notifyJobQueue(req.ctx.registry);
  return { status: 200, body };
}

export const jobActions = [
  ...defineActions(JobModel, {
    variables: { detail: true, GET: { action: 'view', handler: variables } },
    run: { detail: true, POST: { action: 'run', handler: run } },
  }),
  ...defineActions(JobResult, {
    logs: { detail: true, GET: { action: 'view', handler: logs } },
    cancel: { detail: true, POST: { action: 'delete', handler: cancel } },
  }),
  ...defineActions(ScheduledJob, {
    approve: { detail: true, POST: { action: 'change', handler: approve } },
    deny: { detail: true, POST: { action: 'delete', handler: deny } },
    'dry-run': { detail: true, POST: { action: 'view', handler: dryRun } },
  }),
];
