import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A `git` command that failed; its message never carries the credentials. */
export class GitCommandError extends Error {}

/** HTTP(S) credentials for the remote, from the repository's secrets group or its own fields. */
export interface GitCredentials {
  readonly username: string | null;
  readonly token: string | null;
}

export interface GitOptions {
  /** Seconds each command may take. */
  readonly timeoutSeconds: number;
  /** `file://` URLs and local paths may be fetched. */
  readonly allowLocal: boolean;
  readonly signal?: AbortSignal;
}

/** The most of a command's output kept (its errors are read from it). */
const MAX_OUTPUT = 1024 * 1024;

/**
 * Variables of the server's environment that would point git at another repository or inject
 * configuration or prompts; git gets the rest (proxies, CA bundles, HOME).
 */
const DROPPED_ENV = /^(GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|CONFIG.*|ASKPASS|TERMINAL_PROMPT|ALLOW_PROTOCOL|PROTOCOL_FROM_USER|SSH.*|EXEC_PATH|TEMPLATE_DIR)|SSH_ASKPASS|NETINV_GIT_.*)$/;

/**
 * The credential helper git runs (through its shell) when the remote asks for a login: a fixed
 * text that prints the two values git finds in its own environment, so they never appear in a
 * command line, a URL or a file.
 */
const CREDENTIAL_HELPER = '!f() { test "$1" = get || exit 0; printf "username=%s\\npassword=%s\\n" "$NETINV_GIT_USERNAME" "$NETINV_GIT_PASSWORD"; }; f';

function environment(options: GitOptions, credentials: GitCredentials | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!DROPPED_ENV.test(key)) env[key] = value;
  Object.assign(env, {
    // Never wait for a password typed on a terminal that is not there.
    GIT_TERMINAL_PROMPT: '0',
    GCM_INTERACTIVE: 'never',
    // Only these transports, also for redirects and submodules (no ext::, no ssh).
    GIT_ALLOW_PROTOCOL: options.allowLocal ? 'http:https:file' : 'http:https',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
  });
  if (credentials && (credentials.username || credentials.token)) {
    // Nautobot puts `user:token@` (or `token@`) in the URL; the helper gives git the same pair.
    env.NETINV_GIT_USERNAME = credentials.username || credentials.token || '';
    env.NETINV_GIT_PASSWORD = credentials.username ? credentials.token ?? '' : '';
  }
  return env;
}

/** Replaces credentials in text git printed: the values themselves and any `user:password@` of a URL. */
function redact(text: string, credentials: GitCredentials | null): string {
  let out = text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@');
  for (const secret of [credentials?.token, credentials?.username]) {
    if (secret && secret.length >= 3) out = out.split(secret).join('***');
  }
  return out;
}

interface Run {
  args: string[];
  options: GitOptions;
  credentials?: GitCredentials | null;
}

/** Runs `git` with an argument list (never a shell line) and answers its standard output. */
function git({ args, options, credentials = null }: Run): Promise<string> {
  const what = args.find((a) => !a.startsWith('-') && !a.includes('=')) ?? 'git';
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, {
      env: environment(options, credentials),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeoutSeconds * 1000,
      killSignal: 'SIGKILL',
      signal: options.signal,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += chunk;
    });
    let failed: Error | null = null;
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (err.name === 'AbortError') failed = new GitCommandError(`git ${what} was stopped`);
      else if (err.code === 'ENOENT') failed = new GitCommandError('The git command is not installed on this server');
      else failed = new GitCommandError(`git ${what} could not run: ${err.message}`);
    });
    child.on('close', (code, signal) => {
      if (failed) return reject(failed);
      if (code === 0) return resolve(stdout);
      if (signal === 'SIGKILL' && !options.signal?.aborted) return reject(new GitCommandError(`git ${what} took longer than ${options.timeoutSeconds} seconds and was stopped`));
      if (signal) return reject(new GitCommandError(`git ${what} was stopped (${signal})`));
      const message = redact(stderr.trim(), credentials).replace(/\n+/g, '; ');
      reject(new GitCommandError(message || `git ${what} exited with status ${code}`));
    });
  });
}

/** git's options for a repository of our own: its directory given, no discovery, no hooks, no symlinks. */
function inRepository(dir: string): string[] {
  return [`--git-dir=${path.join(dir, '.git')}`, `--work-tree=${dir}`, '-c', 'core.hooksPath=/dev/null', '-c', 'core.symlinks=false'];
}

/** A branch name git accepts (`git check-ref-format --branch`). */
async function checkBranch(branch: string, options: GitOptions): Promise<void> {
  try {
    await git({ args: ['check-ref-format', '--branch', branch], options });
  } catch {
    throw new GitCommandError(`"${branch}" is not a valid branch name`);
  }
}

/** Serialises the syncs of one local copy within this process. */
const busy = new Map<string, Promise<unknown>>();

/**
 * Brings the local copy at `dir` to the newest commit of `branch` at `remote`, as Nautobot's
 * GitRepo.checkout does (fetch, then the working tree reset to the remote branch, force-pushes
 * included), and answers that commit's hash. The remote URL is given to each fetch and never
 * stored in the copy; credentials reach git through its credential helper only.
 */
export function checkoutBranch(dir: string, remote: string, branch: string, credentials: GitCredentials | null, options: GitOptions): Promise<string> {
  const previous = busy.get(dir) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => checkout(dir, remote, branch, credentials, options));
  busy.set(dir, run);
  void run.finally(() => {
    if (busy.get(dir) === run) busy.delete(dir);
  }).catch(() => undefined);
  return run;
}

async function checkout(dir: string, remote: string, branch: string, credentials: GitCredentials | null, options: GitOptions): Promise<string> {
  await checkBranch(branch, options);
  if (!fs.existsSync(path.join(dir, '.git'))) {
    await fs.promises.mkdir(dir, { recursive: true });
    await git({ args: ['-c', 'init.defaultBranch=netinv', 'init', '--quiet', '--', dir], options });
  }
  const tracking = `refs/remotes/origin/${branch}`;
  try {
    await git({
      args: [...inRepository(dir), '-c', 'credential.helper=', '-c', `credential.helper=${CREDENTIAL_HELPER}`, 'fetch', '--quiet', '--no-tags', '--force', '--', remote, `+refs/heads/${branch}:${tracking}`],
      options,
      credentials,
    });
  } catch (err) {
    if (err instanceof GitCommandError && /couldn't find remote ref/i.test(err.message)) {
      throw new GitCommandError(`Please create branch '${branch}' in upstream and try again. If this is a new repo, please add a commit before syncing. ${err.message}`);
    }
    throw err;
  }
  const head = (await git({ args: [...inRepository(dir), 'rev-parse', '--verify', '--quiet', `${tracking}^{commit}`], options })).trim();
  await git({ args: [...inRepository(dir), 'checkout', '--quiet', '--force', '--detach', head], options });
  await git({ args: [...inRepository(dir), 'clean', '-ffdxq'], options });
  return head;
}

/** Removes a local copy (after its repository's deletion committed). */
export async function removeCopy(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true });
}
