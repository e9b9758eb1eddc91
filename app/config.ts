import * as fs from 'node:fs';
import { plainToInstance } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Max, Min, validateSync } from 'class-validator';
import type { FrameworkConfig } from '../framework/http/context';
import { LOG_FORMATS, type LogFormat, type LogLevel } from '../framework/http/logger';
import { parseDatabaseUrl } from '../framework/store/datasource';
import { netinvVersion } from './version';

export class ConfigError extends Error {}

/** Every setting of CONTRACT.md, validated once and frozen. */
export class Config implements FrameworkConfig {
  @IsInt() @Min(0) @Max(65535)
  port = 8080;

  @IsString()
  host = '127.0.0.1';

  @IsString()
  databaseUrl = 'sqlite:./data/netinv.sqlite';

  @IsBoolean()
  strictFiltering = true;

  @IsString({ each: true })
  exemptViewPermissions: string[] = [];

  @IsInt() @Min(1)
  paginateCount = 50;

  @IsInt() @Min(0)
  maxPageSize = 1000;

  @IsIn(['debug', 'info', 'warn', 'error', 'silent'])
  logLevel: LogLevel = 'info';

  /** `text` (readable lines) or `json` (one JSON object per line); either way on stderr. */
  @IsIn(LOG_FORMATS)
  logFormat: LogFormat = 'text';

  /** Largest accepted request body. */
  @IsInt() @Min(1024)
  maxBodyBytes = 2.5 * 1024 * 1024;

  /** Deepest nesting of objects and lists in a written JSON value; deeper is a 400 (the stack stays bounded). */
  @IsInt() @Min(1) @Max(1000)
  maxJsonDepth = 100;
  /** Most objects one bulk request (a list body) may carry; 0: no limit. */
  @IsInt() @Min(0)
  maxBulkObjects = 5000;
  /** Longest a list query with a regular-expression filter may run before it is a 400. */
  @IsInt() @Min(10) @Max(600_000)
  regexTimeoutMs = 750;
  /** Keep each list's count between requests while the database shows the data unchanged. */
  @IsBoolean()
  keepListCounts = true;

  /** Directory of uploaded files (image attachments); relative paths are relative to the working directory. */
  @IsString()
  mediaRoot = './data/media';

  /** Largest accepted image upload; a multipart body is also bounded by maxBodyBytes, read first. */
  @IsInt() @Min(1)
  maxImageBytes = 2 * 1024 * 1024;

  /** Directory of the Git repositories' local copies, one per repository; relative to the working directory. */
  @IsString()
  gitRoot = './data/git';

  /** Seconds one `git` command of a sync may take before it is stopped. */
  @IsInt() @Min(1)
  gitTimeoutSeconds = 300;

  /**
   * Git repositories may name `file://` URLs and absolute paths on the server (Nautobot accepts
   * http(s) URLs only): for tests and for repositories the server's host mirrors itself.
   */
  @IsBoolean()
  gitAllowLocal = false;

  @IsString()
  version = '0.1.0';

  /** The webhook delivery worker runs in this process. */
  @IsBoolean()
  webhookWorker = true;

  /** Seconds between sweeps for due webhook deliveries left by other processes; 0 disables them. */
  @IsInt() @Min(0)
  webhookPollSeconds = 30;

  @IsInt() @Min(1) @Max(100)
  webhookMaxAttempts = 5;

  @IsInt() @Min(1)
  webhookRetrySeconds = 10;

  /** Total time one delivery attempt may take: connecting, sending and reading the whole answer. */
  @IsInt() @Min(1)
  webhookTimeoutSeconds = 10;

  /** Webhook deliveries one process sends at the same time. */
  @IsInt() @Min(1) @Max(64)
  webhookConcurrency = 4;

  /** Seconds a claimed webhook delivery stays this process's without renewal (renewed every third of it while it is sent). */
  @IsInt() @Min(1)
  webhookLeaseSeconds = 30;

  /** Jobs run in this process (the embedded worker); `netinv worker` runs them in a process of its own. */
  @IsBoolean()
  jobWorker = true;

  /** A directory of job modules (compiled .js, or .ts under ts-node), loaded at start. */
  @IsString()
  jobsRoot = '';

  /** Milliseconds between polls of the job queue for runs queued elsewhere, schedules and dead workers. */
  @IsInt() @Min(10)
  jobPollMs = 1000;

  /** Seconds a running job's claim lasts without renewal: a worker silent that long is dead. */
  @IsInt() @Min(1)
  jobLeaseSeconds = 30;

  /** Time limits of jobs that declare none, in seconds. */
  @IsInt() @Min(1)
  jobSoftTimeLimit = 300;

  @IsInt() @Min(1)
  jobTimeLimit = 600;

  /** Jobs one process runs at the same time. */
  @IsInt() @Min(1) @Max(64)
  jobConcurrency = 1;

  /** X-Query-Count response header, for benchmarks and query-count checks. */
  @IsBoolean()
  countQueries = false;

  /** Deepest nesting of a GraphQL query's selections; 0: no limit. */
  @IsInt() @Min(0)
  graphqlMaxDepth = 10;

  /** Most fields a GraphQL query may select (fragments expanded); 0: no limit. */
  @IsInt() @Min(0)
  graphqlMaxComplexity = 1000;

  /** Enabled plugins: module paths (resolved from the working directory) or package names. */
  @IsString({ each: true })
  plugins: string[] = [];

  /** PLUGINS_CONFIG of the config file: plugin name → settings. */
  pluginsConfig: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {};
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** PLUGINS_CONFIG must map plugin names to objects. */
function pluginsConfigOf(raw: unknown): Record<string, Record<string, unknown>> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) throw new ConfigError('PLUGINS_CONFIG: expected an object of plugin name → settings object');
  for (const [name, settings] of Object.entries(raw)) {
    if (!isPlainObject(settings)) throw new ConfigError(`PLUGINS_CONFIG.${name}: expected an object`);
  }
  return raw as Record<string, Record<string, unknown>>;
}

type Env = Record<string, string | undefined>;

function parseBool(name: string, text: string): boolean {
  const t = text.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(t)) return true;
  if (['false', '0', 'no', 'off'].includes(t)) return false;
  throw new ConfigError(`${name}=${text}: expected true or false`);
}

function parseInt10(name: string, text: string): number {
  if (!/^\s*\d+\s*$/.test(text)) throw new ConfigError(`${name}=${text}: expected a non-negative integer`);
  return Number(text);
}

/** Environment variables, over an optional JSON config file (NETINV_CONFIG) using the same keys. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  let raw: Record<string, unknown> = {};
  if (env.NETINV_CONFIG) {
    try {
      raw = JSON.parse(fs.readFileSync(env.NETINV_CONFIG, 'utf8')) as Record<string, unknown>;
    } catch (err) {
      throw new ConfigError(`NETINV_CONFIG ${env.NETINV_CONFIG}: ${(err as Error).message}`);
    }
  }
  const merged: Record<string, unknown> = { ...raw };
  const setting = (name: string, key: keyof Config, parse: (n: string, v: string) => unknown) => {
    const v = env[name] ?? (typeof raw[name] === 'string' || typeof raw[name] === 'number' || typeof raw[name] === 'boolean' ? String(raw[name]) : undefined);
    if (v !== undefined && v !== '') merged[key] = parse(name, v);
    delete merged[name];
  };
  setting('PORT', 'port', parseInt10);
  setting('HOST', 'host', (_n, v) => v);
  setting('DATABASE_URL', 'databaseUrl', (_n, v) => v);
  setting('NETINV_STRICT_FILTERING', 'strictFiltering', parseBool);
  setting('NETINV_EXEMPT_VIEW_PERMISSIONS', 'exemptViewPermissions', (_n, v) => v.split(',').map((s) => s.trim()).filter(Boolean));
  setting('NETINV_PAGINATE_COUNT', 'paginateCount', parseInt10);
  setting('NETINV_MAX_PAGE_SIZE', 'maxPageSize', parseInt10);
  setting('NETINV_LOG_LEVEL', 'logLevel', (_n, v) => v.toLowerCase());
  setting('NETINV_LOG_FORMAT', 'logFormat', (_n, v) => v.toLowerCase());
  setting('NETINV_MAX_BODY_BYTES', 'maxBodyBytes', parseInt10);
  setting('NETINV_MAX_JSON_DEPTH', 'maxJsonDepth', parseInt10);
  setting('NETINV_MAX_BULK_OBJECTS', 'maxBulkObjects', parseInt10);
  setting('NETINV_REGEX_TIMEOUT_MS', 'regexTimeoutMs', parseInt10);
  setting('NETINV_KEEP_LIST_COUNTS', 'keepListCounts', parseBool);
  setting('NETINV_MEDIA_ROOT', 'mediaRoot', (_n, v) => v);
  setting('NETINV_MAX_IMAGE_BYTES', 'maxImageBytes', parseInt10);
  setting('NETINV_GIT_ROOT', 'gitRoot', (_n, v) => v);
  setting('NETINV_GIT_TIMEOUT_SECONDS', 'gitTimeoutSeconds', parseInt10);
  setting('NETINV_GIT_ALLOW_LOCAL', 'gitAllowLocal', parseBool);
  setting('NETINV_WEBHOOK_WORKER', 'webhookWorker', parseBool);
  setting('NETINV_WEBHOOK_POLL_SECONDS', 'webhookPollSeconds', parseInt10);
  setting('NETINV_WEBHOOK_MAX_ATTEMPTS', 'webhookMaxAttempts', parseInt10);
  setting('NETINV_WEBHOOK_RETRY_SECONDS', 'webhookRetrySeconds', parseInt10);
  setting('NETINV_WEBHOOK_TIMEOUT_SECONDS', 'webhookTimeoutSeconds', parseInt10);
  setting('NETINV_WEBHOOK_CONCURRENCY', 'webhookConcurrency', parseInt10);
  setting('NETINV_WEBHOOK_LEASE_SECONDS', 'webhookLeaseSeconds', parseInt10);
  setting('NETINV_JOB_WORKER', 'jobWorker', parseBool);
  setting('NETINV_JOBS_ROOT', 'jobsRoot', (_n, v) => v);
  setting('NETINV_JOB_POLL_MS', 'jobPollMs', parseInt10);
  setting('NETINV_JOB_LEASE_SECONDS', 'jobLeaseSeconds', parseInt10);
  setting('NETINV_JOB_SOFT_TIME_LIMIT', 'jobSoftTimeLimit', parseInt10);
  setting('NETINV_JOB_TIME_LIMIT', 'jobTimeLimit', parseInt10);
  setting('NETINV_JOB_CONCURRENCY', 'jobConcurrency', parseInt10);
  setting('NETINV_COUNT_QUERIES', 'countQueries', parseBool);
  setting('NETINV_GRAPHQL_MAX_DEPTH', 'graphqlMaxDepth', parseInt10);
  setting('NETINV_GRAPHQL_MAX_COMPLEXITY', 'graphqlMaxComplexity', parseInt10);
  // The file may list plugins as an array; the environment as comma-separated text.
  if (Array.isArray(raw.NETINV_PLUGINS) && env.NETINV_PLUGINS === undefined) raw.NETINV_PLUGINS = raw.NETINV_PLUGINS.join(',');
  setting('NETINV_PLUGINS', 'plugins', (_n, v) => v.split(',').map((s) => s.trim()).filter(Boolean));
  const pluginsConfig = pluginsConfigOf(raw.PLUGINS_CONFIG);
  delete merged.PLUGINS_CONFIG;
  const config = plainToInstance(Config, merged, { exposeDefaultValues: true });
  const errors = validateSync(config, { forbidUnknownValues: false });
  if (errors.length) {
    throw new ConfigError(errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`).join('; '));
  }
  try {
    parseDatabaseUrl(config.databaseUrl);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  config.version = netinvVersion();
  config.pluginsConfig = pluginsConfig;
  return Object.freeze(config);
}
