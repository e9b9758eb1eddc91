import type { Server } from 'node:http';
import express, { type Express } from 'express';
import type { DataSource } from 'typeorm';
import { openDatabase } from '../framework/store/datasource';
import { seedGenerations } from '../framework/store/config-cache';
import { declareStatusCaches } from '../framework/store/statuses';
import type { Database } from '../framework/store/executor';
import { errorMiddleware } from '../framework/errors/mapper';
import { sessionRoutes } from '../framework/auth/session-routes';
import { FAVICON_SVG } from '../framework/http/page';
import { Logger } from '../framework/http/logger';
import { requestLog } from '../framework/http/request-log';
import { closeServer, expressServer, listenOn } from '../framework/http/express-server';
import { apiRouter, type Services } from '../framework/router/api';
import { buildRouteTable, type RouteTable } from '../framework/router/route-table';
import { setSecretsProviders, type Registry } from '../framework';
import { objectPermissionEngine, usersAuthBackend } from '../models/users';
import {
  changeLogListener,
  gitRepositoryListener,
  jobHookListener,
  MediaStore,
  runGitSync,
  setGitSettings,
  setTaskRunner,
  syncContentTypes,
  WebhookWorker,
  JobCatalog,
  JobWorker,
  setJobCatalog,
  setLocalJobQueue,
  syncJobRecords,
} from '../models/extras';
import { allJobs } from './jobs';
import type { JobWorkerOptions } from '../models/extras';
import type { Config } from './config';
import { connectDatabase, indexUniqueConstraints, migrate, registryWith } from './database';
import { enabledPlugins } from './plugins';
import { extraRoutes, modelActions } from './routes';
import { mediaRoutes } from './media';
import { documentationRoutes } from '../framework/openapi';
import { graphiqlRoutes } from '../framework/graphql';
import type { LoadedPlugin } from '../framework/plugins';

export interface NetinvServer {
  readonly app: Express;
  readonly ds: DataSource;
  readonly db: Database;
  readonly registry: Registry;
  readonly config: Readonly<Config>;
  readonly plugins: readonly LoadedPlugin[];
  /** The database, authentication and declared routes the router serves with. */
  readonly services: Services;
  /** Every route under `/api`: the router, OPTIONS, the browsable API and the OpenAPI document read it. */
  readonly routes: RouteTable;
  /** Sends queued webhook deliveries (started unless NETINV_WEBHOOK_WORKER is false). */
  readonly webhooks: WebhookWorker;
  /** Runs queued jobs (started unless NETINV_JOB_WORKER is false). */
  readonly jobs: JobWorker;
  listen(): Promise<Server>;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Apply pending migrations at start (default true). */
  migrate?: boolean;
  /** Start the embedded job worker when the configuration asks for it (default true). */
  jobWorker?: boolean;
}

/** The job worker of a process, with the server's write listeners for the jobs' writes. */
export function jobWorkerFor(db: Database, registry: Registry, config: Readonly<Config>, listeners: JobWorkerOptions['listeners'], logger: Logger): JobWorker {
  return new JobWorker(db, registry, {
    pollMs: config.jobPollMs,
    leaseSeconds: config.jobLeaseSeconds,
    softTimeLimit: config.jobSoftTimeLimit,
    timeLimit: config.jobTimeLimit,
    concurrency: config.jobConcurrency,
    listeners,
    onError: (message, data) => logger.warn(message, data),
  });
}

/** What the job workers of a process run besides job classes: Git repository syncs, with the NETINV_GIT_* settings. */
export function configureTasks(registry: Registry, config: Readonly<Config>): void {
  setGitSettings(registry, { root: config.gitRoot, timeoutSeconds: config.gitTimeoutSeconds, allowLocal: config.gitAllowLocal });
  setTaskRunner(registry, 'extras.gitrepository', runGitSync);
}

/** Config in, server out: registry, database, migrations and the Express application. */
export async function createServer(config: Readonly<Config>, options: ServerOptions = {}): Promise<NetinvServer> {
  const logger = new Logger(config.logLevel, config.logFormat);
  const plugins = enabledPlugins(config);
  const registry = registryWith(plugins);
  const ds = await connectDatabase(config.databaseUrl, registry, plugins);
  if (options.migrate !== false) {
    const applied = await migrate(ds, plugins);
    if (applied.length) logger.info('migrations applied', { migrations: applied });
  }
  indexUniqueConstraints(ds, registry);
  declareStatusCaches(registry);
  const db = openDatabase(ds, { keepCounts: config.keepListCounts });
  if (db.statistics) db.statistics.onError = (error, table) => logger.warn('could not refresh the planner statistics', { table, error });
  // Content types mirror the registry (core models and the enabled plugins'), so after migrations.
  if (options.migrate !== false) {
    await syncContentTypes(db, registry);
    await seedGenerations(db);
  }
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
  const media = new MediaStore(config.mediaRoot, config.maxImageBytes);
  const listeners = [changeLogListener(() => webhooks.kick()), jobHookListener(), media, gitRepositoryListener((message, data) => logger.warn(message, data))];
  setSecretsProviders(registry, plugins.flatMap((p) => p.definition.secrets_providers ?? []));
  const catalog = new JobCatalog(allJobs(plugins, config.jobsRoot));
  setJobCatalog(registry, catalog);
  configureTasks(registry, config);
  if (options.migrate !== false) await syncJobRecords(db, registry, catalog);
  const jobs = jobWorkerFor(db, registry, config, listeners, logger);
  setLocalJobQueue(registry, { kick: () => jobs.kick(), cancel: (id) => jobs.cancel(id), running: () => jobs.running });
  if (config.jobWorker && options.jobWorker !== false) jobs.start();

  const actions = modelActions(plugins);
  const apiRoutes = extraRoutes(registry, config, plugins);
  // The documents describe the table below, which lists the documentation routes too: read it lazily.
  const docs = documentationRoutes(() => ({ registry, table: routes, serverVersion: config.version }));
  const services: Services = {
    registry,
    db,
    config,
    logger,
    auth: usersAuthBackend(registry),
    listeners,
    permissions: objectPermissionEngine,
    routes: [...apiRoutes, ...docs.routes],
    mounts: docs.mounts,
    actions,
    rootEntries: ['status'],
  };
  const routes = buildRouteTable(services);

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  // First: every response, errors and 404s included, carries X-Request-ID and is logged.
  app.use(requestLog(logger));
  // Bodies are read by the pipeline after authentication (framework/http/body.ts), not here.
  // Next, as nearly every request is for it; none of the paths below lies under /api.
  app.use('/api', apiRouter(services, routes));
  app.get('/', (_req, res) => res.redirect(302, '/api/'));
  // Browsers ask for it on every site; the pages carry the same icon inline.
  app.get('/favicon.ico', (_req, res) => res.type('image/svg+xml').set('Cache-Control', 'public, max-age=86400').send(FAVICON_SVG));
  app.use('/api-auth', sessionRoutes(services.auth, db));
  app.use('/graphql', graphiqlRoutes(services.auth, db));
  app.use('/media', mediaRoutes(services, media));
  app.use(errorMiddleware(config.version, logger));

  let server: Server | null = null;
  return {
    app,
    ds,
    db,
    registry,
    config,
    plugins,
    services,
    routes,
    webhooks,
    jobs,
    async listen() {
      server = expressServer(app);
      server.keepAliveTimeout = 65_000;
      await listenOn(server, config.port, config.host);
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      logger.info('listening', { url: `http://${config.host}:${port}/api/`, version: config.version });
      return server;
    },
    async close() {
      if (server) await closeServer(server);
      await jobs.stop();
      await webhooks.stop();
      db.close?.();
      if (ds.isInitialized) await ds.destroy();
    },
  };
}
