import { randomUUID } from 'node:crypto';
import { Store } from '../../framework';
import type { Factory, FactoryContext } from './index';

/** Inserts a row as the server would (job records, results, logs and schedules have no POST). */
async function insert(ctx: FactoryContext, label: string, values: Record<string, unknown>): Promise<string> {
  const { server } = ctx.app;
  const model = server.registry.get(label);
  if (!model) throw new Error(`no model ${label}`);
  const id = randomUUID();
  await server.db.transaction((tx) => new Store(tx, server.registry).insert(model, { id, ...values }));
  return id;
}

/** A record of a job class that is not installed, so no worker ever runs it. */
function seedJob(ctx: FactoryContext, extra: Record<string, unknown> = {}): Promise<string> {
  const now = new Date();
  const values: Record<string, unknown> = {
    source: 'local',
    module_name: `seeded_${ctx.n}`,
    job_class_name: `Seeded${ctx.n}`,
    grouping: `seeded_${ctx.n}`,
    name: `Seeded job ${ctx.n}`,
    slug: `local-seeded_${ctx.n}-seeded${ctx.n}`,
    description: '',
    installed: false,
    enabled: false,
    is_job_hook_receiver: false,
    is_job_button_receiver: false,
    has_sensitive_variables: true,
    approval_required: false,
    commit_default: true,
    hidden: false,
    read_only: false,
    soft_time_limit: 0,
    time_limit: 0,
    task_queues: [],
    created: now.toISOString().slice(0, 10),
    last_updated: now,
    custom_fields: {},
  };
  for (const name of ['grouping', 'name', 'description', 'approval_required', 'commit_default', 'hidden', 'read_only', 'soft_time_limit', 'time_limit', 'has_sensitive_variables', 'task_queues']) {
    values[`${name}_override`] = false;
  }
  return insert(ctx, 'extras.job', { ...values, ...extra });
}

/** A finished result: terminal, so no worker claims it. */
async function seedResult(ctx: FactoryContext): Promise<string> {
  const now = new Date();
  return insert(ctx, 'extras.jobresult', {
    created: now,
    completed: now,
    name: `local/seeded_${ctx.n}/Seeded${ctx.n}`,
    job_model: await seedJob(ctx),
    obj_type: 'extras.job',
    status: 'completed',
    user: ctx.app.adminId,
    data: { output: ctx.n },
    job_id: randomUUID(),
    job_kwargs: null,
    schedule: null,
    run_args: { data: {}, commit: true },
    run_after: now,
    lease_until: null,
    worker: '',
    cancel_requested: false,
  });
}

export const jobFactories: Record<string, Factory> = {
  'extras.job': {
    build: () => ({}),
    change: () => ({ description: 'changed', description_override: true }),
    seed: (ctx) => seedJob(ctx),
  },
  'extras.jobhook': {
    build: async (ctx) => ({ name: `Hook ${ctx.n}`, content_types: ['dcim.region'], job: await seedJob(ctx, { is_job_hook_receiver: true }), type_create: true }),
    change: () => ({ type_update: true, enabled: false }),
  },
  'extras.jobbutton': {
    build: async (ctx) => ({ name: `Button ${ctx.n}`, content_types: ['dcim.device'], job: await seedJob(ctx, { is_job_button_receiver: true }), text: `Run ${ctx.n}` }),
    change: () => ({ weight: 50, group_name: 'changed', button_class: 'danger' }),
  },
  'extras.jobresult': {
    build: () => ({}),
    change: () => ({}),
    seed: seedResult,
  },
  'extras.joblogentry': {
    build: () => ({}),
    change: () => ({}),
    seed: async (ctx) =>
      insert(ctx, 'extras.joblogentry', { job_result: await seedResult(ctx), created: new Date(), log_level: 'info', message: `line ${ctx.n}`, grouping: 'main', log_object: `object ${ctx.n}`, absolute_url: `/dcim/sites/${ctx.n}/` }),
  },
  'extras.scheduledjob': {
    build: () => ({}),
    change: () => ({}),
    // Disabled, so the scheduler never fires it.
    seed: async (ctx) => {
      const now = new Date();
      return insert(ctx, 'extras.scheduledjob', {
        name: `Schedule ${ctx.n}`,
        user: ctx.app.adminId,
        job_model: await seedJob(ctx),
        task: 'nautobot.extras.jobs.run_job',
        interval: 'future',
        queue: null,
        job_class: `local/seeded_${ctx.n}/Seeded${ctx.n}`,
        last_run_at: new Date(now.getTime() - ctx.n),
        total_run_count: 0,
        date_changed: now,
        description: '',
        approved_by_user: null,
        approval_required: false,
        approved_at: null,
        crontab: '',
        start_time: new Date(now.getTime() + 3600_000),
        next_run_at: null,
        kwargs: { data: {}, commit: true },
        enabled: false,
      });
    },
  },
};
