/**
 * The job queue's figures: trivial jobs per second worked by 1 and 2 `netinv worker` processes,
 * and the latency from `POST …/run/` to a running job with the server's own worker.
 *
 *   npm run build && node dist/app/bench/jobs.js [--runs N]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/jobs_bench node dist/app/bench/jobs.js
 *
 * Without DATABASE_URL a new SQLite file is used; a PostgreSQL or MySQL database named here is
 * dropped and created again (its name must contain "bench"). The jobs are the test fixtures'
 * `Noop` (test/fixtures/jobs-dist).
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { Store, fieldTest, type FieldMeta } from '../../framework';
import { enqueueRun } from '../../models/extras';
import { loadConfig } from '../config';
import { createServer, type NetinvServer } from '../server';
import { freshDatabase } from './fresh-database';

const ROOT = path.resolve(__dirname, '../../..');
const JOBS = path.join(ROOT, 'test/fixtures/jobs-dist');
const MAIN = path.join(ROOT, 'dist/app/cli/main.js');

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function finishedCount(server: NetinvServer): Promise<number> {
  const model = server.registry.get('extras.jobresult')!;
  return new Store(server.db.reader, server.registry).count(model, fieldTest(model.field('status') as FieldMeta, 'exact', ['completed', 'failed', 'errored']));
}

async function startWorker(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN, 'worker'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_JOBS_ROOT: JOBS, NETINV_JOB_POLL_MS: '20', NETINV_LOG_LEVEL: 'warn', NETINV_WEBHOOK_WORKER: 'false' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (c: Buffer) => c.toString().includes('job worker') && resolve());
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return child;
}

async function throughput(server: NetinvServer, databaseUrl: string, workers: number, runs: number): Promise<number> {
  const jobModel = server.registry.get('extras.job')!;
  const [job] = await new Store(server.db.reader, server.registry).find(jobModel, { job_class_name: 'Noop' });
  const before = await finishedCount(server);
  const children: ChildProcess[] = [];
  for (let i = 0; i < workers; i++) children.push(await startWorker(databaseUrl));
  // The workers are idle and polling; the whole batch is queued in one transaction, timed from its commit.
  await server.db.transaction(async (tx) => {
    const store = new Store(tx, server.registry);
    for (let i = 0; i < runs; i++) await enqueueRun(store, server.registry, { job, name: 'local/testing_jobs/Noop', user: null, data: {}, commit: true });
  });
  const started = Date.now();
  while ((await finishedCount(server)) - before < runs) await new Promise((r) => setTimeout(r, 10));
  const seconds = (Date.now() - started) / 1000;
  await Promise.all(children.map((c) => new Promise<void>((resolve) => {
    c.once('exit', () => resolve());
    c.kill('SIGTERM');
  })));
  return runs / seconds;
}

async function latency(databaseUrl: string, samples: number): Promise<number[]> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, NETINV_JOBS_ROOT: JOBS, PORT: '0', NETINV_LOG_LEVEL: 'warn' });
  const server = await createServer(config);
  const http = await server.listen();
  const port = (http.address() as { port: number }).port;
  const users = server.registry.get('users.user')!;
  const jobModel = server.registry.get('extras.job')!;
  const resultModel = server.registry.get('extras.jobresult')!;
  const store = new Store(server.db.reader, server.registry);
  const [job] = await store.find(jobModel, { job_class_name: 'Noop' });
  await server.db.transaction((tx) => new Store(tx, server.registry).update(jobModel, job.id as string, { enabled: true }));
  const userId = crypto.randomUUID();
  await server.db.transaction((tx) => new Store(tx, server.registry).insert(users, { id: userId, username: `bench-${userId.slice(0, 6)}`, password: '!', is_superuser: true, is_staff: true, is_active: true, first_name: '', last_name: '', email: '', date_joined: new Date(), config_data: {} }));
  const tokenModel = server.registry.get('users.token')!;
  const key = crypto.randomUUID().replace(/-/g, '').padEnd(40, '0');
  await server.db.transaction((tx) => new Store(tx, server.registry).insert(tokenModel, { id: crypto.randomUUID(), user: userId, key, write_enabled: true, description: '', created: new Date(), expires: null }));
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/api/extras/jobs/${String(job.id)}/run/`, {
      method: 'POST',
      headers: { Authorization: `Token ${key}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ data: {} }),
    });
    const body = (await res.json()) as { job_result: { id: string } };
    for (;;) {
      const row = await store.get(resultModel, body.job_result.id);
      if (row && row.status !== 'pending') break;
      await new Promise((r) => setImmediate(r));
    }
    out.push(performance.now() - t0);
  }
  await server.close();
  return out;
}

async function main(): Promise<void> {
  const runs = argument('runs', 500);
  const databaseUrl = await freshDatabase(process.env.DATABASE_URL);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, NETINV_JOBS_ROOT: JOBS, NETINV_JOB_WORKER: 'false', PORT: '0', NETINV_LOG_LEVEL: 'warn' });
  const server = await createServer(config);
  const jobModel = server.registry.get('extras.job')!;
  const [job] = await new Store(server.db.reader, server.registry).find(jobModel, { job_class_name: 'Noop' });
  await server.db.transaction((tx) => new Store(tx, server.registry).update(jobModel, job.id as string, { enabled: true }));
  const one = await throughput(server, databaseUrl, 1, runs);
  const two = await throughput(server, databaseUrl, 2, runs);
  await server.close();
  const lat = (await latency(databaseUrl, 50)).sort((a, b) => a - b);
  const dialect = databaseUrl.split(':')[0];
  process.stdout.write(
    `${dialect}: ${one.toFixed(0)} jobs/s with 1 worker, ${two.toFixed(0)} jobs/s with 2 workers (${runs} Noop runs each); ` +
      `POST run → running: p50 ${lat[Math.floor(lat.length / 2)].toFixed(1)} ms, p90 ${lat[Math.floor(lat.length * 0.9)].toFixed(1)} ms (server's own worker)\n`,
  );
  process.exit(0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
