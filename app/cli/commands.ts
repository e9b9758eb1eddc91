import cluster from 'node:cluster';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DataSource } from 'typeorm';
import { RequestData, Store, ValidationError } from '../../framework';
import type { Database } from '../../framework/store/executor';
import type { Registry } from '../../framework';
import type { LoadedPlugin } from '../../framework/plugins';
import { parseObject, saveObject, validateObject } from '../../framework/serializer/writer';
import { DEFAULT_VERSION } from '../../framework/versioning/version';
import { Token } from '../../models/users/token';
import { User } from '../../models/users/user';
import { loadConfig, type Config } from '../config';
import { connectDatabase, DatabaseError, displayDatabaseUrl, migrate, reasonOf, registryWith } from '../database';
import { enabledPlugins } from '../plugins';
import { configureTasks, createServer, jobWorkerFor } from '../server';
import { Logger } from '../../framework/http/logger';
import { changeLogListener, gitRepositoryListener, jobHookListener, JobCatalog, setJobCatalog, syncJobRecords, WebhookWorker } from '../../models/extras';
import { allJobs } from '../jobs';
import { openDatabase, parseDatabaseUrl } from '../../framework/store/datasource';
import { Progress } from '../progress';
import { UsageError } from './args';
import { askHidden, PromptCancelled } from './prompt';

export class CommandError extends Error {}

/** The server could not listen: the message names the address and port and what to do. */
export class ListenError extends Error {}

function describeValidation(err: ValidationError): string {
  const detail = err.detail;
  if (Array.isArray(detail)) return detail.map(String).join('; ');
  return Object.entries(detail)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : JSON.stringify(v)}`)
    .join('; ');
}

/**
 * Connects to the configured database and says on stderr which one is in use (password masked, a
 * SQLite path made absolute, a new SQLite file named as created), then applies pending migrations
 * with progress on stderr. Failures are DatabaseErrors naming the database.
 */
async function openMigrated(config: Readonly<Config>, registry: Registry, plugins: readonly LoadedPlugin[]): Promise<{ ds: DataSource; applied: string[] }> {
  const url = config.databaseUrl;
  const parsed = parseDatabaseUrl(url);
  let shown = displayDatabaseUrl(url);
  let newFile: string | undefined;
  if (parsed.dialect === 'sqlite') {
    if (parsed.file === ':memory:') shown += ' (in memory, gone when the process ends)';
    else if (!fs.existsSync(path.resolve(parsed.file as string))) newFile = path.resolve(parsed.file as string);
  }
  const ds = await connectDatabase(url, registry, plugins);
  if (newFile !== undefined && fs.existsSync(newFile)) shown += ' (created a new database file)';
  process.stderr.write(`Database: ${shown}\n`);
  let progress: Progress | undefined;
  try {
    const applied = await migrate(ds, plugins, {
      pending: (count) => {
        if (count > 0) progress = new Progress(count, { title: 'migrations' });
      },
      applied: (name) => progress?.advance(1, name),
    });
    progress?.finish();
    return { ds, applied };
  } catch (err) {
    progress?.finish();
    await ds.destroy().catch(() => undefined);
    throw new DatabaseError(`database ${displayDatabaseUrl(url)}: applying migrations failed: ${reasonOf(err)}`);
  }
}

async function withDatabase<T>(fn: (db: Database, registry: Registry) => Promise<T>, config: Readonly<Config> = loadConfig()): Promise<T> {
  const plugins = enabledPlugins(config);
  const registry = registryWith(plugins);
  const { ds } = await openMigrated(config, registry, plugins);
  try {
    const db = openDatabase(ds);
    try {
      const result = await fn(db, registry);
      // A command that wrote many rows leaves the planner's statistics current behind it.
      await db.statistics?.flush();
      return result;
    } finally {
      db.close?.();
    }
  } finally {
    await ds.destroy();
  }
}

/** Why a server could not listen, in words that name the port and the way out. */
export function listenFailure(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') return new ListenError(`port ${port} on ${host} is already in use; stop the program using it or choose another port (--port or PORT)`);
  if (code === 'EACCES') return new ListenError(`no permission to listen on port ${port} on ${host}; choose a port above 1023 (--port or PORT)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new ListenError(`cannot listen on ${host}:${port}: ${host} is not an address of this machine (--host or HOST)`);
  return new ListenError(`cannot listen on ${host}:${port}: ${reasonOf(err)}`);
}

export interface ServeOptions {
  port?: number;
  host?: string;
  workers?: number;
}

export async function serveCommand(options: ServeOptions): Promise<void> {
  const workers = Math.min(options.workers ?? 1, Math.max(1, os.availableParallelism() * 4));
  const config = loadConfig({
    ...process.env,
    ...(options.port !== undefined ? { PORT: String(options.port) } : {}),
    ...(options.host !== undefined ? { HOST: options.host } : {}),
  });
  if (workers > 1 && cluster.isPrimary) return servePrimary(config, workers);
  // Migrations (with progress) before the server starts; the server then finds none pending.
  if (!process.env.NETINV_WORKER) await withDatabase(async () => undefined, config);
  const server = await createServer(config, { migrate: !process.env.NETINV_WORKER });
  try {
    await server.listen();
  } catch (err) {
    throw listenFailure(err, config.host, config.port);
  }
  if (!process.env.NETINV_WORKER) process.stdout.write(`netinv ${config.version} serving http://${config.host}:${config.port}/api/\n`);
  const stop = () => {
    server.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A worker of `serve --workers N` that cannot start tells the primary why (see main.ts). */
export interface WorkerFailure {
  type: 'netinv:failed';
  message: string;
}

/**
 * The primary of `serve --workers N`: migrates once (and refreshes the job records), forks N
 * workers that share the listening socket, and says it is serving once all of them listen. If a
 * worker fails to start (the port is taken, say) it stops the others and exits 1 with the reason.
 */
async function servePrimary(config: Readonly<Config>, workers: number): Promise<void> {
  await withDatabase(async (db, registry) => syncJobRecords(db, registry, new JobCatalog(allJobs(enabledPlugins(config), config.jobsRoot))), config);
  let listening = 0;
  let stopping = false;
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    if (running.length === 0) process.exit(code);
    let left = running.length;
    for (const w of running) {
      w?.once('exit', () => {
        if (--left === 0) process.exit(code);
      });
      w?.process.kill('SIGTERM');
    }
    // Workers still starting stop at once; a worker that hangs does not keep the primary.
    setTimeout(() => {
      for (const w of running) if (w && !w.isDead()) w.process.kill('SIGKILL');
      process.exit(code);
    }, 15_000).unref();
  };
  const fail = (message: string) => {
    if (stopping) return;
    process.stderr.write(`Error: ${message}\n`);
    stopAll(1);
  };
  cluster.on('message', (_worker, message: Partial<WorkerFailure>) => {
    if (message?.type === 'netinv:failed') fail(String(message.message));
  });
  cluster.on('listening', () => {
    if (++listening === workers) process.stdout.write(`netinv ${config.version} serving http://${config.host}:${config.port}/api/ with ${workers} workers\n`);
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const how = signal ? `on ${signal}` : `with ${code}`;
    // A worker that reported its failure has said why; the report may come just before its exit.
    if (listening < workers) setTimeout(() => fail(`worker ${worker.process.pid} exited ${how} before serving`), 200);
    else if (code !== 0) process.stderr.write(`worker ${worker.process.pid} exited ${how}\n`);
  });
  for (let i = 0; i < workers; i++) cluster.fork({ ...process.env, NETINV_WORKER: '1', PORT: String(config.port), HOST: config.host });
  // Stopping the primary stops the workers first, each finishing its open requests.
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));
}

export async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const plugins = enabledPlugins(config);
  const { ds, applied } = await openMigrated(config, registryWith(plugins), plugins);
  await ds.destroy();
  process.stdout.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'No migrations to apply.\n');
}

/** The password of createsuperuser: the option, or asked twice on a terminal without echo. */
async function passwordFor(given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  if (!process.stdin.isTTY) throw new UsageError('--password is required when standard input is not a terminal');
  let answers: string[];
  try {
    answers = await askHidden(['Password: ', 'Password (again): ']);
  } catch (err) {
    if (err instanceof PromptCancelled) throw new CommandError('no password given: cancelled');
    throw err;
  }
  const [password, again] = answers;
  if (password === '') throw new CommandError('the password must not be empty');
  if (password !== again) throw new CommandError('the passwords do not match');
  return password;
}

export interface CreateSuperuserOptions {
  username: string;
  password?: string;
  email?: string;
}

export async function createSuperuserCommand(options: CreateSuperuserOptions): Promise<void> {
  const username = options.username;
  const password = await passwordFor(options.password);
  const email = options.email ?? '';
  await withDatabase(async (db, registry) => {
    const model = registry.forClass(User);
    await db.transaction(async (tx) => {
      if (await new Store(tx).exists(model, { username })) throw new CommandError(`user ${username} already exists`);
      const scope = { tx, registry, version: DEFAULT_VERSION, actor: null, features: new RequestData(), listeners: [] };
      try {
        const { values, wc } = await parseObject(model, { username, password, email, is_staff: true }, scope, null, false);
        values.is_superuser = true;
        await validateObject(model, values, wc);
        await saveObject(model, values, wc);
      } catch (err) {
        if (err instanceof ValidationError) throw new CommandError(describeValidation(err));
        throw err;
      }
    });
  });
  process.stdout.write(`Superuser ${username} created.\n`);
}

export interface CreateTokenOptions {
  username: string;
  /** Already checked and lower-cased by the option parser. */
  key?: string;
  readOnly?: boolean;
  expires?: string;
  description?: string;
}

export async function createTokenCommand(options: CreateTokenOptions): Promise<void> {
  const username = options.username;
  const body: Record<string, unknown> = { write_enabled: !options.readOnly };
  if (options.key !== undefined) body.key = options.key;
  if (options.expires !== undefined) body.expires = options.expires;
  if (options.description !== undefined) body.description = options.description;
  const created = await withDatabase(async (db, registry) => {
    const userModel = registry.forClass(User);
    const model = registry.forClass(Token);
    return db.transaction(async (tx) => {
      const [user] = await new Store(tx).find(userModel, { username });
      if (!user) throw new CommandError(`no user named ${username}`);
      const actor = { id: user.id as string, username, isSuperuser: false };
      const scope = { tx, registry, version: DEFAULT_VERSION, actor, features: new RequestData(), listeners: [] };
      try {
        const { values, wc } = await parseObject(model, body, scope, null, false);
        await validateObject(model, values, wc);
        await saveObject(model, values, wc);
        return String(values.key);
      } catch (err) {
        if (err instanceof ValidationError) throw new CommandError(describeValidation(err));
        throw err;
      }
    });
  });
  process.stdout.write(`${created}\n`);
}

/**
 * `netinv worker`: works the job queue (and sends the webhook deliveries its jobs queue) without
 * serving HTTP. Several workers, on one host or many, share the queue of one database. SIGTERM or
 * SIGINT stops claiming and lets the runs under way finish.
 */
export async function workerCommand(): Promise<void> {
  const config = loadConfig();
  const logger = new Logger(config.logLevel, config.logFormat);
  const plugins = enabledPlugins(config);
  const registry = registryWith(plugins);
  const { ds } = await openMigrated(config, registry, plugins);
  const db = openDatabase(ds);
  const catalog = new JobCatalog(allJobs(plugins, config.jobsRoot));
  setJobCatalog(registry, catalog);
  configureTasks(registry, config);
  await syncJobRecords(db, registry, catalog);
  const webhooks = new WebhookWorker(db, registry, {
    pollSeconds: config.webhookPollSeconds,
    maxAttempts: config.webhookMaxAttempts,
    retryBaseSeconds: config.webhookRetrySeconds,
    timeoutSeconds: config.webhookTimeoutSeconds,
    concurrency: config.webhookConcurrency,
    leaseSeconds: config.webhookLeaseSeconds,
    onError: (message, data) => logger.warn(message, data),
  });
  if (config.webhookWorker) webhooks.start();
  const jobs = jobWorkerFor(db, registry, config, [changeLogListener(() => webhooks.kick()), jobHookListener(), gitRepositoryListener((message, data) => logger.warn(message, data))], logger);
  jobs.start();
  // The worker's timers do not hold the process open (they must not in the server): this does.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  process.stdout.write(`netinv ${config.version} job worker ${jobs.id} started\n`);
  const stop = () => {
    clearInterval(keepAlive);
    void (async () => {
      await jobs.stop();
      await webhooks.stop();
      db.close?.();
      await ds.destroy();
    })().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
