/**
 * `npm run bench`: the standard benchmark of BENCHMARK.md. Loads the standard dataset into a fresh
 * database, starts netinv as a user runs it in production and the floor beside it, drives W1–W12
 * with autocannon on loopback and prints (and saves as JSON) what it measured.
 *
 *   npm run bench -- [--quick] [--workers N] [--out FILE] [--databases all] [--scale N] [--only W1,W4]
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadDataset } from './dataset';
import { freshDatabase } from './fresh-database';
import { driveInTurn, single, type LoadFigures, type LoadSettings, type Target } from './load';
import { ServerProcess } from './processes';
import { judge, renderReport, type BenchReport, type StreamCheck, type WorkloadResult } from './report';
import { workloads } from './workloads';
import { benchDatabaseUrl, parseDatabases, reachable, type DatabaseName } from './databases';
import { renderComparison, type BenchRun } from './compare';

interface Options {
  quick: boolean;
  workers: number;
  out: string | null;
  /** Databases to run on, each in a fresh database of its own; null: DATABASE_URL or SQLite. */
  databases: DatabaseName[] | null;
  scale: number;
  /** Only these workloads (ids), for a quicker look at a few. */
  only: string[] | null;
  /** Another build of netinv (a checkout with dist/), served on the same data and driven in turn. */
  versus: string | null;
}

const USAGE = 'usage: npm run bench -- [--quick] [--workers N] [--out FILE] [--databases all|sqlite,postgres,mariadb] [--scale N] [--only W1,W4] [--versus CHECKOUT]';

function positive(value: string | undefined): number | null {
  return /^\d+$/.test(value ?? '') && Number(value) >= 1 ? Number(value) : null;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { quick: false, workers: 1, out: null, databases: null, scale: 1, only: null, versus: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--workers' && positive(argv[i + 1])) options.workers = Number(argv[++i]);
    else if (arg === '--scale' && positive(argv[i + 1])) options.scale = Number(argv[++i]);
    else if (arg === '--out' && argv[i + 1]) options.out = argv[++i];
    else if (arg === '--databases' && argv[i + 1]) options.databases = parseDatabases(argv[++i]);
    else if (arg === '--only' && argv[i + 1]) options.only = argv[++i].split(',').map((w) => w.trim().toUpperCase());
    else if (arg === '--versus' && argv[i + 1]) options.versus = path.resolve(argv[++i]);
    else throw new Error(`unknown or incomplete option ${arg}\n${USAGE}`);
  }
  return options;
}

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'app', 'cli', 'main.js');
const FLOOR = path.join(__dirname, 'floor-server.js');
const NETINV_PORT = 18080;
const FLOOR_PORT = 18090;
const PROBE_PORT = 18081;
const VERSUS_PORT = 18082;

/** How netinv runs in production: defaults, warnings only in the log. */
function productionEnv(databaseUrl: string): Record<string, string> {
  return { DATABASE_URL: databaseUrl, NODE_ENV: 'production', NETINV_LOG_LEVEL: 'warn' };
}

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Median latency of a few requests in a row on an idle server. */
async function idleLatency(baseUrl: string, pathname: string, headers: Record<string, string>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) times.push((await single(baseUrl, { method: 'GET', path: pathname }, headers)).ms);
  return times.sort((a, b) => a - b)[2];
}

/** Reads a limit=0 list as a client would, sampling the server's memory while it streams. */
async function streamCheck(server: ServerProcess, headers: Record<string, string>): Promise<StreamCheck> {
  const before = server.memory().rssMb;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, server.memory().rssMb);
  }, 20);
  const started = Date.now();
  try {
    const res = await fetch(`${server.baseUrl}/api/ipam/ip-addresses/?limit=0`, { headers });
    if (!res.ok || !res.body) throw new Error(`limit=0 answered ${res.status}`);
    let bytes = 0;
    let head = '';
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (head.length < 200) head += Buffer.from(value.subarray(0, 200)).toString();
    }
    const results = Number(/"count":(\d+)/.exec(head)?.[1] ?? 0);
    // VmHWM covers what the sampler may have missed between two samples.
    peak = Math.max(peak, server.memory().peakMb);
    return { results, bytes, seconds: (Date.now() - started) / 1000, rssBeforeMb: before, rssPeakMb: peak };
  } finally {
    clearInterval(sampler);
  }
}

/** One run: the dataset loaded into a fresh database, netinv and the floor driven side by side. */
async function runOne(requestedUrl: string | undefined, options: Options): Promise<BenchReport> {
  const settings: Omit<LoadSettings, 'headers'> = options.quick
    ? { connections: 4, warmupSeconds: 1, seconds: 3, rounds: 3 }
    : { connections: 4, warmupSeconds: 5, seconds: 20, rounds: 4 };

  const databaseUrl = await freshDatabase(requestedUrl);
  const database = databaseUrl.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
  log(`loading the standard dataset${options.scale > 1 ? ` ×${options.scale}` : ''} into ${database}`);
  const data = await loadDataset(databaseUrl, options.scale);
  log(`loaded ${data.objects} objects in ${data.seconds.toFixed(1)} s (${(data.objects / data.seconds).toFixed(0)} objects/s)`);
  const headers = { Authorization: `Token ${data.token}`, Accept: 'application/json' };
  const all = workloads(data).filter((w) => !options.only || options.only.includes(w.id));

  const serveArgs = ['serve', '--port', String(NETINV_PORT), ...(options.workers > 1 ? ['--workers', String(options.workers)] : [])];
  const netinv = await ServerProcess.start(CLI, serveArgs, productionEnv(databaseUrl), NETINV_PORT, '/api/');
  const floor = await ServerProcess.start(FLOOR, [], { DATABASE_URL: databaseUrl }, FLOOR_PORT, '/floor/devices?limit=1');
  // Another build on the same data (an older one finds its own migrations applied, and ignores newer ones).
  const versus = options.versus
    ? await ServerProcess.start(path.join(options.versus, 'dist', 'app', 'cli', 'main.js'), ['serve', '--port', String(VERSUS_PORT)], productionEnv(databaseUrl), VERSUS_PORT, '/api/')
    : null;
  const results: WorkloadResult[] = [];
  let singleRequestMs: Record<string, number> = {};
  let memory: BenchReport['memory'];
  try {
    singleRequestMs = {
      W2: await idleLatency(netinv.baseUrl, '/api/ipam/prefixes/?limit=1000', headers),
      W4: await idleLatency(netinv.baseUrl, '/api/dcim/devices/?limit=50', headers),
    };
    for (const w of all) {
      log(`${w.id} ${w.title}`);
      const targets: Target[] = [{ baseUrl: netinv.baseUrl, shape: w.netinv }];
      if (w.floor) targets.push({ baseUrl: floor.baseUrl, shape: w.floor });
      if (versus) targets.push({ baseUrl: versus.baseUrl, shape: w.netinv });
      const [figures, ...others] = await driveInTurn(targets, { ...settings, headers });
      const result: WorkloadResult = { id: w.id, title: w.title, netinv: figures };
      if (w.floor) {
        result.floor = others.shift() as LoadFigures;
        result.floorRatio = figures.requestsPerSecond / result.floor.requestsPerSecond;
      }
      if (versus) {
        result.versus = others.shift() as LoadFigures;
        result.versusRatio = figures.requestsPerSecond / result.versus.requestsPerSecond;
      }
      if (w.objectsPerRequest) result.objectsPerSecond = figures.requestsPerSecond * w.objectsPerRequest;
      results.push(result);
    }
    for (const w of all.filter((x) => x.versus)) {
      const own = results.find((r) => r.id === w.id);
      const rest = results.find((r) => r.id === w.versus);
      if (own && rest && rest.netinv.requestsPerSecond > 0) Object.assign(own, { restVersus: w.versus, restRatio: own.netinv.requestsPerSecond / rest.netinv.requestsPerSecond });
    }
    memory = netinv.memory();
  } finally {
    await netinv.stop();
    await floor.stop();
    await versus?.stop();
  }

  // Statement counts and the limit=0 check need settings a production server does not use, so a
  // second server on the same data answers them once the load is over.
  const probe = await ServerProcess.start(
    CLI,
    ['serve', '--port', String(PROBE_PORT)],
    { ...productionEnv(databaseUrl), NETINV_COUNT_QUERIES: 'true', NETINV_MAX_PAGE_SIZE: '0' },
    PROBE_PORT,
    '/api/',
  );
  let stream: StreamCheck | null = null;
  try {
    for (const w of all) {
      const res = await single(probe.baseUrl, w.netinv, headers);
      const count = res.headers.get('x-query-count');
      const result = results.find((r) => r.id === w.id);
      if (result && count !== null) result.queries = Number(count);
    }
    log('limit=0 over every ip-address');
    stream = await streamCheck(probe, headers);
  } finally {
    await probe.stop();
  }

  const partial: Omit<BenchReport, 'targets'> = {
    date: new Date().toISOString(),
    quick: options.quick,
    database: database.startsWith('sqlite:') ? 'SQLite' : database,
    workers: options.workers,
    node: process.versions.node,
    cpus: os.availableParallelism(),
    dataset: { objects: data.objects, loadSeconds: data.seconds },
    singleRequestMs,
    workloads: results,
    memory,
    stream,
  };
  return { ...partial, targets: judge(partial) };
}

/** The commit the benchmark runs (with "+" when the work tree has changes), or null outside git. */
function commit(): string | null {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (head.status !== 0) return null;
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  return `${head.stdout.trim()}${dirty.stdout.trim() ? '+' : ''}`;
}

function machine(): BenchRun['machine'] {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()}`,
  };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const reports: BenchReport[] = [];
  const skipped: string[] = [];
  if (options.databases) {
    for (const name of options.databases) {
      const url = benchDatabaseUrl(name);
      const problem = await reachable(url);
      if (problem) {
        log(`${name}: not reachable (${problem}), left out`);
        skipped.push(`${name}: ${problem}`);
        continue;
      }
      reports.push(await runOne(url, options));
      process.stdout.write(`${renderReport(reports.at(-1) as BenchReport)}\n\n`);
    }
  } else {
    reports.push(await runOne(process.env.DATABASE_URL, options));
    process.stdout.write(`${renderReport(reports[0])}\n\n`);
  }
  const run: BenchRun = {
    date: new Date().toISOString(),
    commit: commit(),
    machine: machine(),
    node: process.versions.node,
    quick: options.quick,
    scale: options.scale,
    workers: options.workers,
    skipped,
    reports,
    table: [],
  };
  run.table = renderComparison(run).split('\n');
  process.stdout.write(`${run.table.join('\n')}\n`);
  const out = options.out ?? path.join(ROOT, 'bench-results', `bench-${run.date.replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(run, null, 2)}\n`);
  process.stdout.write(`figures written to ${path.relative(process.cwd(), out) || out}\n`);
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`bench: ${err.message}\n`);
    process.exit(1);
  },
);
