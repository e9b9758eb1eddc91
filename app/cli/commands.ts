import cluster from 'node:cluster';
import * as os from 'node:os';
import { RequestData, Store, ValidationError } from '../../framework';
import type { Database } from '../../framework/store/executor';
import type { Registry } from '../../framework';
import { parseObject, saveObject, validateObject } from '../../framework/serializer/writer';
import { DEFAULT_VERSION } from '../../framework/versioning/version';
import { Token } from '../../models/users/token';
import { User } from '../../models/users/user';
import { loadConfig } from '../config';
import { dataSourceFor, migrate, registryWith } from '../database';
import { enabledPlugins } from '../plugins';
import { createServer, jobWorkerFor } from '../server';
import { Logger } from '../../framework/http/logger';
import { changeLogListener, jobHookListener, JobCatalog, setJobCatalog, syncJobRecords, WebhookWorker } from '../../models/extras';
import { allJobs } from '../jobs';
import { openDatabase } from '../../framework/store/datasource';
import { optional, requireOption, UsageError, type ParsedArgs } from './args';

export class CommandError extends Error {}

function describeValidation(err: ValidationError): string {
  const detail = err.detail;
  if (Array.isArray(detail)) return detail.map(String).join('; ');
  return Object.entries(detail)
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : JSON.stringify(v)}`)
    .join('; ');
}

async function withDatabase<T>(fn: (db: Database, registry: Registry) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const plugins = enabledPlugins(config);
  const registry = registryWith(plugins);
  const ds = await dataSourceFor(config.databaseUrl, registry, false, plugins);
  await ds.initialize();
  try {
    await migrate(ds, plugins);
    const db = openDatabase(ds);
    try {
      return await fn(db, registry);
    } finally {
      db.close?.();
    }
  } finally {
    await ds.destroy();
  }
}

export async function serveCommand(args: ParsedArgs): Promise<void> {
  const workersText = optional(args, 'workers') ?? '1';
  if (!/^\d+$/.test(workersText) || Number(workersText) < 1) throw new UsageError('--workers must be a positive integer');
  const workers = Math.min(Number(workersText), Math.max(1, os.availableParallelism() * 4));
  const config = loadConfig({
    ...process.env,
    ...(optional(args, 'port') ? { PORT: optional(args, 'port') } : {}),
    ...(optional(args, 'host') ? { HOST: optional(args, 'host') } : {}),
  });
  if (workers > 1 && cluster.isPrimary) {
    // Migrate once in the primary (and refresh the job records), then fork workers that share the listening socket.
    await withDatabase(async (db, registry) => syncJobRecords(db, registry, new JobCatalog(allJobs(enabledPlugins(config), config.jobsRoot))));
    for (let i = 0; i < workers; i++) cluster.fork({ ...process.env, NETINV_WORKER: '1', PORT: String(config.port), HOST: config.host });
    cluster.on('exit', (worker, code) => {
      if (code !== 0) process.stderr.write(`worker ${worker.process.pid} exited with ${code}\n`);
    });
    process.stdout.write(`netinv ${config.version} serving http://${config.host}:${config.port}/api/ with ${workers} workers\n`);
    // Stopping the primary stops the workers first, each finishing its open requests.
    const stopAll = () => {
      const running = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
      if (running.length === 0) process.exit(0);
      let left = running.length;
      for (const w of running) {
        w?.once('exit', () => {
          if (--left === 0) process.exit(0);
        });
        w?.process.kill('SIGTERM');
      }
    };
    process.on('SIGINT', stopAll);
    process.on('SIGTERM', stopAll);
    return;
  }
  const server = await createServer(config, { migrate: !process.env.NETINV_WORKER });
  await server.listen();
  if (!process.env.NETINV_WORKER) process.stdout.write(`netinv ${config.version} serving http://${config.host}:${config.port}/api/\n`);
  const stop = () => {
    server.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const plugins = enabledPlugins(config);
  const ds = await dataSourceFor(config.databaseUrl, registryWith(plugins), false, plugins);
  await ds.initialize();
  try {
    const applied = await migrate(ds, plugins);
    process.stdout.write(applied.length ? `Applied ${applied.join(', ')}\n` : 'No migrations to apply.\n');
  } finally {
    await ds.destroy();
  }
}

export async function createSuperuserCommand(args: ParsedArgs): Promise<void> {
  const username = requireOption(args, 'username');
  const password = requireOption(args, 'password');
  const email = optional(args, 'email') ?? '';
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

export async function createTokenCommand(args: ParsedArgs): Promise<void> {
  const username = requireOption(args, 'username');
  const body: Record<string, unknown> = { write_enabled: !args.options.has('read-only') };
  const key = optional(args, 'key');
  if (key !== undefined) {
    if (!/^[0-9a-fA-F]{40}$/.test(key)) throw new UsageError('--key must be 40 hexadecimal characters');
    body.key = key.toLowerCase();
  }
  const expires = optional(args, 'expires');
  if (expires !== undefined) body.expires = expires;
  const description = optional(args, 'description');
  if (description !== undefined) body.description = description;
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
  const ds = await dataSourceFor(config.databaseUrl, registry, false, plugins);
  await ds.initialize();
  await migrate(ds, plugins);
  const db = openDatabase(ds);
  const catalog = new JobCatalog(allJobs(plugins, config.jobsRoot));
  setJobCatalog(registry, catalog);
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
  const jobs = jobWorkerFor(db, registry, config, [changeLogListener(() => webhooks.kick()), jobHookListener()], logger);
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
