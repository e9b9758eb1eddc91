import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Test } from 'supertest';
import { loadConfig } from '../../app/config';
import { createServer, type NetinvServer } from '../../app/server';
import { parseObject, saveObject, validateObject } from '../../framework/serializer/writer';
import { DEFAULT_VERSION } from '../../framework/versioning/version';
import { RequestData } from '../../framework/metadata/request-data';
import { Token } from '../../models/users/token';
import { User } from '../../models/users/user';
import { freshDatabaseUrl } from './database';

export interface TokenOptions {
  writeEnabled?: boolean;
  expires?: string | null;
}

export interface TestApp {
  readonly server: NetinvServer;
  /** Superuser token with write access. */
  readonly token: string;
  readonly adminId: string;
  /** A request with the superuser's token and JSON Accept. */
  get(path: string, token?: string | null): Test;
  post(path: string, body?: unknown, token?: string | null): Test;
  put(path: string, body?: unknown, token?: string | null): Test;
  patch(path: string, body?: unknown, token?: string | null): Test;
  delete(path: string, body?: unknown, token?: string | null): Test;
  options(path: string, token?: string | null): Test;
  raw(): ReturnType<typeof request>;
  /** `http://127.0.0.1:<port>` of the listening server. */
  readonly baseUrl: string;
  /** Creates a user directly (bypassing the API) and returns its id. */
  createUser(username: string, options?: { superuser?: boolean; password?: string; active?: boolean }): Promise<string>;
  /** Creates a token for a user directly and returns its key. */
  createToken(userId: string, options?: TokenOptions): Promise<string>;
  /** Number of SQL statements executed so far. */
  queries(): number;
  close(): Promise<void>;
}

export interface StartOptions {
  databaseSuffix?: string;
  /** An existing database (a second server on the same data); its superuser gets a new name. */
  databaseUrl?: string;
}

export async function startApp(env: Record<string, string> = {}, options: StartOptions = {}): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await freshDatabaseUrl({ suffix: options.databaseSuffix }));
  // No timed sweeps for webhook deliveries: their queries would count in tests that count queries.
  // Nor for the job worker, which looks at the queue when a run is queued, not on a timer: tests of schedules and
  // other processes set NETINV_JOB_POLL_MS.
  const config = loadConfig({ DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent', NETINV_LOG_FORMAT: 'json', PORT: '0', HOST: '127.0.0.1', NETINV_WEBHOOK_POLL_SECONDS: '0', NETINV_JOB_POLL_MS: '3600000', NETINV_MEDIA_ROOT: mkdtempSync(path.join(tmpdir(), 'netinv-media-')), ...env });
  const server = await createServer(config);
  const registry = server.registry;

  const write = async (cls: Function, body: Record<string, unknown>, actor: { id: string; username: string } | null, extra: Record<string, unknown> = {}) =>
    server.db.transaction(async (tx) => {
      const model = registry.forClass(cls);
      const scope = { tx, registry, version: DEFAULT_VERSION, actor: actor ? { ...actor, isSuperuser: false } : null, features: new RequestData(), listeners: server.services.listeners ?? [] };
      const { values, wc } = await parseObject(model, body, scope, null, false);
      Object.assign(values, extra);
      await validateObject(model, values, wc);
      await saveObject(model, values, wc);
      return values;
    });

  const createUser: TestApp['createUser'] = async (username, options = {}) => {
    const values = await write(
      User,
      { username, password: options.password ?? 'secret-password', is_active: options.active ?? true },
      null,
      { is_superuser: options.superuser ?? false },
    );
    return values.id as string;
  };
  const createToken: TestApp['createToken'] = async (userId, options = {}) => {
    const body: Record<string, unknown> = { write_enabled: options.writeEnabled ?? true };
    if (options.expires !== undefined) body.expires = options.expires;
    const values = await write(Token, body, { id: userId, username: '' });
    return values.key as string;
  };

  const adminId = await createUser(options.databaseUrl ? `admin-${randomUUID().slice(0, 8)}` : 'admin', { superuser: true });
  const token = await createToken(adminId);
  // One listening server, so absolute URLs keep the same host:port across requests.
  const listening = await server.listen();
  const address = listening.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const agent = request(baseUrl);
  const auth = (t: Test, key: string | null | undefined) => {
    const k = key === undefined ? token : key;
    t.set('Accept', 'application/json');
    if (k) t.set('Authorization', `Token ${k}`);
    return t;
  };
  const withBody = (t: Test, body: unknown) => (body === undefined ? t : t.set('Content-Type', 'application/json').send(JSON.stringify(body)));
  return {
    server,
    token,
    adminId,
    get: (path, key) => auth(agent.get(path), key),
    post: (path, body, key) => withBody(auth(agent.post(path), key), body),
    put: (path, body, key) => withBody(auth(agent.put(path), key), body),
    patch: (path, body, key) => withBody(auth(agent.patch(path), key), body),
    delete: (path, body, key) => withBody(auth(agent.delete(path), key), body),
    options: (path, key) => auth(agent.options(path), key),
    raw: () => agent,
    baseUrl,
    createUser,
    createToken,
    queries: () => server.db.stats.queries,
    close: () => server.close(),
  };
}

/** Path part of an absolute URL. */
export function pathOf(url: string): string {
  return new URL(url).pathname + new URL(url).search;
}

/**
 * The app of one test file: started before its tests and closed after them. The object returned
 * forwards to the running app, so tests call `app.get(...)` as they would on a variable.
 */
export function appForThisFile(env: Record<string, string> = {}): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await startApp(env);
  });
  afterAll(async () => {
    await current?.close();
  });
  return new Proxy({} as TestApp, {
    get(_target, key) {
      if (!current) throw new Error('the app of this file starts in beforeAll');
      const value = (current as unknown as Record<string | symbol, unknown>)[key];
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current) : value;
    },
  });
}
