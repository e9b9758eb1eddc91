import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { Store, and, fieldTest, or, storeDateTime, type Database, type FieldMeta, type Id, type Registry, type Values } from '../../framework';
import { WebhookDelivery } from './webhook';

export interface WebhookWorkerOptions {
  /** Seconds between sweeps for deliveries due (retries, rows left by a stopped process); 0: none. */
  pollSeconds: number;
  /** Attempts before a delivery is marked failed. */
  maxAttempts: number;
  /** First retry delay; each further retry doubles it. */
  retryBaseSeconds: number;
  /** Per-request timeout. */
  timeoutSeconds: number;
  /** Reports failures; the worker never throws into the server. */
  onError?: (message: string, data: Record<string, unknown>) => void;
}

/** How long a claimed row belongs to the process that claimed it before another may retry it. */
const LEASE_MARGIN_MS = 30_000;
const BATCH = 20;
const FINISH_ATTEMPTS = 5;

interface Outcome {
  ok: boolean;
  error: string;
}

function send(row: Values, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(String(row.url));
    } catch {
      resolve({ ok: false, error: `invalid URL ${String(row.url)}` });
      return;
    }
    const body = Buffer.from(String(row.body), 'utf8');
    const headers: Record<string, string | number> = { ...(JSON.parse(String(row.headers)) as Record<string, string>) };
    const method = String(row.method);
    if (method !== 'GET') headers['Content-Length'] = body.length;
    const options: https.RequestOptions = { method, headers, timeout: timeoutMs };
    if (url.protocol === 'https:') {
      options.rejectUnauthorized = row.ssl_verification === true;
      if (row.ssl_verification && row.ca_file_path) {
        try {
          options.ca = fs.readFileSync(String(row.ca_file_path));
        } catch (err) {
          resolve({ ok: false, error: `CA file: ${(err as Error).message}` });
          return;
        }
      }
    } else if (url.protocol !== 'http:') {
      resolve({ ok: false, error: `unsupported URL scheme ${url.protocol}` });
      return;
    }
    const req = (url.protocol === 'https:' ? https : http).request(url, options, (res) => {
      res.resume();
      const status = res.statusCode ?? 0;
      res.on('end', () => resolve({ ok: status >= 200 && status < 300, error: status >= 200 && status < 300 ? '' : `HTTP ${status}` }));
      res.on('error', (err) => resolve({ ok: false, error: err.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (err) => resolve({ ok: false, error: err.message }));
    if (method !== 'GET') req.write(body);
    req.end();
  });
}

/**
 * Sends queued webhook deliveries after their transaction committed. Rows live in the database,
 * so pending ones survive a restart; a row is claimed by a conditional UPDATE, so processes sharing
 * the database never send the same row twice while its lease holds.
 */
export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;

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

  /** Starts sending: first whatever earlier processes left pending. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.kick();
  }

  /** Stops scheduling and waits for the sweep under way. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** New deliveries were queued: sweep now (or right after the current sweep). */
  kick(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.sweepLoop().finally(() => {
      this.running = null;
    });
  }

  /** Resolves once no sweep is under way (tests wait on it). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
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

  private async sweepLoop(): Promise<void> {
    try {
      do {
        this.again = false;
        while (this.started && (await this.sweep()) > 0) {
          /* keep going while rows are due */
        }
      } while (this.again && this.started);
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

  /** Claims and sends the deliveries due now; returns how many it sent. */
  async sweep(): Promise<number> {
    const now = new Date();
    // Predicates compare with the stored text form of timestamps.
    const stamp = storeDateTime(now);
    const due = or([
      and([fieldTest(this.field('state'), 'exact', ['pending']), fieldTest(this.field('next_attempt_at'), 'lte', [stamp])]),
      and([fieldTest(this.field('state'), 'exact', ['sending']), fieldTest(this.field('lease_until'), 'lte', [stamp])]),
    ]);
    const candidates = (await new Store(this.db.reader).find(this.model, due))
      .sort((a, b) => (a.next_attempt_at as Date).getTime() - (b.next_attempt_at as Date).getTime())
      .slice(0, BATCH);
    let sent = 0;
    for (const row of candidates) {
      if (!this.started) break;
      if (!(await this.claim(row, now))) continue;
      const outcome = await send(row, this.options.timeoutSeconds * 1000);
      await this.finish(row, outcome);
      sent++;
    }
    return sent;
  }

  /** Takes the row if it is still in the state it was read in: only one process succeeds. */
  private async claim(row: Values, now: Date): Promise<boolean> {
    const lease = new Date(now.getTime() + this.options.timeoutSeconds * 1000 + LEASE_MARGIN_MS);
    const attempts = Number(row.attempts) + 1;
    const changed = await this.db.transaction((tx) =>
      new Store(tx).updateWhere(this.model, { id: row.id, state: row.state, attempts: Number(row.attempts) }, { state: 'sending', lease_until: lease, attempts }),
    );
    if (changed !== 1) return false;
    row.attempts = attempts;
    return true;
  }

  private async finish(row: Values, outcome: Outcome): Promise<void> {
    const attempts = Number(row.attempts);
    let values: Values;
    if (outcome.ok) values = { state: 'delivered', lease_until: null, last_error: '' };
    else if (attempts >= this.options.maxAttempts) values = { state: 'failed', lease_until: null, last_error: outcome.error };
    else {
      const delay = this.options.retryBaseSeconds * 1000 * 2 ** (attempts - 1);
      values = { state: 'pending', lease_until: null, next_attempt_at: new Date(Date.now() + delay), last_error: outcome.error };
    }
    if (!outcome.ok) this.options.onError?.('webhook delivery failed', { url: row.url, attempt: attempts, error: outcome.error, final: values.state === 'failed' });
    // The request was made: recording that matters, or the row is sent again when its lease ends.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.transaction((tx) => new Store(tx).update(this.model, row.id as Id, values));
        return;
      } catch (err) {
        if (attempt >= FINISH_ATTEMPTS) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  }
}
