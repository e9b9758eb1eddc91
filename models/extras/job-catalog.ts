import { randomUUID } from 'node:crypto';
import {
  DataKey,
  Store,
  isButtonReceiver,
  isHookReceiver,
  jobOptionsOf,
  type Actor,
  type Database,
  type JobLogLine,
  type Json,
  type RegisteredJob,
  type Registry,
  type Values,
  type WriteListener,
} from '../../framework';

/** The attributes a Job record copies from its class unless `<name>_override` is set. */
export const OVERRIDABLE = [
  'grouping',
  'name',
  'description',
  'approval_required',
  'commit_default',
  'hidden',
  'read_only',
  'soft_time_limit',
  'time_limit',
  'has_sensitive_variables',
  'task_queues',
] as const;

export interface CatalogEntry {
  readonly job: RegisteredJob;
  /** The class's values of the overridable attributes, with Nautobot's defaults. */
  readonly attributes: Readonly<Record<(typeof OVERRIDABLE)[number], Json>>;
}

function attributesOf(job: RegisteredJob): CatalogEntry['attributes'] {
  const o = jobOptionsOf(job.cls);
  return {
    grouping: o.grouping ?? job.module_name,
    name: o.name ?? job.cls.name,
    description: o.description ?? '',
    approval_required: o.approval_required ?? false,
    commit_default: o.commit_default ?? true,
    hidden: o.hidden ?? false,
    read_only: o.read_only ?? false,
    soft_time_limit: o.soft_time_limit ?? 0,
    time_limit: o.time_limit ?? 0,
    has_sensitive_variables: o.has_sensitive_variables ?? true,
    task_queues: o.task_queues ?? [],
  };
}

const key = (source: unknown, module: unknown, cls: unknown) => `${String(source)}/${String(module)}/${String(cls)}`;

/** The job classes this server knows (plugins' and the jobs directory's), by class path. */
export class JobCatalog {
  private readonly byPath = new Map<string, CatalogEntry>();

  constructor(jobs: readonly RegisteredJob[]) {
    for (const job of jobs) this.byPath.set(job.classPath, { job, attributes: attributesOf(job) });
  }

  get entries(): CatalogEntry[] {
    return [...this.byPath.values()];
  }

  /** The class of a Job record (its source, module and class name). */
  find(record: Values): CatalogEntry | undefined {
    return this.byPath.get(key(record.source, record.module_name, record.job_class_name));
  }

  byClassPath(path: string): CatalogEntry | undefined {
    return this.byPath.get(path);
  }
}

/** Per registry, as other caches derived from it: the catalog of the server built on it. */
const catalogs = new WeakMap<Registry, JobCatalog>();

export function setJobCatalog(registry: Registry, catalog: JobCatalog): void {
  catalogs.set(registry, catalog);
}

export function jobCatalogOf(registry: Registry): JobCatalog | undefined {
  return catalogs.get(registry);
}

/** What the API asks of the server's own worker (other processes poll the database). */
export interface LocalJobQueue {
  /** A run was queued: look now. */
  kick(): void;
  /** Stops a run this process is running; false when it runs elsewhere or not at all. */
  cancel(id: string): boolean;
  /** This process works the queue (its worker is started). */
  running?(): boolean;
}

const localQueues = new WeakMap<Registry, LocalJobQueue>();

export function setLocalJobQueue(registry: Registry, queue: LocalJobQueue): void {
  localQueues.set(registry, queue);
}

export function notifyJobQueue(registry: Registry): void {
  localQueues.get(registry)?.kick();
}

export function localWorkerRunning(registry: Registry): boolean {
  return localQueues.get(registry)?.running?.() ?? false;
}

export function cancelLocalRun(registry: Registry, id: string): boolean {
  return localQueues.get(registry)?.cancel(id) ?? false;
}

/** What a task that is not a job class (a Git repository's sync) gets from the worker running it. */
export interface TaskRun {
  readonly db: Database;
  readonly registry: Registry;
  /** The server's write listeners (change log, webhooks) for the task's writes. */
  readonly listeners: readonly WriteListener[];
  readonly actor: Actor | null;
  /** The result's `job_id`: the request id of the change records the task writes. */
  readonly requestId: string;
  /** Aborted at the soft time limit, on cancellation and when the run is stopped. */
  readonly signal: AbortSignal;
  /** Writes a log line of the result (streamed or kept for the end, as for jobs). */
  log(line: JobLogLine): Promise<void>;
}

export interface TaskOutcome {
  status: 'completed' | 'failed' | 'errored';
  data: Json;
}

/** Runs a pending result whose `obj_type` names the task (`extras.gitrepository`), from its `run_args`. */
export type TaskRunner = (run: TaskRun, result: Values) => Promise<TaskOutcome>;

const taskRunners = new WeakMap<Registry, ReadonlyMap<string, TaskRunner>>();

/** The tasks the workers of the server built on `registry` run besides job classes, by `obj_type`. */
export function setTaskRunner(registry: Registry, objType: string, runner: TaskRunner): void {
  taskRunners.set(registry, new Map([...(taskRunners.get(registry) ?? []), [objType, runner]]));
}

export function taskRunnerOf(registry: Registry, objType: string): TaskRunner | undefined {
  return taskRunners.get(registry)?.get(objType);
}

/** Set when a transaction queued runs: the local worker is woken once it commits (jobHookListener). */
export const RUNS_QUEUED = new DataKey<true>('jobs:runs-queued');

export function classPathOf(record: Values): string {
  return key(record.source, record.module_name, record.job_class_name);
}

/** Nautobot's slug of a class path: lower case, dots to dashes, other non-slug characters dropped. */
export function jobSlug(classPath: string): string {
  return classPath.toLowerCase().replace(/\//g, '-').replace(/\./g, '-').replace(/[^-a-z0-9_]/g, '');
}

/**
 * Creates or refreshes the Job record of every known class and marks the others uninstalled, as
 * Nautobot does at start; `enabled` and the overridden attributes are left as they are.
 */
export async function syncJobRecords(db: Database, registry: Registry, catalog: JobCatalog): Promise<void> {
  // Processes starting together on one database (two instances, `serve --workers N`) may both
  // insert a new class's record: the one that loses the race syncs again and finds it.
  for (let attempt = 1; ; attempt++) {
    try {
      return await syncJobRecordsOnce(db, registry, catalog);
    } catch (err) {
      if (attempt >= 3 || !db.dialect.uniqueViolation(err)) throw err;
    }
  }
}

async function syncJobRecordsOnce(db: Database, registry: Registry, catalog: JobCatalog): Promise<void> {
  const model = registry.get('extras.job');
  if (!model) return;
  await db.transaction(async (tx) => {
    const store = new Store(tx, registry);
    const existing = await store.find(model);
    const seen = new Set<string>();
    for (const row of existing) {
      const entry = catalog.find(row);
      if (!entry) {
        if (row.installed) await store.update(model, row.id as string, { installed: false });
        continue;
      }
      seen.add(entry.job.classPath);
      const values: Values = { installed: true, is_job_hook_receiver: isHookReceiver(entry.job.cls), is_job_button_receiver: isButtonReceiver(entry.job.cls) };
      for (const name of OVERRIDABLE) if (!row[`${name}_override`]) values[name] = entry.attributes[name];
      await store.update(model, row.id as string, values);
    }
    const now = new Date();
    for (const entry of catalog.entries) {
      if (seen.has(entry.job.classPath)) continue;
      const values: Values = {
        id: randomUUID(),
        source: entry.job.source,
        module_name: entry.job.module_name,
        job_class_name: entry.job.cls.name,
        slug: jobSlug(entry.job.classPath).slice(0, 320),
        installed: true,
        enabled: false,
        is_job_hook_receiver: isHookReceiver(entry.job.cls),
        is_job_button_receiver: isButtonReceiver(entry.job.cls),
        created: now.toISOString().slice(0, 10),
        last_updated: now,
        custom_fields: {},
      };
      for (const name of OVERRIDABLE) {
        values[name] = entry.attributes[name];
        values[`${name}_override`] = false;
      }
      await store.insert(model, values);
    }
  });
}
