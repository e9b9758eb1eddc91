/**
 * Headless Chromium driven over the DevTools protocol through `--remote-debugging-pipe` (JSON
 * messages separated by NUL on file descriptors 3 and 4), so no WebSocket client is needed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Readable, Writable } from 'node:stream';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumPath(): string | null {
  const fromEnv = process.env.NETINV_TEST_CHROMIUM;
  if (fromEnv) return fs.existsSync(fromEnv) ? fromEnv : null;
  return CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
}

type Message = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string }; sessionId?: string };

export class Browser {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, { resolve(r: Record<string, unknown>): void; reject(e: Error): void }>();
  private readonly listeners: Array<(m: Message) => void> = [];

  private constructor(private readonly proc: ChildProcess, private readonly profile: string) {
    const output = proc.stdio[4] as Readable;
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(this.buffer.slice(0, end)) as Message;
        this.buffer = this.buffer.slice(end + 1);
        this.dispatch(message);
      }
    });
  }

  static async launch(executable: string): Promise<Browser> {
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-chromium-'));
    // Flags for a closed network and a root user: no sandbox, no background connections.
    const proc = spawn(executable, [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const browser = new Browser(proc, profile);
    await browser.send('Browser.getVersion');
    return browser;
  }

  private dispatch(message: Message): void {
    if (message.id !== undefined) {
      const p = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) p?.reject(new Error(message.error.message));
      else p?.resolve(message.result ?? {});
      return;
    }
    for (const l of this.listeners) l(message);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const input = this.proc.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Resolves with the first event of `method` in `sessionId` after the call. */
  once(method: string, sessionId: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${method}`)), timeoutMs);
      const listener = (m: Message) => {
        if (m.method !== method || m.sessionId !== sessionId) return;
        clearTimeout(timer);
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        resolve(m.params ?? {});
      };
      this.listeners.push(listener);
    });
  }

  /**
   * A new tab; `headers` go with every request it makes (page loads and its fetches). A tall
   * `height` lets pages that draw only what is in view (Swagger UI's operation list) draw more.
   */
  async newPage(headers: Record<string, string> = {}, viewport: { width: number; height: number } = { width: 1280, height: 900 }): Promise<Page> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    await this.send('Page.enable', {}, sessionId);
    // A background tab gets no animation frames: pages that render in steps would stall.
    await this.send('Page.bringToFront', {}, sessionId);
    await this.send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
    await this.send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false }, sessionId);
    await this.send('Network.enable', {}, sessionId);
    if (Object.keys(headers).length) await this.send('Network.setExtraHTTPHeaders', { headers }, sessionId);
    return new Page(this, sessionId);
  }

  async close(): Promise<void> {
    await this.send('Browser.close').catch(() => undefined);
    await new Promise<void>((resolve) => {
      if (this.proc.exitCode !== null) return resolve();
      const timer = setTimeout(() => {
        this.proc.kill('SIGKILL');
        resolve();
      }, 5000);
      this.proc.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}

export class Page {
  constructor(private readonly browser: Browser, private readonly sessionId: string) {}

  async goto(url: string): Promise<void> {
    const loaded = this.browser.once('Page.loadEventFired', this.sessionId);
    await this.browser.send('Page.navigate', { url }, this.sessionId);
    await loaded;
  }

  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  async evaluate<T>(expression: string): Promise<T> {
    const r = (await this.browser.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, this.sessionId)) as {
      result: { value?: T };
      exceptionDetails?: { text: string };
    };
    if (r.exceptionDetails) throw new Error(`page script failed: ${r.exceptionDetails.text}`);
    return r.result.value as T;
  }

  /** A PNG of the viewport. */
  async screenshot(): Promise<Buffer> {
    const { data } = (await this.browser.send('Page.captureScreenshot', { format: 'png' }, this.sessionId)) as { data: string };
    return Buffer.from(data, 'base64');
  }

  /** Polls an expression until it is truthy. */
  async waitFor(expression: string, timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (await this.evaluate<boolean>(`Boolean(${expression})`)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${expression}`);
  }
}
