/**
 * The job queue: soft and hard time limits, cancellation, a worker killed mid-job (its run is
 * marked failed and the queue goes on), two worker processes never running one job twice.
 * Worker processes are `netinv worker` from dist/ (built by `npm test`'s pretest) on the same
 * database as the in-process server; durations are short and every wait is on state.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { dialectUnderTest, freshDatabaseUrl } from '../helpers/database';
import { deadlockTrigger } from '../helpers/deadlock-trigger';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';
import { lateWrites } from '../fixtures/jobs/testing_jobs';

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'dist/app/cli/main.js');
const TS_JOBS = path.join(ROOT, 'test/fixtures/jobs');
const DIST_JOBS = path.join(ROOT, 'test/fixtures/jobs-dist');

type Obj = Record<string, unknown>;

async function jobId(app: TestApp, className: string, changes: Obj = {}): Promise<string> {
  const res = await app.get(`/api/extras/jobs/?job_class_name=${className}&api_version=1.6`);
  expect(res.body.count).toBe(1);
  const id = String(res.body.results[0].id);
  const patched = await app.patch(`/api/extras/jobs/${id}/`, { enabled: true, ...changes });
  expect(patched.status).toBe(200);
  return id;
}

async function run(app: TestApp, job: string, data: Obj, commit = true): Promise<string> {
  const res = await app.post(`/api/extras/jobs/${job}/run/`, { data, commit });
  expect(res.status).toBe(201);
  return String(res.body.job_result.id);
}

async function statusOf(app: TestApp, result: string): Promise<string> {
  const res = await app.get(`/api/extras/job-results/${result}/`);
  expect(res.status).toBe(200);
  return (res.body.status as { value: string }).value;
}

async function until(app: TestApp, result: string, statuses: string[], timeoutMs = 20_000): Promise<Obj> {
  return waitFor(async () => {
    const res = await app.get(`/api/extras/job-results/${result}/`);
    return statuses.includes((res.body.status as { value: string }).value) ? (res.body as Obj) : null;
  }, timeoutMs);
}

async function logMessages(app: TestApp, result: string): Promise<string[]> {
  const res = await app.get(`/api/extras/job-results/${result}/logs/`);
  return (res.body as Array<{ message: string }>).map((l) => l.message);
}

async function tagExists(app: TestApp, slug: string): Promise<boolean> {
  return (await app.get(`/api/extras/tags/?slug=${slug}`)).body.count === 1;
}

describe('time limits and cancellation (the server worker)', () => {
  let app: TestApp;
  beforeAll(async () => {
    // A file database: a running job's transaction must not hold up the API's reads.
    const databaseUrl = await freshDatabaseUrl({ persistent: true });
    app = await startApp({ NETINV_JOBS_ROOT: TS_JOBS, NETINV_JOB_POLL_MS: '50', NETINV_JOB_LEASE_SECONDS: '1' }, { databaseUrl });
  });
  afterAll(async () => {
    await app?.close();
  });

  test('jobs of the jobs directory are local/<module>/<Class>', async () => {
    const res = await app.get('/api/extras/jobs/?source=local&api_version=1.6');
    expect(res.body.results.map((j: Obj) => `${String(j.source)}/${String(j.module_name)}/${String(j.job_class_name)}`).sort()).toEqual(['local/testing_jobs/ButtonReceiver', 'local/testing_jobs/ChangeReceiver', 'local/testing_jobs/FileSummary', 'local/testing_jobs/Noop', 'local/testing_jobs/Sleep']);
  });

  test('soft time limit: the job is asked to stop and ends on its own, its work committed', async () => {
    const job = await jobId(app, 'Sleep', { soft_time_limit: 1, soft_time_limit_override: true, time_limit: 0, time_limit_override: true });
    const result = await run(app, job, { seconds: 20, tag: 'soft-limit', ignore_signal: false });
    const done = await until(app, result, ['completed', 'failed', 'errored']);
    expect(done.status).toEqual({ value: 'completed', label: 'Completed' });
    expect(done.data).toEqual({ output: 'stopped' });
    expect(await logMessages(app, result)).toEqual(['started', 'The job exceeded its soft time limit of 1 seconds and was asked to stop.', 'stopping early']);
    expect(await tagExists(app, 'soft-limit')).toBe(true);
  });

  test('hard time limit: the run is stopped, failed, and rolled back', async () => {
    const job = await jobId(app, 'Sleep', { soft_time_limit: 1, soft_time_limit_override: true, time_limit: 2, time_limit_override: true });
    const started = Date.now();
    const result = await run(app, job, { seconds: 5, tag: 'hard-limit', ignore_signal: true });
    const done = await until(app, result, ['completed', 'failed', 'errored']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect((done.status as { value: string }).value).toBe('failed');
    expect((await logMessages(app, result)).at(-1)).toBe('The job exceeded its time limit of 2 seconds and was stopped; its changes were rolled back.');
    expect(await tagExists(app, 'hard-limit')).toBe(false);
    // The job's code ignores the stop and works on until its 5 s are over: its late log line and
    // write are refused (its transaction has ended) and nothing of them reaches the database.
    const late = await waitFor(async () => lateWrites().find((w) => w.tag === 'hard-limit') ?? null);
    expect(late.outcome).toBe('TransactionEndedError');
    expect(await tagExists(app, 'hard-limit-late')).toBe(false);
    expect((await logMessages(app, result)).at(-1)).toBe('The job exceeded its time limit of 2 seconds and was stopped; its changes were rolled back.');
  });

  test('log lines: streamed while the run goes on where a second writer may write (PostgreSQL, MariaDB), written at its end on SQLite', async () => {
    const job = await jobId(app, 'Sleep', { soft_time_limit: 0, soft_time_limit_override: true, time_limit: 0, time_limit_override: true });
    const running = await run(app, job, { seconds: 20, tag: 'streamed-log', ignore_signal: false });
    await until(app, running, ['running']);
    if (!app.server.db.dialect.serialWrites) {
      // 'started' is readable while the run is still running, its work not yet committed.
      await waitFor(async () => ((await logMessages(app, running)).includes('started') ? true : null));
      expect(await statusOf(app, running)).toBe('running');
      expect(await tagExists(app, 'streamed-log')).toBe(false);
    }
    expect((await app.post(`/api/extras/job-results/${running}/cancel/`)).status).toBe(202);
    await until(app, running, ['completed', 'failed', 'errored']);
    await waitFor(async () => ((await logMessages(app, running)).length >= 2 ? true : null));
    expect(await logMessages(app, running)).toEqual(['started', 'The job was cancelled; its changes were rolled back.']);
  });

  test('cancelling a running job stops it and rolls it back', async () => {
    const job = await jobId(app, 'Sleep', { soft_time_limit: 0, soft_time_limit_override: true, time_limit: 0, time_limit_override: true });
    // Cancelled as soon as it runs: before or while it writes and logs its first line.
    const running = await run(app, job, { seconds: 20, tag: 'cancel-running', ignore_signal: true });
    await until(app, running, ['running']);
    const cancelled = await app.post(`/api/extras/job-results/${running}/cancel/`);
    expect(cancelled.status).toBe(202);
    const done = await until(app, running, ['completed', 'failed', 'errored']);
    expect((done.status as { value: string }).value).toBe('failed');
    await waitFor(async () => ((await logMessages(app, running)).at(-1) === 'The job was cancelled; its changes were rolled back.' ? true : null));
    expect(await tagExists(app, 'cancel-running')).toBe(false);
    const again = await app.post(`/api/extras/job-results/${running}/cancel/`);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ detail: 'This job has already finished.' });
  });

  // The run's final write (its status and last log lines) may meet a cancel and be rolled back as
  // a deadlock's victim: it runs again. A trigger of the test's own raises the database's real
  // deadlock error for the first two attempts (helpers/deadlock-trigger.ts).
  const serverDatabase = dialectUnderTest() !== 'sqlite';
  (serverDatabase ? test : test.skip)('a final write rolled back as a deadlock victim runs again: the run completes once (PostgreSQL, MariaDB)', async () => {
    const job = await jobId(app, 'Sleep', { soft_time_limit: 0, soft_time_limit_override: true, time_limit: 0, time_limit_override: true });
    const trigger = await deadlockTrigger(app.server.db, 'extras_jobresult', "NEW.status = 'completed'", 2);
    try {
      const result = await run(app, job, { seconds: 0, tag: 'finish-deadlock', ignore_signal: false });
      const done = await until(app, result, ['completed', 'failed', 'errored']);
      expect(done.status).toEqual({ value: 'completed', label: 'Completed' });
      expect(done.data).toEqual({ output: 'slept' });
      expect(done.completed).not.toBeNull();
      expect(await logMessages(app, result)).toEqual(['started']);
      expect(await tagExists(app, 'finish-deadlock')).toBe(true);
      expect(await trigger.attempts()).toBe(3);
    } finally {
      await trigger.drop();
    }
  });
});

describe('worker processes', () => {
  let app: TestApp;
  let databaseUrl: string;
  const children: ChildProcess[] = [];

  function worker(): ChildProcess {
    const child = spawn(process.execPath, [MAIN, 'worker'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NETINV_JOBS_ROOT: DIST_JOBS,
        NETINV_JOB_POLL_MS: '50',
        NETINV_JOB_LEASE_SECONDS: '1',
        NETINV_JOB_TIME_LIMIT: '3',
        NETINV_LOG_LEVEL: 'warn',
        NETINV_PLUGINS: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    return child;
  }

  async function started(child: ChildProcess): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('job worker')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    });
  }

  async function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  beforeAll(async () => {
    databaseUrl = await freshDatabaseUrl({ persistent: true, suffix: 'workers' });
    // The server queues; only the worker processes run jobs.
    app = await startApp({ NETINV_JOBS_ROOT: TS_JOBS, NETINV_JOB_WORKER: 'false' }, { databaseUrl });
  });
  afterAll(async () => {
    for (const child of children) await stopped(child, 'SIGKILL');
    await app?.close();
  });

  test('cancelling a pending run fails it at once; no worker runs it', async () => {
    const job = await jobId(app, 'Sleep', { soft_time_limit: 0, soft_time_limit_override: true, time_limit: 0, time_limit_override: true });
    const pending = await run(app, job, { seconds: 0, tag: 'cancel-pending', ignore_signal: false });
    expect(await statusOf(app, pending)).toBe('pending');
    const cancelled = await app.post(`/api/extras/job-results/${pending}/cancel/`);
    expect(cancelled.status).toBe(202);
    expect(cancelled.body.status).toEqual({ value: 'failed', label: 'Failed' });
    expect(cancelled.body.completed).not.toBeNull();
    expect(await logMessages(app, pending)).toEqual(['The job was cancelled before it started.']);
  });

  test('a worker killed mid-job: the run becomes failed and the next worker goes on with the queue', async () => {
    const sleep = await jobId(app, 'Sleep', { soft_time_limit: 0, soft_time_limit_override: true, time_limit: 0, time_limit_override: true });
    const first = worker();
    await started(first);
    const result = await run(app, sleep, { seconds: 30, tag: 'crashed', ignore_signal: true });
    await until(app, result, ['running']);
    await stopped(first, 'SIGKILL');
    expect(await statusOf(app, result)).toBe('running');

    const second = worker();
    await started(second);
    const done = await until(app, result, ['completed', 'failed', 'errored']);
    expect((done.status as { value: string }).value).toBe('failed');
    expect(done.completed).not.toBeNull();
    expect((await logMessages(app, result)).at(-1)).toMatch(/^The worker running this job \(.+\) stopped before the job finished\.$/);
    expect(await tagExists(app, 'crashed')).toBe(false);

    const noop = await jobId(app, 'Noop');
    const next = await run(app, noop, {});
    expect((await until(app, next, ['completed', 'failed', 'errored'])).status).toEqual({ value: 'completed', label: 'Completed' });
    await stopped(second, 'SIGTERM');
  });

  test('two workers share the queue and never run one job twice', async () => {
    const sleep = await jobId(app, 'Sleep', { soft_time_limit: 0, soft_time_limit_override: true, time_limit: 0, time_limit_override: true });
    const results: string[] = [];
    for (let i = 0; i < 30; i++) results.push(await run(app, sleep, { seconds: 0, tag: `twice-${i}`, ignore_signal: false }));
    const workers = [worker(), worker()];
    await Promise.all(workers.map(started));
    for (const result of results) {
      const done = await until(app, result, ['completed', 'failed', 'errored']);
      expect(done.status).toEqual({ value: 'completed', label: 'Completed' });
      // A second run would log `started` again (or fail on the existing tag).
      expect(await logMessages(app, result)).toEqual(['started']);
    }
    expect((await app.get('/api/extras/tags/?slug__isw=twice-&limit=100')).body.count).toBe(30);
    for (const w of workers) await stopped(w, 'SIGTERM');
  });
});
