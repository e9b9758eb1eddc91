import {
  JobContext,
  LATEST_VERSION,
  RequestData,
  SecretError,
  Store,
  type Id,
  type JsonObject,
  type Values,
  type WriteScope,
} from '../../framework';
import { CONTENT_LOADERS, SyncLog, type ContentWriter } from './git-content';
import { GitCommandError, checkoutBranch, type GitCredentials } from './git-client';
import { GIT_CONTENTS, gitSettingsOf, repositoryDirectory } from './git-settings';
import type { TaskOutcome, TaskRun } from './job-catalog';
import { readSecret, SecretsGroupAssociation } from './secret';

/** Thrown to roll the loading back once a failure was logged. */
class LoadingFailed extends Error {}

/** What templated secret parameters see as `obj` (`{{ obj.slug }}`). */
function secretObject(repository: Values): JsonObject {
  return { id: String(repository.id), name: String(repository.name), slug: String(repository.slug), remote_url: String(repository.remote_url), branch: String(repository.branch) };
}

async function groupValue(store: Store, group: Id, secretType: string, repository: Values): Promise<string | null> {
  const [assoc] = await store.find(SecretsGroupAssociation, { group, access_type: 'HTTP(S)', secret_type: secretType });
  return assoc ? readSecret(store, assoc.secret as Id, { obj: secretObject(repository) }) : null;
}

/**
 * The remote's credentials as Nautobot finds them: the secrets group's HTTP(S) `token` and
 * `username` secrets, else the repository's own token and username. A secret that is defined but
 * cannot be read is an error (SecretError).
 */
async function credentialsOf(store: Store, repository: Values, log: SyncLog): Promise<GitCredentials> {
  let token: string | null = null;
  let username: string | null = null;
  if (repository.secrets_group) {
    token = await groupValue(store, repository.secrets_group as Id, 'token', repository);
    username = await groupValue(store, repository.secrets_group as Id, 'username', repository);
    if (!token) {
      await log.log('warning', "Repository has a secrets group assigned but is missing a 'token' secret of access type 'HTTP'.Falling through to legacy behaviour.");
    }
  }
  if (!token && repository.token) token = String(repository.token);
  if (!username && repository.username) username = String(repository.username);
  for (const value of [token, username]) {
    if (value && /[\0\r\n]/.test(value)) throw new GitCommandError('The repository credentials contain a line break or a NUL character');
  }
  return { token, username };
}

/** Nautobot's JobResult.duration. */
function duration(startedMs: number): string {
  const seconds = (Date.now() - startedMs) / 1000;
  return `${Math.floor(seconds / 60)} minutes, ${(seconds % 60).toFixed(2)} seconds`;
}

/**
 * A repository's sync, run by a job worker from a pending result (Nautobot's
 * `pull_git_repository_and_refresh_data`): the local copy is fetched and reset to the branch's
 * newest commit (git-client.ts), then every kind of content is refreshed from it in one
 * transaction (git-content.ts). A failure in any file rolls the whole loading back, so a broken
 * repository changes nothing (Nautobot keeps what loaded and deletes what failed); the result is
 * then `failed`. A fetch that fails (URL, credentials, branch) makes it `errored`, as in Nautobot.
 */
export async function runGitSync(run: TaskRun, result: Values): Promise<TaskOutcome> {
  const started = (result.created as Date | undefined)?.getTime?.() ?? Date.now();
  const log = new SyncLog(run.log);
  const model = run.registry.get('extras.gitrepository');
  const reader = new Store(run.db.reader, run.registry);
  const repositoryId = (result.run_args as { repository?: Id } | null)?.repository;
  const repository = model && repositoryId ? await reader.get(model, repositoryId) : null;
  if (!model || !repository) {
    await log.log('failure', `No GitRepository ${String(repositoryId)} found!`);
    return { status: 'errored', data: null };
  }
  const name = String(repository.name);
  await log.log('default', `Creating/refreshing local copy of Git repository "${name}"...`);
  const settings = gitSettingsOf(run.registry);
  const dir = repositoryDirectory(run.registry, repository.id as Id);
  let head: string;
  try {
    const credentials = await credentialsOf(reader, repository, log);
    head = await checkoutBranch(dir, String(repository.remote_url), String(repository.branch), credentials, { timeoutSeconds: settings.timeoutSeconds, allowLocal: settings.allowLocal, signal: run.signal });
  } catch (err) {
    if (!(err instanceof GitCommandError || err instanceof SecretError)) throw err;
    const message = err instanceof SecretError ? String(err) : err.message;
    await log.log('failure', message);
    await log.log('failure', `Error while refreshing ${name}: ${message}`);
    await log.log('info', `Repository synchronization completed in ${duration(started)}`);
    return { status: 'errored', data: null };
  }
  await log.log('success', 'Repository successfully refreshed');
  await log.log('info', `The current Git repository hash is "${head}"`);
  await log.log('info', `Refreshing data provided by ${name}...`);

  const provided = (repository.provided_contents as string[] | null) ?? [];
  let scope: WriteScope | null = null;
  try {
    await run.db.transaction(async (tx) => {
      scope = { tx, registry: run.registry, version: LATEST_VERSION, actor: run.actor, features: new RequestData(), requestId: run.requestId, listeners: run.listeners };
      const ctx = new JobContext({}, true, run.actor, run.signal, scope, run.log);
      const writer: ContentWriter = {
        store: ctx.store,
        create: (cls, body) => ctx.create(cls, body),
        update: (cls, id, body) => ctx.update(cls, id, body),
        remove: (cls, ids) => ctx.delete(cls, ids),
        async clearLocalContext(cls, id) {
          await ctx.update(cls, id, { local_context_data: null });
          await ctx.store.update(cls, id, { local_context_data_owner_content_type: null, local_context_data_owner_object_id: null });
        },
      };
      const owner = { id: repository.id as Id, name };
      for (const content of GIT_CONTENTS) {
        await log.log('info', `Refreshing ${content.name}...`);
        await CONTENT_LOADERS[content.id]({ registry: run.registry, owner, writer, log, signal: run.signal }, provided.includes(content.id) ? dir : null);
      }
      if (log.failures) throw new LoadingFailed();
      // The commit whose content is now loaded; not a change of the repository's own (no change record, no new sync).
      await ctx.store.update(model, repository.id as Id, { current_head: head });
      for (const listener of run.listeners) await listener.committing?.(scope);
    });
    for (const listener of run.listeners) listener.committed?.(scope as unknown as WriteScope);
  } catch (err) {
    if (scope) for (const listener of run.listeners) listener.rolledBack?.(scope);
    if (!(err instanceof LoadingFailed)) throw err;
    await log.log('warning', `Nothing was changed: the data provided by ${name} stays as the last successful sync left it.`);
  }
  await log.log('info', `Data refresh from ${name} complete!`);
  await log.log('info', `Repository synchronization completed in ${duration(started)}`);
  return { status: log.failures ? 'failed' : 'completed', data: null };
}
