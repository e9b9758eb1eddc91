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

/**
 * Drives one request shape against a server with autocannon: a warm-up run whose figures are
 * dropped, then the measured run.
 */
export async function drive(baseUrl: string, shape: RequestShape, settings: LoadSettings): Promise<LoadFigures> {
  const headers = { ...settings.headers, ...(shape.body ? { 'Content-Type': 'application/json' } : {}) };
  const make = shape.body;
  const request = make
    ? { method: shape.method, path: shape.path, headers, setupRequest: (req: object) => ({ ...req, body: JSON.stringify(make()) }) }
    : { method: shape.method, path: shape.path, headers };
  const run = (duration: number) =>
    autocannon({ url: baseUrl, connections: settings.connections, pipelining: 1, duration, timeout: 30, requests: [request] });
  if (settings.warmupSeconds > 0) await run(settings.warmupSeconds);
  const result = await run(settings.seconds);
  const total = result.requests.total;
  return {
    requests: total,
    requestsPerSecond: total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
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
