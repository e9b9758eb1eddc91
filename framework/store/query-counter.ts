import { AsyncLocalStorage } from 'node:async_hooks';

/** Statements run by one database (all requests together). */
export interface QueryStats {
  queries: number;
  /** COMMITs of write transactions (on SQLite, one per commit group). */
  commits: number;
}

/** Statements executed on behalf of one request. */
export interface RequestQueries {
  count: number;
}

const current = new AsyncLocalStorage<RequestQueries>();

/**
 * Runs `fn` with a fresh per-request counter: every statement any executor runs inside it, however
 * deep in the call chain, is added to the returned counter. Used to expose the number of
 * statements per request (to catch N+1 patterns), so it costs nothing unless enabled.
 */
export function countingQueries<T>(fn: () => Promise<T>): { counter: RequestQueries; done: Promise<T> } {
  const counter: RequestQueries = { count: 0 };
  return { counter, done: current.run(counter, fn) };
}

/** Records one statement in the database-wide totals and in the current request's counter. */
export function recordQuery(stats: QueryStats): void {
  stats.queries++;
  const request = current.getStore();
  if (request) request.count++;
}

/** Runs `fn` outside any request's counter (bookkeeping that belongs to no request). */
export function uncounted<T>(fn: () => Promise<T>): Promise<T> {
  return current.exit(fn);
}
