import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import {
  JobContext,
  LATEST_VERSION,
  RequestData,
  Store,
  and,
  claimRows,
  isHookReceiver,
  retryingDeadlocks,
  fieldTest,
  storeDateTime,
  type Actor,
  type Database,
  type Executor,
  type FieldMeta,
  type Id,
  type Json,
  type JobLogLine,
  type ModelMeta,
  type Predicate,
  type Registry,
  type Values,
  type WriteListener,
  type WriteScope,
} from '../../framework';
import { User } from '../users/user';
import { JobLogEntry, JobModel, JobResult, JobWorkerBeat, ScheduledJob } from './job';
import { jobCatalogOf, localWorkerRunning, taskRunnerOf, type TaskRunner } from './job-catalog';
import { nextRun } from './job-schedule';
import { markHookReceiverRun } from './job-hook-listener';

export interface JobWorkerOptions {
  /** Milliseconds between polls of the queue (new runs queued by other processes, schedules, dead workers). */
  pollMs: number;
  /** Seconds a claimed run stays with this worker without a renewal; renewed every third of it. */
  leaseSeconds: number;
  /** Soft and hard time limits of jobs that set none (seconds). */
  softTimeLimit: number;
  timeLimit: number;
  /** Runs executed at the same time by this process. */
  concurrency: number;
  /** Change logging and webhooks for the jobs' writes (the server's write listeners). */
  listeners: readonly WriteListener[];
  onError?: (message: string, data: Record<string, unknown>) => void;
}

/** Why a run stopped before `run` returned. */
class RunStopped extends Error {}
class Rollback extends Error {}

const CANCELLED = 'The job was cancelled; its changes were rolled back.';

function field(model: ModelMeta, name: string): FieldMeta {
  return model.field(name) as FieldMeta;
}

/** Rows with exactly these attribute values; works on hidden fields too, which attribute filters do not reach. */
function matching(model: ModelMeta, values: Values): Predicate {
  return and(Object.entries(values).map(([name, value]) => fieldTest(field(model, name), 'exact', [value instanceof Date ? storeDateTime(value) : value])));
}

function traceback(err: unknown): string {
  return err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
}

/**
 * Works the job queue: claims pending job results (at least once, never two workers at a time),
 * runs each job in one transaction that commits or rolls back as asked, streams its log, keeps
 * the claim alive with a lease, enforces time limits and cancellation, fires due schedules, and
 * marks runs whose worker died as failed.
 */
export class JobWorker {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private timer: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private again = false;
  private started = false;
  private readonly active = new Map<Id, Promise<void>>();
  /** Stops a run of this process at once (cancellation from this process's API). */
  private readonly halts = new Map<Id, (reason: string) => void>();
  private beatTimer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly registry: Registry,
    private readonly options: JobWorkerOptions,
  ) {}

  private meta(cls: Function): ModelMeta {
    return this.registry.forClass(cls);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.beat();
    this.beatTimer = setInterval(() => this.beat(), this.beatMs);
    this.beatTimer.unref();
    this.kick();
  }

  /** True between start() and stop(): this process works the queue. */
  get running(): boolean {
    return this.started;
  }

  /** Stops claiming and waits for the runs under way. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.beatTimer) clearInterval(this.beatTimer);
    this.beatTimer = null;
    await this.loop;
    await Promise.allSettled([...this.active.values()]);
    await this.beating;
    await this.db
      .transaction((tx) => new Store(tx, this.registry).delete(this.meta(JobWorkerBeat), matching(this.meta(JobWorkerBeat), { worker: this.id })))
      .catch((err) => this.options.onError?.('job worker heartbeat failed', { error: traceback(err) }));
  }

  /**
   * Between beats: a third of the lease, or the poll interval when polls are rarer (timed work
   * never comes more often than the polls do; tests that count statements poll once an hour).
   */
  private get beatMs(): number {
    return Math.max(50, Math.floor((this.options.leaseSeconds * 1000) / 3), this.options.pollMs);
  }

  /**
   * Records that this worker is alive for three beats (plus the hard time limit on a database
   * with one writer, where a running job's transaction may hold the renewal back), so other
   * processes know a worker runs.
   */
  private beat(): void {
    if (this.beating || !this.started) return;
    const model = this.meta(JobWorkerBeat);
    const until = new Date(Date.now() + 3 * this.beatMs + (this.db.dialect.serialWrites ? this.options.timeLimit * 1000 : 0));
    this.beating = this.db
      .transaction(async (tx) => {
        const store = new Store(tx, this.registry);
        if ((await store.updateWhere(model, matching(model, { worker: this.id }), { alive_until: until })) === 0) {
          await store.insert(model, { id: randomUUID(), worker: this.id, alive_until: until });
        }
        // Rows of workers that stopped without saying so.
        await store.delete(model, fieldTest(field(model, 'alive_until'), 'lt', [storeDateTime(new Date(Date.now() - 24 * 3600 * 1000))]));
      })
      .catch((err) => this.options.onError?.('job worker heartbeat failed', { error: traceback(err) }))
      .finally(() => {
        this.beating = null;
      });
  }

  /** Work was queued: look now. */
  kick(): void {
    if (!this.started) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    this.loop = this.sweep()
      .catch((err) => this.options.onError?.('job worker failed', { error: traceback(err) }))
      .finally(() => {
        this.loop = null;
        if (this.again) {
          this.again = false;
          this.kick();
        } else this.schedule();
      });
  }

  /**
   * Cancels a run if this process is running it: its transaction is rolled back now instead of
   * at the next lease renewal (with one writer, the cancelling request waits for that).
   */
  cancel(id: Id): boolean {
    const halt = this.halts.get(id);
    halt?.(CANCELLED);
    return !!halt;
  }

  /** Resolves when nothing is claimed or running in this process (tests wait on it). */
  async idle(): Promise<void> {
    while (this.loop || this.active.size) {
      await this.loop;
      await Promise.allSettled([...this.active.values()]);
    }
  }

  private schedule(): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, this.options.pollMs);
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    await this.recoverDead();
    await this.fireSchedules();
    while (this.started && this.active.size < this.options.concurrency) {
      const ids = await this.claim(this.options.concurrency - this.active.size);
      if (ids.length === 0) break;
      for (const id of ids) {
        const run = this.execute(id)
          .catch((err) => this.options.onError?.('job run failed', { id, error: traceback(err) }))
          .finally(() => {
            this.active.delete(id);
            this.kick();
          });
        this.active.set(id, run);
      }
    }
  }

  /** Lease of a claim: on a database with one writer the run's transaction blocks renewals, so it covers the hard limit. */
  private leaseMs(timeLimit: number): number {
    const base = this.options.leaseSeconds * 1000;
    return this.db.dialect.serialWrites ? Math.max(base, timeLimit * 1000 + base) : base;
  }

  private async claim(limit: number): Promise<Id[]> {
    const model = this.meta(JobResult);
    const now = new Date();
    return claimRows(this.db, model, {
      ready: and([fieldTest(field(model, 'status'), 'exact', ['pending']), fieldTest(field(model, 'run_after'), 'lte', [storeDateTime(now)])]),
      orderBy: 'run_after',
      limit,
      expect: { status: 'pending' },
      set: { status: 'running', worker: this.id, lease_until: new Date(now.getTime() + this.leaseMs(this.options.timeLimit)) },
    });
  }

  /** Runs left `running` by a worker whose lease ran out: that worker died, the run failed. */
  private async recoverDead(): Promise<void> {
    const model = this.meta(JobResult);
    const stamp = storeDateTime(new Date());
    const dead = await new Store(this.db.reader, this.registry).find(model, and([fieldTest(field(model, 'status'), 'exact', ['running']), fieldTest(field(model, 'lease_until'), 'lt', [stamp])]));
    for (const row of dead) {
      if (this.active.has(row.id as Id)) continue;
      await this.db.transaction(async (tx) => {
        const store = new Store(tx, this.registry);
        const changed = await store.updateWhere(model, matching(model, { id: row.id, status: 'running', worker: row.worker }), { status: 'failed', completed: new Date(), lease_until: null });
        if (changed === 1) await this.insertLogs(store, row.id as Id, [{ level: 'failure', message: `The worker running this job (${String(row.worker)}) stopped before the job finished.`, grouping: 'main', log_object: null, absolute_url: null }]);
      });
    }
  }

  /** Due schedules become pending runs; the conditional update lets exactly one worker fire each. */
  private async fireSchedules(): Promise<void> {
    const model = this.meta(ScheduledJob);
    const now = new Date();
    const due = await new Store(this.db.reader, this.registry).find(
      model,
      and([fieldTest(field(model, 'enabled'), 'exact', [true]), fieldTest(field(model, 'next_run_at'), 'lte', [storeDateTime(now)])]),
    );
    for (const row of due) {
      if (row.approval_required && !row.approved_at) continue;
      const next = nextRun(String(row.interval), String(row.crontab ?? ''), row.next_run_at as Date, now);
      const fired = await this.db.transaction(async (tx) => {
        const store = new Store(tx, this.registry);
        const changed = await store.updateWhere(model, matching(model, { id: row.id, next_run_at: row.next_run_at as Date }), {
          next_run_at: next,
          last_run_at: now,
          total_run_count: Number(row.total_run_count) + 1,
          date_changed: now,
        });
        if (changed !== 1) return false;
        const job = row.job_model ? await store.get(this.meta(JobModel), row.job_model as Id) : null;
        const kwargs = row.kwargs as { data?: Json; commit?: boolean };
        await enqueueRun(store, this.registry, { job, name: String(row.job_class), user: (row.user as Id | null) ?? null, data: (kwargs.data ?? {}) as Record<string, Json>, commit: kwargs.commit !== false, schedule: row.id as Id });
        return true;
      });
      if (fired) this.again = true;
    }
  }

  /**
   * The time of the last log line this worker wrote. Logs are listed by their time, kept to the
   * millisecond: lines written in the same millisecond (a run's last line and the revert notice)
   * would tie, and come back in the order of their random ids.
   */
  private logClock = 0;

  private async insertLogs(store: Store, result: Id, lines: JobLogLine[]): Promise<void> {
    if (lines.length === 0) return;
    await store.insertMany(
      this.meta(JobLogEntry),
      lines.map((l) => ({
        id: randomUUID(),
        job_result: result,
        created: new Date((this.logClock = Math.max(Date.now(), this.logClock + 1))),
        log_level: l.level,
        message: l.message,
        grouping: l.grouping.slice(0, 100),
        log_object: l.log_object,
        absolute_url: l.absolute_url,
      })),
    );
  }

  private async actorOf(userId: Id | null): Promise<Actor | null> {
    if (!userId) return null;
    const user = await new Store(this.db.reader, this.registry).get(this.meta(User), userId);
    return user ? { id: user.id as Id, username: String(user.username), isSuperuser: user.is_superuser === true } : null;
  }

  /** The run's last log lines and its terminal status; a cancel racing it may deadlock with it, and lose or win. */
  private async finish(id: Id, status: string, data: Json, logs: JobLogLine[]): Promise<void> {
    await retryingDeadlocks(this.db.dialect, () =>
      this.db.transaction(async (tx) => {
        const store = new Store(tx, this.registry);
        await this.insertLogs(store, id, logs);
        await store.updateWhere(this.meta(JobResult), matching(this.meta(JobResult), { id, worker: this.id }), { status, completed: new Date(), data, lease_until: null });
      }),
    );
  }

  /** One claimed run, from its record to its terminal status. */
  private async execute(id: Id): Promise<void> {
    const results = this.meta(JobResult);
    const row = await new Store(this.db.reader, this.registry).get(results, id);
    if (!row) return;
    const task = row.job_model ? undefined : taskRunnerOf(this.registry, String(row.obj_type));
    if (task) return this.executeTask(id, row, task);
    const job = row.job_model ? await new Store(this.db.reader, this.registry).get(this.meta(JobModel), row.job_model as Id) : null;
    const entry = job ? jobCatalogOf(this.registry)?.find(job) : undefined;
    if (!job || !entry || !job.enabled || !job.installed) {
      const line: JobLogLine = { level: 'failure', message: `Job ${String(job?.name ?? row.name)} is not enabled to be run!`, grouping: 'initialization', log_object: null, absolute_url: null };
      await this.finish(id, 'errored', null, [line]);
      return;
    }
    const args = row.run_args as { data?: Record<string, Json>; commit?: boolean };
    const commit = args.commit !== false && !job.read_only;
    const softLimit = Number(job.soft_time_limit) || this.options.softTimeLimit;
    const hardLimit = Number(job.time_limit) || this.options.timeLimit;
    const actor = await this.actorOf((row.user as Id | null) ?? null);

    const log = new RunLog(this.db, this.streaming, (tx, lines) => this.insertLogs(new Store(tx, this.registry), id, lines));
    const { record, sink } = log;
    const { abort, stopped, timers, heartbeat } = this.supervise(id, log, softLimit, hardLimit);

    let status = 'completed';
    let output: Json = null;
    let context: JobContext | null = null;
    let scope: WriteScope | null = null;
    try {
      await this.db.transaction(async (tx) => {
        scope = { tx, registry: this.registry, version: LATEST_VERSION, actor, features: new RequestData(), requestId: String(row.job_id), listeners: this.options.listeners };
        const data = args.data ?? {};
        if (isHookReceiver(entry.job.cls)) markHookReceiverRun(scope.features);
        context = new JobContext(data, commit, actor, abort.signal, scope, sink);
        const instance = new (entry.job.cls as unknown as new () => Record<string, unknown> & { run(ctx: JobContext): Promise<Json | void> })();
        Object.assign(instance, data);
        const running = instance.run(context);
        // Once stopped, the run's own end (often a TransactionEndedError) is of no interest.
        running.catch(() => undefined);
        const returned = await Promise.race([running, stopped]);
        output = returned === undefined ? null : returned;
        if (!commit) throw new Rollback();
        for (const listener of this.options.listeners) await listener.committing?.(scope);
      });
      for (const listener of this.options.listeners) listener.committed?.(scope as unknown as WriteScope);
      status = (context as JobContext | null)?.failed ? 'failed' : 'completed';
    } catch (err) {
      if (scope) for (const listener of this.options.listeners) listener.rolledBack?.(scope);
      if (err instanceof Rollback) {
        status = (context as JobContext | null)?.failed ? 'failed' : 'completed';
        await record({ level: 'info', message: commit ? 'Database changes have been reverted.' : 'Database changes have been reverted automatically.', grouping: 'main', log_object: null, absolute_url: null });
      } else if (err instanceof RunStopped) {
        status = 'failed';
        await record({ level: 'failure', message: err.message, grouping: 'main', log_object: null, absolute_url: null });
      } else {
        status = 'errored';
        await record({ level: 'failure', message: `An exception occurred: \`${err instanceof Error ? err.name : 'Error'}: ${err instanceof Error ? err.message : String(err)}\`\n\`\`\`\n${traceback(err)}\n\`\`\``, grouping: 'main', log_object: null, absolute_url: null });
      }
    } finally {
      for (const t of timers) clearTimeout(t);
      clearInterval(heartbeat);
      this.halts.delete(id);
    }
    await log.settled();
    await this.finish(id, status, status === 'errored' ? null : { output }, log.buffered);
  }

  /** Logs go to the database as they come where a second writer may write beside a run's transaction. */
  private get streaming(): boolean {
    return !this.db.dialect.serialWrites;
  }

  /**
   * What watches a run: the soft time limit (its signal aborts), the hard one and cancellation
   * (`halt`: the run is stopped and `stopped` rejects), and the lease renewal.
   */
  private supervise(id: Id, log: RunLog, softLimit: number, hardLimit: number) {
    const results = this.meta(JobResult);
    const abort = new AbortController();
    let stop!: (err: RunStopped) => void;
    const stopped = new Promise<never>((_resolve, reject) => (stop = reject));
    stopped.catch(() => undefined);
    const halt = (reason: string) => {
      if (log.stopReason) return;
      log.stopReason = reason;
      abort.abort(reason);
      stop(new RunStopped(reason));
    };
    this.halts.set(id, halt);
    const timers = [
      setTimeout(() => {
        if (!abort.signal.aborted) {
          abort.abort('soft time limit');
          void log.sink({ level: 'warning', message: `The job exceeded its soft time limit of ${softLimit} seconds and was asked to stop.`, grouping: 'main', log_object: null, absolute_url: null });
        }
      }, softLimit * 1000),
      setTimeout(() => halt(`The job exceeded its time limit of ${hardLimit} seconds and was stopped; its changes were rolled back.`), hardLimit * 1000),
    ];
    // Renews the lease and notices cancellation.
    const heartbeat = setInterval(() => {
      void (async () => {
        const current = await new Store(this.db.reader, this.registry).get(results, id);
        if (current?.cancel_requested) halt(CANCELLED);
        if (this.streaming) {
          await this.db.transaction((tx) => new Store(tx, this.registry).updateWhere(results, matching(results, { id, worker: this.id }), { lease_until: new Date(Date.now() + this.leaseMs(hardLimit)) }));
        }
      })().catch((err) => this.options.onError?.('job heartbeat failed', { id, error: traceback(err) }));
    }, Math.max(50, Math.floor((this.options.leaseSeconds * 1000) / 3)));
    return { abort, stopped, halt, timers, heartbeat };
  }

  /**
   * A claimed run of a task that is not a job class (a Git repository's sync): the task works
   * with its own transactions; the worker supervises it as a job (limits, cancellation, lease)
   * and records its log and outcome. A thrown error makes it `errored`, a stop `failed`.
   */
  private async executeTask(id: Id, row: Values, runner: TaskRunner): Promise<void> {
    const log = new RunLog(this.db, this.streaming, (tx, lines) => this.insertLogs(new Store(tx, this.registry), id, lines));
    const softLimit = this.options.softTimeLimit;
    const hardLimit = this.options.timeLimit;
    const { abort, stopped, timers, heartbeat } = this.supervise(id, log, softLimit, hardLimit);
    let status = 'completed';
    let data: Json = null;
    try {
      const actor = await this.actorOf((row.user as Id | null) ?? null);
      const running = runner({ db: this.db, registry: this.registry, listeners: this.options.listeners, actor, requestId: String(row.job_id), signal: abort.signal, log: log.sink }, row);
      running.catch(() => undefined);
      const outcome = await Promise.race([running, stopped]);
      status = outcome.status;
      data = outcome.data;
    } catch (err) {
      if (err instanceof RunStopped) {
        status = 'failed';
        await log.record({ level: 'failure', message: err.message, grouping: 'main', log_object: null, absolute_url: null });
      } else {
        status = 'errored';
        await log.record({ level: 'failure', message: `An exception occurred: \`${err instanceof Error ? err.name : 'Error'}: ${err instanceof Error ? err.message : String(err)}\`\n\`\`\`\n${traceback(err)}\n\`\`\``, grouping: 'main', log_object: null, absolute_url: null });
      }
    } finally {
      for (const t of timers) clearTimeout(t);
      clearInterval(heartbeat);
      this.halts.delete(id);
    }
    await log.settled();
    await this.finish(id, status, data, log.buffered);
  }
}

/**
 * The log of one run: streamed to the database line by line where a second writer may write
 * beside the run's transaction, else kept and written when the run ends. Once the run is stopped
 * (`stopReason`), what its code still logs is dropped, so the worker's line saying why the run
 * stopped stays the last one (a promise cannot be killed).
 */
class RunLog {
  readonly buffered: JobLogLine[] = [];
  stopReason: string | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly streaming: boolean,
    private readonly insert: (tx: Executor, lines: JobLogLine[]) => Promise<void>,
  ) {}

  /** Writes a line whatever the run's state (the worker's own lines). */
  readonly record = async (line: JobLogLine): Promise<void> => {
    if (!this.streaming) {
      this.buffered.push(line);
      return;
    }
    this.chain = this.chain.then(() => this.db.transaction((tx) => this.insert(tx, [line])));
    await this.chain;
  };

  /** Writes a line of the run's code, unless the run was stopped. */
  readonly sink = async (line: JobLogLine): Promise<void> => {
    if (this.stopReason === null) await this.record(line);
  };

  /** Resolves once every streamed line is written (or failed). */
  async settled(): Promise<void> {
    await this.chain.catch(() => undefined);
  }
}

/** What a new run needs: the job, the caller, the inputs. */
export interface RunRequest {
  job: Values | null;
  /** The class path. */
  name: string;
  user: Id | null;
  data: Record<string, Json>;
  commit: boolean;
  schedule?: Id | null;
  /** Not before this time (default now). */
  runAfter?: Date;
}

/** Queues a run: a pending job result, in the caller's transaction. */
export async function enqueueRun(store: Store, registry: Registry, run: RunRequest): Promise<Id> {
  const id = randomUUID();
  const now = new Date();
  const sensitive = run.job ? run.job.has_sensitive_variables !== false : true;
  await store.insert(registry.forClass(JobResult), {
    id,
    created: now,
    completed: null,
    name: run.name.slice(0, 255),
    job_model: run.job ? run.job.id : null,
    obj_type: 'extras.job',
    status: 'pending',
    user: run.user,
    data: null,
    job_id: randomUUID(),
    job_kwargs: sensitive ? null : { data: run.data, commit: run.commit, task_queue: null },
    schedule: run.schedule ?? null,
    run_args: { data: run.data, commit: run.commit },
    run_after: run.runAfter ?? now,
    lease_until: null,
    worker: '',
    cancel_requested: false,
  });
  return id;
}

/**
 * Whether a job worker is alive to run what is queued: this process's own, or one whose beat is
 * current (`netinv worker` processes, other servers).
 */
export async function jobWorkerAlive(db: Database, registry: Registry): Promise<boolean> {
  if (localWorkerRunning(registry)) return true;
  const model = registry.forClass(JobWorkerBeat);
  return new Store(db.reader, registry).exists(model, fieldTest(field(model, 'alive_until'), 'gt', [storeDateTime(new Date())]));
}
