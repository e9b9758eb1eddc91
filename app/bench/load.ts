import autocannon from 'autocannon';

/** One HTTP request shape; `body()` gives each request its own body (unique addresses). */
export interface RequestShape {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: () => unknown;
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Turns the measured time is split into when several servers are driven (driveInTurn). */
  rounds: number;
  headers: Record<string, string>;
}

export interface LoadFigures {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

type AutocannonResult = Awaited<ReturnType<typeof autocannon>>;

/** One server and the request shape it is driven with. */
export interface Target {
  baseUrl: string;
  shape: RequestShape;
}

function runnerOf(target: Target, settings: LoadSettings): (seconds: number) => Promise<AutocannonResult> {
  const { shape } = target;
  const headers = { ...settings.headers, ...(shape.body ? { 'Content-Type': 'application/json' } : {}) };
  const make = shape.body;
  const request = make
    ? { method: shape.method, path: shape.path, headers, setupRequest: (req: object) => ({ ...req, body: JSON.stringify(make()) }) }
    : { method: shape.method, path: shape.path, headers };
  return (duration) => autocannon({ url: target.baseUrl, connections: settings.connections, pipelining: 1, duration, timeout: 30, requests: [request] });
}

/** The figures of a target's rounds taken together: requests over the time they took, the median round's p50, the worst round's p99. */
function figuresOf(rounds: readonly AutocannonResult[]): LoadFigures {
  const total = rounds.reduce((sum, r) => sum + r.requests.total, 0);
  const seconds = rounds.reduce((sum, r) => sum + r.duration, 0);
  const p50s = rounds.map((r) => r.latency.p50).sort((x, y) => x - y);
  return {
    requests: total,
    requestsPerSecond: seconds > 0 ? total / seconds : 0,
    p50Ms: p50s[Math.floor((p50s.length - 1) / 2)],
    p99Ms: Math.max(...rounds.map((r) => r.latency.p99)),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
    errors: rounds.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
  };
}

/**
 * Drives several servers (netinv, the floor, another build) in turn with autocannon: a warm-up
 * run of each whose figures are dropped, then `settings.rounds` rounds in which each takes its share of the
 * measured time, every round in the reverse order of the one before. This machine's speed drifts
 * within a minute, and a server measured after another finds warmer caches: taken in turn, both
 * fall on every server alike, so the ratios between them hold.
 */
export async function driveInTurn(targets: readonly Target[], settings: LoadSettings): Promise<LoadFigures[]> {
  const rounds = targets.length > 1 ? settings.rounds : 1;
  const runs = targets.map((target) => runnerOf(target, settings));
  if (settings.warmupSeconds > 0) for (const run of runs) await run(settings.warmupSeconds);
  const measured: AutocannonResult[][] = runs.map(() => []);
  const share = settings.seconds / rounds;
  for (let round = 0; round < rounds; round++) {
    const order = runs.map((_, i) => (round % 2 === 0 ? i : runs.length - 1 - i));
    for (const i of order) measured[i].push(await runs[i](share));
  }
  return measured.map(figuresOf);
}

/** Latency of one request on an idle server, and the response's headers. */
export async function single(baseUrl: string, shape: RequestShape, headers: Record<string, string>): Promise<{ ms: number; status: number; headers: Headers; bytes: number }> {
  const started = process.hrtime.bigint();
  const res = await fetch(baseUrl + shape.path, {
    method: shape.method,
    headers: { ...headers, ...(shape.body ? { 'Content-Type': 'application/json' } : {}) },
    body: shape.body ? JSON.stringify(shape.body()) : undefined,
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, status: res.status, headers: res.headers, bytes };
}
