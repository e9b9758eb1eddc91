import type { LoadFigures } from './load';

export interface WorkloadResult {
  id: string;
  title: string;
  netinv: LoadFigures;
  floor?: LoadFigures;
  /** netinv requests/s over the floor's. */
  floorRatio?: number;
  /** Requests/s over those of the REST workload serving the same objects (GraphQL's W11 over W4). */
  restRatio?: number;
  restVersus?: string;
  /** The other build of `--versus`, driven right after this one on the same data. */
  versus?: LoadFigures;
  /** This build's requests/s over the other build's. */
  versusRatio?: number;
  objectsPerSecond?: number;
  /** SQL statements of one request (X-Query-Count). */
  queries?: number;
}

export interface StreamCheck {
  results: number;
  bytes: number;
  seconds: number;
  /** Server's resident memory before the request and its highest value during it. */
  rssBeforeMb: number;
  rssPeakMb: number;
}

export interface Target {
  name: string;
  goal: string;
  actual: string;
  met: boolean;
}

export interface BenchReport {
  date: string;
  quick: boolean;
  database: string;
  workers: number;
  node: string;
  cpus: number;
  dataset: { objects: number; loadSeconds: number };
  singleRequestMs: Record<string, number>;
  workloads: WorkloadResult[];
  memory: { rssMb: number; peakMb: number; processes: number };
  stream: StreamCheck | null;
  targets: Target[];
}

const num = (v: number | undefined, digits = 0) => (v === undefined ? '' : v.toFixed(digits));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** The benchmark's findings as text for the terminal. */
export function renderReport(r: BenchReport): string {
  const rows = r.workloads.map((w) => [
    w.id,
    w.title,
    num(w.netinv.requestsPerSecond),
    num(w.netinv.p50Ms, 1),
    num(w.netinv.p99Ms, 1),
    String(w.netinv.non2xx + w.netinv.errors),
    num(w.objectsPerSecond),
    num(w.queries),
    num(w.floor?.requestsPerSecond),
    num(w.floor?.p50Ms, 1),
    w.floorRatio === undefined ? '' : `${(w.floorRatio * 100).toFixed(0)}%`,
    w.restRatio === undefined ? '' : `${(w.restRatio * 100).toFixed(0)}% of ${w.restVersus}`,
    num(w.versus?.requestsPerSecond),
    w.versusRatio === undefined ? '' : `${w.versusRatio.toFixed(2)}×`,
  ]);
  const out = [
    `netinv benchmark ${r.date}: ${r.database}, ${r.workers} server process(es), Node ${r.node}, ${r.cpus} CPUs${r.quick ? ', QUICK run' : ''}`,
    `dataset: ${r.dataset.objects} objects loaded in ${r.dataset.loadSeconds.toFixed(1)} s`,
    '',
    table(['id', 'request', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'obj/s', 'queries', 'floor req/s', 'floor p50', 'of floor', 'of REST', 'versus req/s', 'vs versus'], rows),
    '',
    `single request on an idle server: ${Object.entries(r.singleRequestMs).map(([k, v]) => `${k} ${v.toFixed(1)} ms`).join(', ')}`,
    `resident memory after the run: ${r.memory.rssMb.toFixed(0)} MB (peak ${r.memory.peakMb.toFixed(0)} MB) per process`,
  ];
  if (r.stream) {
    const s = r.stream;
    out.push(
      `limit=0 over ${s.results} ip-addresses: ${(s.bytes / 1e6).toFixed(1)} MB in ${s.seconds.toFixed(1)} s, server memory ${s.rssBeforeMb.toFixed(0)} MB before, ${s.rssPeakMb.toFixed(0)} MB at most during`,
    );
  }
  out.push('', 'targets:');
  for (const t of r.targets) out.push(`  ${t.met ? 'met   ' : 'MISSED'}  ${t.name.padEnd(34)} goal ${t.goal.padEnd(14)} actual ${t.actual}`);
  return out.join('\n');
}

/** The targets of the benchmark issue, judged on this run's figures. */
export function judge(r: Omit<BenchReport, 'targets'>): Target[] {
  const w = (id: string) => r.workloads.find((x) => x.id === id);
  const targets: Target[] = [];
  const ratio = (id: string, goal: number) => {
    const x = w(id);
    if (x?.floorRatio === undefined) return;
    targets.push({ name: `${id} requests/s of floor`, goal: `>= ${goal * 100}%`, actual: `${(x.floorRatio * 100).toFixed(0)}%`, met: x.floorRatio >= goal });
  };
  const p50 = (id: string, ms: number) => {
    const x = w(id);
    if (!x) return;
    targets.push({ name: `${id} p50`, goal: `< ${ms} ms`, actual: `${x.netinv.p50Ms.toFixed(1)} ms`, met: x.netinv.p50Ms < ms && x.netinv.non2xx === 0 });
  };
  for (const id of ['W1', 'W2', 'W3', 'W4', 'W5', 'W6']) ratio(id, 0.6);
  p50('W5', 5);
  p50('W5b', 5);
  p50('W6', 5);
  // Write goals are set for SQLite; a client-server database is asked for half of them.
  const share = r.database === 'SQLite' ? 1 : 0.5;
  const rate = (id: string, name: string, goal: number, figure: (x: WorkloadResult) => number | undefined) => {
    const x = w(id);
    const actual = x ? figure(x) : undefined;
    if (!x || actual === undefined) return;
    targets.push({ name, goal: `>= ${goal * share}`, actual: actual.toFixed(0), met: actual >= goal * share && x.netinv.non2xx === 0 });
  };
  rate('W7', 'W7 requests/s', 1800, (x) => x.netinv.requestsPerSecond);
  rate('W8', 'W8 addresses/s', 8000, (x) => x.objectsPerSecond);
  rate('W9', 'W9 requests/s', 1500, (x) => x.netinv.requestsPerSecond);
  rate('W10', 'W10 requests/s', 5000, (x) => x.netinv.requestsPerSecond);
  p50('W10', 10);
  targets.push({ name: 'resident memory after the run', goal: '< 200 MB', actual: `${r.memory.rssMb.toFixed(0)} MB`, met: r.memory.rssMb < 200 });
  if (r.stream) {
    const s = r.stream;
    targets.push({
      name: 'limit=0 streamed (peak memory)',
      goal: '< 200 MB',
      actual: `${s.rssPeakMb.toFixed(0)} MB for ${(s.bytes / 1e6).toFixed(0)} MB of JSON`,
      met: s.results >= 100_000 && s.rssPeakMb < 200,
    });
  }
  return targets;
}
