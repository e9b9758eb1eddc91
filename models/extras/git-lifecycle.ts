import { randomUUID } from 'node:crypto';
import { Store, type Id, type JobLogLine, type Registry, type Values, type WriteContext, type WriteListener } from '../../framework';
import { CONTENT_LOADERS, OWNER_TYPE, SyncLog, type ContentWriter } from './git-content';
import { removeCopy } from './git-client';
import { GIT_CONTENTS, REMOVED_COPIES, repositoryDirectory } from './git-settings';
import { JobLogEntry, JobResult } from './job';
import { RUNS_QUEUED } from './job-catalog';

/**
 * Queues a sync of a repository: a pending job result named after it (`obj_type`
 * `extras.gitrepository`, no job), run by a worker (git-sync.ts) once the caller's transaction
 * commits. Answers the result's id.
 */
export async function enqueueSync(store: Store, registry: Registry, repository: Values, user: Id | null): Promise<Id> {
  const id = randomUUID();
  const now = new Date();
  await store.insert(registry.forClass(JobResult), {
    id,
    created: now,
    completed: null,
    name: String(repository.name).slice(0, 255),
    job_model: null,
    obj_type: OWNER_TYPE,
    status: 'pending',
    user,
    data: null,
    job_id: randomUUID(),
    job_kwargs: null,
    schedule: null,
    run_args: { repository: repository.id },
    run_after: now,
    lease_until: null,
    worker: '',
    cancel_requested: false,
  });
  return id;
}

/** After every create and update of a repository (Nautobot's `trigger_resync`). */
export async function queueSync(values: Values, wc: WriteContext): Promise<void> {
  await enqueueSync(wc.store, wc.registry, values, wc.actor?.id ?? null);
  wc.features.set(RUNS_QUEUED, true);
}

/**
 * Before repositories are deleted, in the delete's transaction: everything they provided is
 * deleted (change-logged), local context data they provided is cleared, and a completed job
 * result named after each repository records it, as Nautobot's `git_repository_pre_delete`
 * does. Their local copies are removed once the delete commits.
 */
export async function removeProvided(ids: Id[], wc: WriteContext): Promise<void> {
  const repositories = ids.length ? await wc.store.find(wc.model, ids) : [];
  const writer: ContentWriter = {
    store: wc.store,
    create: (cls, body) => wc.create(cls, body),
    update: () => Promise.reject(new Error('nothing is updated when a repository is deleted')),
    remove: (cls, removed) => wc.remove(cls, removed),
    async clearLocalContext(cls, id) {
      await wc.store.update(cls, id, { local_context_data: null, local_context_data_owner_content_type: null, local_context_data_owner_object_id: null });
      await wc.updated(cls, [id]);
    },
  };
  for (const repository of repositories) {
    const lines: JobLogLine[] = [];
    const log = new SyncLog(async (line) => {
      lines.push(line);
    });
    const owner = { id: repository.id as Id, name: String(repository.name) };
    await log.log('info', `Refreshing data provided by ${owner.name}...`);
    for (const content of GIT_CONTENTS) {
      await log.log('info', `Refreshing ${content.name}...`);
      await CONTENT_LOADERS[content.id]({ registry: wc.registry, owner, writer, log }, null);
    }
    await log.log('info', `Data refresh from ${owner.name} complete!`);
    const now = new Date();
    const result = randomUUID();
    await wc.store.insert(wc.registry.forClass(JobResult), {
      id: result,
      created: now,
      completed: now,
      name: owner.name.slice(0, 255),
      job_model: null,
      obj_type: OWNER_TYPE,
      status: log.failures ? 'failed' : 'completed',
      user: null,
      data: null,
      job_id: randomUUID(),
      job_kwargs: null,
      schedule: null,
      run_args: { repository: owner.id, deleted: true },
      run_after: now,
      lease_until: null,
      worker: '',
      cancel_requested: false,
    });
    await wc.store.insertMany(
      wc.registry.forClass(JobLogEntry),
      lines.map((l, i) => ({ id: randomUUID(), job_result: result, created: new Date(now.getTime() + i), log_level: l.level, message: l.message, grouping: l.grouping, log_object: l.log_object, absolute_url: l.absolute_url })),
    );
    wc.features.set(REMOVED_COPIES, [...(wc.features.get(REMOVED_COPIES) ?? []), repositoryDirectory(wc.registry, owner.id)]);
  }
}

/** Removes the local copies of repositories whose deletion committed. */
export function gitRepositoryListener(onError?: (message: string, data: Record<string, unknown>) => void): WriteListener {
  return {
    committed(scope) {
      for (const dir of scope.features.get(REMOVED_COPIES) ?? []) {
        removeCopy(dir).catch((err: unknown) => onError?.('removing a Git repository copy failed', { dir, error: String(err) }));
      }
    },
  };
}
