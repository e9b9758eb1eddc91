/**
 * Two netinv instances, two `netinv serve` processes on two ports sharing one database, behave
 * as one: a token or a session made on one works on the other, a change of configuration made on
 * one (a custom field, a deleted token) is seen by the other within a second, each webhook
 * delivery is sent once and each queued job runs once, whichever instance queued it.
 * The servers are dist/ (built by `npm test`'s pretest).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import request from 'supertest';
import { dialectUnderTest, freshDatabaseUrl } from '../helpers/database';
import { startApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const ROOT = path.resolve(__dirname, '../..');
const MAIN = path.join(ROOT, 'dist/app/cli/main.js');
const DIST_JOBS = path.join(ROOT, 'test/fixtures/jobs-dist');

type Obj = Record<string, any>;

/** A local HTTP server recording the bodies it receives. */
class Receiver {
  readonly bodies: Obj[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj);
      res.writeHead(204).end();
    });
  });
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** One `netinv serve` process. */
class Instance {
  private output = '';
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  static async start(databaseUrl: string, port: number): Promise<Instance> {
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NETINV_LOG_LEVEL: 'warn',
        NETINV_JOBS_ROOT: DIST_JOBS,
        NETINV_JOB_POLL_MS: '100',
        NETINV_WEBHOOK_POLL_SECONDS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const instance = new Instance(child, `http://127.0.0.1:${port}`);
    child.stdout?.on('data', (d: Buffer) => (instance.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (instance.output += d.toString()));
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`netinv serve exited ${child.exitCode}: ${instance.output}`);
      return (await fetch(`${instance.baseUrl}/api/`).catch(() => null)) ? true : null;
    }, 60_000);
    return instance;
  }

  agent(): ReturnType<typeof request> {
    return request(this.baseUrl);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** A free port, from the system (closed again before a server takes it). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How long `check` took to hold, polled every 20 ms, from `since`. */
async function msUntil(since: number, check: () => Promise<boolean>, limitMs = 10_000): Promise<number> {
  for (;;) {
    if (await check()) return Date.now() - since;
    if (Date.now() - since > limitMs) throw new Error(`not seen within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Two processes on one SQLite file take turns at its write lock; the shared-database guarantees
// this file proves are those of the server databases.
const describeShared = dialectUnderTest() === 'sqlite' ? describe.skip : describe;

describeShared('two instances on one database', () => {
  let a: Instance;
  let b: Instance;
  let token: string;
  let adminId: string;
  const auth = (key: string) => ({ Authorization: `Token ${key}`, Accept: 'application/json' });

  beforeAll(async () => {
    const databaseUrl = await freshDatabaseUrl({ persistent: true, suffix: 'twin' });
    // Migrated, with a superuser and a token, by an in-process server that is then closed.
    const setup = await startApp({}, { databaseUrl });
    token = setup.token;
    adminId = setup.adminId;
    await setup.close();
    [a, b] = await Promise.all([Instance.start(databaseUrl, await freePort()), Instance.start(databaseUrl, await freePort())]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  test('a token made on one instance works on the other at once; deleted there, the other refuses it within a second', async () => {
    const made = await a.agent().post('/api/users/tokens/').set(auth(token)).set('Content-Type', 'application/json').send({ user: adminId, write_enabled: true });
    expect(made.status).toBe(201);
    const key = String(made.body.key);
    // Known to b before the deletion, so b holds it in its cache.
    expect((await b.agent().get('/api/dcim/sites/').set(auth(key))).status).toBe(200);
    expect((await b.agent().get('/api/dcim/sites/').set(auth(key))).status).toBe(200);
    const deleted = await a.agent().delete(`/api/users/tokens/${String(made.body.id)}/`).set(auth(token));
    expect(deleted.status).toBe(204);
    const ms = await msUntil(Date.now(), async () => (await b.agent().get('/api/dcim/sites/').set(auth(key))).status === 403);
    expect(ms).toBeLessThan(1000);
    expect((await b.agent().get('/api/dcim/sites/').set(auth(key))).body).toEqual({ detail: 'Invalid token' });
  });

  test('a session opened on one instance is recognised by the other', async () => {
    const setup = a.agent();
    const username = `twin-${Date.now()}`;
    const user = await setup.post('/api/users/users/').set(auth(token)).set('Content-Type', 'application/json').send({ username, password: 'a-long-password' });
    expect(user.status).toBe(201);
    // The login form's CSRF token comes with the form, as a cookie.
    const form = await a.agent().get('/api-auth/login/');
    const csrf = /csrftoken=([0-9a-f]{64})/.exec(([] as string[]).concat(form.headers['set-cookie'] ?? []).join('; '))?.[1] ?? '';
    expect(csrf).not.toBe('');
    const login = await a.agent().post('/api-auth/login/').set('Cookie', `csrftoken=${csrf}`).type('form')
      .send({ username, password: 'a-long-password', next: '/api/', csrfmiddlewaretoken: csrf });
    expect(login.status).toBe(302);
    const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
    expect(cookies.some((c) => c.startsWith('sessionid='))).toBe(true);
    // The user's own configuration is there for any signed-in user, and for no one else.
    const onB = await b.agent().get('/api/users/config/').set('Cookie', cookies.join('; ')).set('Accept', 'application/json');
    expect(onB.status).toBe(200);
    expect(onB.body).toEqual({});
    const anonymous = await b.agent().get('/api/users/config/').set('Accept', 'application/json');
    expect(anonymous.status).toBe(403);
  });

  test('a custom field added on one instance appears on the other within a second', async () => {
    const site = await a.agent().post('/api/dcim/sites/').set(auth(token)).set('Content-Type', 'application/json').send({ name: 'Twin site', status: 'active' });
    expect(site.status).toBe(201);
    const read = async () => (await b.agent().get(`/api/dcim/sites/${String(site.body.id)}/`).set(auth(token))).body as Obj;
    // b has loaded (and cached) the definitions without the new field.
    expect((await read()).custom_fields).toEqual({});
    const field = await a.agent().post('/api/extras/custom-fields/').set(auth(token)).set('Content-Type', 'application/json').send({ name: 'twin_owner', type: 'text', content_types: ['dcim.site'], default: 'noc' });
    expect(field.status).toBe(201);
    const ms = await msUntil(Date.now(), async () => 'twin_owner' in ((await read()).custom_fields as Obj));
    expect(ms).toBeLessThan(1000);
    // Existing objects take the new field's default, as in Nautobot.
    expect((await read()).custom_fields).toEqual({ twin_owner: 'noc' });
    // The writing instance sees its own change at once.
    const other = await a.agent().get(`/api/dcim/sites/${String(site.body.id)}/`).set(auth(token));
    expect(other.body.custom_fields).toEqual({ twin_owner: 'noc' });
  });

  test('a status added or withdrawn on one instance is taken or refused by the other within a second', async () => {
    let n = 0;
    const createSite = async (status: string) =>
      b.agent().post('/api/dcim/sites/').set(auth(token)).set('Content-Type', 'application/json').send({ name: `Twin status site ${n++}`, status });
    // b has loaded (and cached) the statuses before the new one exists.
    expect((await createSite('active')).status).toBe(201);
    expect((await createSite('twin-state')).status).toBe(400);
    const made = await a.agent().post('/api/extras/statuses/').set(auth(token)).set('Content-Type', 'application/json').send({ name: 'Twin state', slug: 'twin-state', content_types: ['dcim.site'] });
    expect(made.status).toBe(201);
    expect(await msUntil(Date.now(), async () => (await createSite('twin-state')).status === 201)).toBeLessThan(1000);
    // Withdrawn from sites on a: b refuses it for sites again.
    const withdrawn = await a.agent().patch(`/api/extras/statuses/${String(made.body.id)}/`).set(auth(token)).set('Content-Type', 'application/json').send({ content_types: ['dcim.device'] });
    expect(withdrawn.status).toBe(200);
    expect(await msUntil(Date.now(), async () => (await createSite('twin-state')).status === 400)).toBeLessThan(1000);
    const refused = await createSite('twin-state');
    expect(refused.body).toEqual({ status: ['Object with slug=twin-state does not exist.'] });
  });

  test('webhook deliveries of changes made on either instance are sent once each', async () => {
    const receiver = new Receiver();
    await receiver.start();
    try {
      const hook = await a.agent().post('/api/extras/webhooks/').set(auth(token)).set('Content-Type', 'application/json')
        .send({ name: 'Twin hook', content_types: ['dcim.region'], type_create: true, payload_url: receiver.url });
      expect(hook.status).toBe(201);
      // b learns of the webhook through the configuration cache's generations, within a second.
      await new Promise((r) => setTimeout(r, 1000));
      const names = Array.from({ length: 12 }, (_, i) => `Twin region ${i}`);
      await Promise.all(names.map((name, i) => (i % 2 ? a : b).agent().post('/api/dcim/regions/').set(auth(token)).set('Content-Type', 'application/json').send({ name }).expect(201)));
      await waitFor(async () => (receiver.bodies.length >= names.length ? true : null), 20_000);
      // Time for a duplicate to arrive, if either instance were to send one: two sweeps each.
      await new Promise((r) => setTimeout(r, 2500));
      expect(receiver.bodies.map((body) => String(body.data.name)).sort()).toEqual([...names].sort());
    } finally {
      await receiver.stop();
    }
  });

  test('jobs queued on either instance run once each', async () => {
    const jobs = await a.agent().get('/api/extras/jobs/?job_class_name=Sleep&api_version=1.6').set(auth(token));
    expect(jobs.body.count).toBe(1);
    const job = String(jobs.body.results[0].id);
    expect((await a.agent().patch(`/api/extras/jobs/${job}/`).set(auth(token)).set('Content-Type', 'application/json').send({ enabled: true })).status).toBe(200);
    const results: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await (i % 2 ? a : b).agent().post(`/api/extras/jobs/${job}/run/`).set(auth(token)).set('Content-Type', 'application/json')
        .send({ data: { seconds: 0, tag: `twin-job-${i}`, ignore_signal: false }, commit: true });
      expect(res.status).toBe(201);
      results.push(String(res.body.job_result.id));
    }
    for (const id of results) {
      const done = await waitFor(async () => {
        const res = await a.agent().get(`/api/extras/job-results/${id}/`).set(auth(token));
        return ['completed', 'failed', 'errored'].includes(res.body.status.value) ? (res.body as Obj) : null;
      }, 30_000);
      expect(done.status).toEqual({ value: 'completed', label: 'Completed' });
      // A second run would log 'started' twice (or fail on the tag the first created).
      const logs = await b.agent().get(`/api/extras/job-results/${id}/logs/`).set(auth(token));
      expect((logs.body as Obj[]).map((l) => l.message)).toEqual(['started']);
    }
    expect((await b.agent().get('/api/extras/tags/?slug__isw=twin-job-&limit=100').set(auth(token))).body.count).toBe(10);
  });
});
