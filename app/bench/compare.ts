import type { BenchReport } from './report';

/** Everything one `npm run bench` measured: a report per database, with where and what it ran. */
export interface BenchRun {
  date: string;
  /** Short hash of HEAD, "+" when the work tree had changes. */
  commit: string | null;
  machine: { cpus: number; cpuModel: string; memoryGb: number; os: string };
  node: string;
  quick: boolean;
  scale: number;
  workers: number;
  /** Databases asked for but not reachable, with the reason. */
  skipped: string[];
  reports: BenchReport[];
  /** The comparison table as printed. */
  table: string[];
}

function databaseName(report: BenchReport): string {
  if (report.database === 'SQLite') return 'SQLite';
  if (report.database.startsWith('postgres')) return 'PostgreSQL';
  return 'MariaDB';
}

/**
 * One table, a column per database: requests/s of each workload with its share of the floor
 * measured on the same database in the same run (objects/s for the bulk write).
 */
export function renderComparison(run: BenchRun): string {
  const ids: string[] = [];
  const titles = new Map<string, string>();
  for (const r of run.reports) {
    for (const w of r.workloads) {
      if (!titles.has(w.id)) ids.push(w.id);
      titles.set(w.id, w.title);
    }
  }
  const header = ['id', 'request', ...run.reports.map(databaseName)];
  const rows = ids.map((id) => [
    id,
    titles.get(id) as string,
    ...run.reports.map((r) => {
      const w = r.workloads.find((x) => x.id === id);
      if (!w) return '';
      const rate = w.objectsPerSecond !== undefined && w.objectsPerSecond !== w.netinv.requestsPerSecond ? `${w.objectsPerSecond.toFixed(0)} obj/s` : `${w.netinv.requestsPerSecond.toFixed(0)} req/s`;
      const share = w.floorRatio !== undefined ? ` (${(w.floorRatio * 100).toFixed(0)}% of floor)` : w.restRatio !== undefined ? ` (${(w.restRatio * 100).toFixed(0)}% of ${w.restVersus})` : '';
      const failed = w.netinv.non2xx + w.netinv.errors > 0 ? ` [${w.netinv.non2xx + w.netinv.errors} failed]` : '';
      return rate + share + failed;
    }),
  ]);
  rows.push(['', 'resident memory after the run', ...run.reports.map((r) => `${r.memory.rssMb.toFixed(0)} MB`)]);
  rows.push(['', 'dataset load', ...run.reports.map((r) => `${(r.dataset.objects / r.dataset.loadSeconds).toFixed(0)} obj/s`)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const m = run.machine;
  return [
    `netinv ${run.commit ?? '(no commit)'}, ${run.date}: ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, ${m.os}, Node ${run.node}; ` +
      `${run.workers} server process(es), dataset ×${run.scale}${run.quick ? ', quick run' : ''}`,
    ...run.skipped.map((s) => `not run: ${s}`),
    '',
    line(header),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map(line),
  ].join('\n');
}
