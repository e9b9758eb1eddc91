import { PermissionDenied, Store, defineActions, type ActionRequest, type Predicate } from '../../framework';
import { GitRepository } from './git-repository';
import { enqueueSync } from './git-lifecycle';
import { notifyJobQueue } from './job-catalog';
import { jobWorkerAlive } from './job-worker';

/** Nautobot's answer when no worker would run what is queued. */
const NO_WORKER = 'Unable to process request: No celery workers running on queue default.';

/**
 * `POST git-repositories/<id>/sync/`, in Nautobot's order: the POST needs `add` (checked before
 * this handler), then `change` on Git repositories with its own message, then a live job worker
 * (503), then the repository within the caller's change permission (404). Queues a sync run as
 * the caller and answers `{"message": "Repository <name> sync job added to queue."}`.
 */
async function sync(req: ActionRequest) {
  let restrict: Predicate;
  try {
    restrict = await req.restrict(GitRepository, 'change');
  } catch (err) {
    if (err instanceof PermissionDenied) throw new PermissionDenied('This user does not have permission to make changes to Git repositories.');
    throw err;
  }
  if (!(await jobWorkerAlive(req.ctx.db, req.ctx.registry))) return { status: 503, body: { detail: NO_WORKER } };
  const repository = await req.object(req.ctx.db.reader, restrict);
  await req.transaction(GitRepository, (tx) => enqueueSync(new Store(tx, req.ctx.registry), req.ctx.registry, repository, req.ctx.user?.id ?? null));
  notifyJobQueue(req.ctx.registry);
  return { status: 200, body: { message: `Repository ${String(repository.name)} sync job added to queue.` } };
}

export const gitRepositoryActions = defineActions(GitRepository, {
  sync: {
    detail: true,
    POST: {
      action: 'add',
      handler: sync,
      doc: {
        description:
          'Queues a sync of the repository (fetch, then reload the config contexts, config context schemas and export templates it provides); the job result is listed under job-results. Needs `add` and `change` on Git repositories; 503 while no job worker runs.',
      },
    },
  },
});
