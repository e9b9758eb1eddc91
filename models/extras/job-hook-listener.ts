import { CachedConfig, DataKey, Store, cachedConfig, fieldTest, type FieldMeta, type Id, type RequestData, type Values, type WriteListener } from '../../framework';
import { JobModel } from './job';
import { JobHook } from './job-hook';
import { classPathOf, notifyJobQueue, RUNS_QUEUED } from './job-catalog';
import { enqueueRun } from './job-worker';
import { ObjectChange } from './object-change';

const JOB_HOOKS_CACHE = new CachedConfig<Values[]>('extras.job_hooks', ['extras_jobhook']);

const FLAG: Record<string, string> = { create: 'type_create', update: 'type_update', delete: 'type_delete' };

/** Set on the writes of a hook receiver's run: its changes do not fire hooks again. */
const HOOK_RECEIVER_RUN = new DataKey<true>('jobs:hook-receiver-run');

export function markHookReceiverRun(features: RequestData): void {
  features.set(HOOK_RECEIVER_RUN, true);
}

/**
 * Job hooks: after the change log of a transaction is written (so after the change-log listener),
 * one run per enabled hook matching each record's type and action, with `object_change` = the
 * record's id, as the change's user, committed; queued in the same transaction. Wakes the local
 * worker after a commit that queued runs (see RUNS_QUEUED).
 */
export function jobHookListener(): WriteListener {
  return {
    async committing(scope) {
      if (scope.features.get(HOOK_RECEIVER_RUN) || !scope.requestId) return;
      const store = new Store(scope.tx, scope.registry);
      const hookModel = scope.registry.forClass(JobHook);
      const hooks = await cachedConfig(scope.tx, JOB_HOOKS_CACHE, () => store.find(hookModel, fieldTest(hookModel.field('enabled') as FieldMeta, 'exact', [true])));
      if (hooks.length === 0) return;
      const changeModel = scope.registry.forClass(ObjectChange);
      const changes = await store.find(changeModel, fieldTest(changeModel.field('request_id') as FieldMeta, 'exact', [scope.requestId]));
      const jobs = new Map<Id, Awaited<ReturnType<Store['get']>>>();
      for (const change of changes.sort((a, b) => (a.time as Date).getTime() - (b.time as Date).getTime())) {
        for (const hook of hooks) {
          if (hook[FLAG[String(change.action)]] !== true || !(hook.content_types as string[]).includes(String(change.changed_object_type))) continue;
          const jobId = hook.job as Id;
          if (!jobs.has(jobId)) jobs.set(jobId, await store.get(scope.registry.forClass(JobModel), jobId));
          const job = jobs.get(jobId);
          if (!job) continue;
          await enqueueRun(store, scope.registry, { job, name: classPathOf(job), user: (change.user as Id | null) ?? null, data: { object_change: String(change.id) }, commit: true });
          scope.features.set(RUNS_QUEUED, true);
        }
      }
    },
    // Runs queued by this transaction (hooks, Git repository syncs) start once it commits.
    committed(scope) {
      if (scope.features.get(RUNS_QUEUED)) notifyJobQueue(scope.registry);
    },
  };
}
