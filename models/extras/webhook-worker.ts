import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { Store, and, fieldTest, or, storeDateTime, type Database, type FieldMeta, type Registry, type Values } from '../../framework';
import { WebhookDelivery } from './webhook';

export interface WebhookWorkerOptions {
  /** Seconds between sweeps for deliveries due (retries, rows left by a stopped process); 0: none. */
  pollSeconds: number;
  /** Attempts before a delivery is marked failed. */
  maxAttempts: number;
  /** First retry delay; each further retry doubles it. */
  retryBaseSeconds: number;
  /** Total time one attempt may take: connecting, sending the request and reading the whole answer. */
  timeoutSeconds: number;
  /** Deliveries in flight at the same time. */
  concurrency: number;
  /** How long a claimed row belongs to this process without renewal; renewed every third of it while its delivery runs. */
  leaseSeconds: number;
  /** Reports failures; the worker never throws into the server. */
  onError?: (message: string, data: Record<string, unknown>) => void;
}

/** Rows read per look at the queue. */
const BATCH = 20;
const FINISH_ATTEMPTS = 5;

interface Outcome {
  ok: boolean;
  error: string;
  /** Trying again cannot help (a malformed URL or header): the row fails at once. */
  permanent?: boolean;
}

interface Prepared {
  url: URL;
  options: https.RequestOptions;
  body: Buffer | null;
}

/** Why a request was cut short: the delivery's deadline, or the row's claim lost to another process. */
class Stop extends Error {}

/** The header's problem in the words of the delivery's error, or null: Node refuses to send these (as Python's http.client does). */
function headerProblem(name: string, value: string): string | null {
  try {
    http.validateHeaderName(name);
  } catch {
    return `Header ${name}: not a valid header name`;
  }
  try {
    http.validateHeaderValue(name, value);
  } catch {
    return /[^\u0000-\u00ff]/.test(value) ? `Header ${name}: value is not valid latin-1` : `Header ${name}: value contains a control character`;
  }
  return null;
}

/** The request a row describes, or the reason it cannot be made. */
function prepare(row: Values): Prepared | Outcome {
  let url: URL;
  try {
    url = new URL(String(row.url));
  } catch {
    return { ok: false, error: `invalid URL ${String(row.url)}`, permanent: true };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, error: `unsupported URL scheme ${url.protocol}`, permanent: true };
  let stored: unknown;
  try {
    stored = JSON.parse(String(row.headers));
  } catch {
    return { ok: false, error: 'stored headers are not a JSON object', permanent: true };
  }
  const headers: Record<string, string | number> = {};
  for (const [name, value] of Object.entries((stored ?? {}) as Record<string, unknown>)) {
    const problem = headerProblem(name, String(value));
    if (problem) return { ok: false, error: problem, permanent: true };
    headers[name] = String(value);
  }
  const method = String(row.method);
  const body = method === 'GET' ? null : Buffer.from(String(row.body), 'utf8');
  if (body) headers['Content-Length'] = body.length;
  const options: https.RequestOptions = { method, headers };
  if (url.protocol === 'https:') {
    options.rejectUnauthorized = row.ssl_verification === true;
    if (row.ssl_verification && row.ca_file_path) {
      try {
        options.ca = fs.readFileSync(String(row.ca_file_path));
      } catch (err) {
        return { ok: false, error: `CA file: ${(err as Error).message}` };
      }
    }
  }
  return { url, options, body };
}

/**
 * Makes one attempt of a delivery. `signal` ends it early (the deadline, or a lost claim, with a
 * `Stop` reason naming why); nothing here throws: every failure is the outcome's error.
 */
async function send(row: Values, signal: AbortSignal): Promise<Outcome> {
  let prepared: Prepared | Outcome;
  try {
    prepared = prepare(row);
  } catch (err) {
    return { ok: false, error: (err as Error).message, permanent: true };
  }
  if (!('url' in prepared)) return prepared;
  const { url, options, body } = prepared;
  const stopped = (err: unknown): string => (signal.aborted && signal.reason instanceof Stop ? signal.reason.message : (err as Error)?.message ?? String(err));
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    let responded = false;
    const done = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    try {
      const req = (url.protocol === 'https:' ? https : http).request(url, { ...options, signal }, (res) => {
        responded = true;
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        const answered = (): Outcome => ({ ok, error: ok ? '' : `HTTP ${status}` });
        res.on('end', () => done(answered()));
        res.on('error', (err) => done({ ok: false, error: stopped(err) }));
        // Cut off before the end (the deadline, a reset): not an answer.
        res.on('close', () => done(res.complete ? answered() : { ok: false, error: stopped(new Error('the connection closed before the answer ended')) }));
        res.resume();
      });
      req.on('error', (err) => done({ ok: false, error: stopped(err) }));
      req.on('close', () => {
        if (!responded) done({ ok: false, error: stopped(new Error('the connection closed before an answer')) });
      });
      if (body) req.write(body);
      req.end();
    } catch (err) {
      // What the request refuses synchronously (it validates before connecting).
      done({ ok: false, error: (err as Error).message, permanent: true });
    }
  });
}

/**
 * Sends queued webhook deliveries after their transaction committed. Rows live in the database,
 * so pending ones survive a restart. A row is claimed by a conditional UPDATE that also counts the
 * attempt, so the pair (row, attempts) names one claim: the lease is renewed, and the outcome
 * recorded, only while the row still carries this worker's claim. Up to `concurrency` deliveries
 * run at once, each within its deadline, so a slow receiver holds one of them and no other.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  /** The look at the queue under way: it claims rows for free slots and starts their deliveries. */
  private pass: Promise<void> | null = null;
  private again = false;
  private started = false;
  /** Deliveries in flight, by row id. */
  private readonly active = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly registry: Registry,
    private readonly options: WebhookWorkerOptions,
  ) {}

  private get model() {
    return this.registry.forClass(WebhookDelivery);
  }

  private field(name: string): FieldMeta {
    return this.model.field(name) as FieldMeta;
  }

  private get concurrency(): number {
    return Math.max(1, this.options.concurrency);
  }

  private get leaseMs(): number {
    return this.options.leaseSeconds * 1000;
  }

  /** Starts sending: first whatever earlier processes left pending. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.kick();
  }

  /** Stops scheduling and waits for the look at the queue and the deliveries under way (each ends by its deadline). */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.idle();
  }

  /** New deliveries were queued, or a slot freed: look at the queue now (or right after the current look). */
  kick(): void {
    if (!this.started) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.fill().finally(() => {
      this.pass = null;
    });
  }

  /** Resolves once nothing is claimed or sent (tests wait on it). */
  async idle(): Promise<void> {
    while (this.pass || this.active.size) await Promise.all([this.pass, ...this.active.values()]);
  }

  private schedule(ms: number): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, ms);
    this.timer.unref();
  }

  private async fill(): Promise<void> {
    try {
      do {
        this.again = false;
        while (this.started && this.active.size < this.concurrency && (await this.sweep()) > 0) {
          /* keep going while rows are due and slots free */
        }
      } while (this.again && this.started && this.active.size < this.concurrency);
      const next = await this.nextDue();
      const poll = this.options.pollSeconds * 1000;
      const wait = next === null ? poll : poll > 0 ? Math.min(poll, next) : next;
      if (wait > 0 || next !== null) this.schedule(Math.max(wait, 10));
    } catch (err) {
      this.options.onError?.('webhook worker failed', { error: err });
      this.schedule(Math.max(1000, this.options.pollSeconds * 1000));
    }
  }

  /** Milliseconds until the earliest pending retry, or null when none waits. */
  private async nextDue(): Promise<number | null> {
    const rows = await new Store(this.db.reader).find(this.model, fieldTest(this.field('state'), 'exact', ['pending']));
    if (rows.length === 0) return null;
    const earliest = Math.min(...rows.map((r) => (r.next_attempt_at as Date).getTime()));
    return Math.max(0, earliest - Date.now());
  }

  /** Rows due at `stamp`: pending ones whose time came, and claimed ones whose lease ran out. */
  private due(stamp: string) {
    return or([
      and([fieldTest(this.field('state'), 'exact', ['pending']), fieldTest(this.field('next_attempt_at'), 'lte', [stamp])]),
      and([fieldTest(this.field('state'), 'exact', ['sending']), fieldTest(this.field('lease_until'), 'lte', [stamp])]),
    ]);
  }

  /** The row while it still carries the claim of attempt `attempts` (state `sending`). */
  private held(row: Values, attempts: number) {
    return and([fieldTest(this.model.pk, 'exact', [row.id]), fieldTest(this.field('state'), 'exact', ['sending']), fieldTest(this.field('attempts'), 'exact', [attempts])]);
  }

  /**
   * Claims due rows for the free slots and starts their deliveries; a row whose attempts are
   * spent (its last sender stopped before recording an outcome) is failed instead of sent.
   * Returns how many rows it took.
   */
  async sweep(): Promise<number> {
    const now = new Date();
    // Predicates compare with the stored text form of timestamps.
    const stamp = storeDateTime(now);
    const candidates = (await new Store(this.db.reader).find(this.model, this.due(stamp)))
      .filter((row) => !this.active.has(String(row.id)))
      .sort((a, b) => (a.next_attempt_at as Date).getTime() - (b.next_attempt_at as Date).getTime())
      .slice(0, BATCH);
    let taken = 0;
    for (const row of candidates) {
      if (!this.started || this.active.size >= this.concurrency) break;
      const attempts = Number(row.attempts);
      // Still due and still at the attempt read: a conditional update only one process wins.
      const still = and([fieldTest(this.model.pk, 'exact', [row.id]), fieldTest(this.field('attempts'), 'exact', [attempts]), this.due(stamp)]);
      if (attempts >= this.options.maxAttempts) {
        const error = `attempt ${attempts} of ${this.options.maxAttempts} never finished: the process sending it stopped`;
        const changed = await this.db.transaction((tx) => new Store(tx).updateWhere(this.model, still, { state: 'failed', lease_until: null, last_error: error }));
        if (changed === 1) {
          taken++;
          this.options.onError?.('webhook delivery failed', { url: row.url, attempt: attempts, error, final: true });
        }
        continue;
      }
      const lease = new Date(Date.now() + this.leaseMs);
      const changed = await this.db.transaction((tx) => new Store(tx).updateWhere(this.model, still, { state: 'sending', lease_until: lease, attempts: attempts + 1 }));
      if (changed !== 1) continue;
      row.state = 'sending';
      row.attempts = attempts + 1;
      this.deliver(row);
      taken++;
    }
    return taken;
  }

  /** Sends one claimed row in the background, renewing its lease, and records the outcome on it alone. */
  private deliver(row: Values): void {
    const id = String(row.id);
    const attempts = Number(row.attempts);
    const controller = new AbortController();
    const timeoutMs = this.options.timeoutSeconds * 1000;
    const deadline = setTimeout(() => controller.abort(new Stop(`timed out: no complete answer within ${this.options.timeoutSeconds} s`)), timeoutMs);
    let renewing = false;
    const renewal = setInterval(() => {
      if (renewing) return;
      renewing = true;
      this.renew(row, attempts)
        .then((held) => {
          if (!held) controller.abort(new Stop('the claim on this delivery was lost (its lease ran out)'));
        })
        .catch((err) => this.options.onError?.('webhook lease renewal failed', { url: row.url, error: String(err) }))
        .finally(() => {
          renewing = false;
        });
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    const task = send(row, controller.signal)
      .finally(() => {
        clearTimeout(deadline);
        clearInterval(renewal);
      })
      .then((outcome) => this.finish(row, attempts, outcome))
      .catch((err) => this.options.onError?.('webhook delivery not recorded', { url: row.url, attempt: attempts, error: String(err) }))
      .finally(() => {
        this.active.delete(id);
        this.kick();
      });
    this.active.set(id, task);
  }

  /** Extends the row's lease while it carries this claim; false once it does not. */
  private async renew(row: Values, attempts: number): Promise<boolean> {
    const lease = new Date(Date.now() + this.leaseMs);
    return (await this.db.transaction((tx) => new Store(tx).updateWhere(this.model, this.held(row, attempts), { lease_until: lease }))) === 1;
  }

  private async finish(row: Values, attempts: number, outcome: Outcome): Promise<void> {
    let values: Values;
    if (outcome.ok) values = { state: 'delivered', lease_until: null, last_error: '' };
    else if (outcome.permanent || attempts >= this.options.maxAttempts) values = { state: 'failed', lease_until: null, last_error: outcome.error };
    else {
      const delay = this.options.retryBaseSeconds * 1000 * 2 ** (attempts - 1);
      values = { state: 'pending', lease_until: null, next_attempt_at: new Date(Date.now() + delay), last_error: outcome.error };
    }
    if (!outcome.ok) this.options.onError?.('webhook delivery failed', { url: row.url, attempt: attempts, error: outcome.error, final: values.state === 'failed' });
    // The request was made: recording that matters, or the row is sent again when its lease ends.
    for (let attempt = 1; ; attempt++) {
      try {
        const changed = await this.db.transaction((tx) => new Store(tx).updateWhere(this.model, this.held(row, attempts), values));
        if (changed !== 1) this.options.onError?.('webhook delivery outcome dropped: another process claimed the row', { url: row.url, attempt: attempts });
        return;
      } catch (err) {
        if (attempt >= FINISH_ATTEMPTS) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }
}
