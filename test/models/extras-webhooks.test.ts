/**
 * Webhooks: deliveries are queued in the write's transaction and sent after commit by the
 * server's worker to a real HTTP receiver; failures are retried; a rolled-back write sends
 * nothing; a queued delivery survives a restart and arrives once; a slow or malformed delivery
 * is cut off or failed on its own row without holding up the others.
 */
import { createHmac } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Store, type Values } from '../../framework';
import { WebhookDelivery } from '../../models/extras/webhook';
import { FACTORIES } from '../factories/all';
import { contextFor } from '../factories';
import { dialectUnderTest, freshDatabaseUrl } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** When the whole request had arrived (Date.now()). */
  at: number;
}

/** A local HTTP server recording every request; `failures` requests are answered 500 first; paths in `delays` are answered that many ms late. */
class Receiver {
  readonly requests: Received[] = [];
  failures = 0;
  readonly delays = new Map<string, number>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const fail = this.failures > 0;
      if (fail) this.failures--;
      const answer = () => res.writeHead(fail ? 500 : 204).end();
      const delay = this.delays.get(req.url ?? '');
      if (delay) setTimeout(answer, delay);
      else answer();
    });
  });
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }
  at(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Waits until `path` received `n` requests (or the time is up), then a little longer for extras. */
async function received(receiver: Receiver, path: string, n: number, ms = 8000): Promise<Received[]> {
  const until = Date.now() + ms;
  while (receiver.at(path).length < n && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
  return receiver.at(path);
}

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check` holds or `ms` have passed; returns whether it held. */
async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= until) return false;
    await settle(50);
  }
}

/** A webhook's delivery rows as stored. */
async function deliveries(target: TestApp, webhookId: string): Promise<Values[]> {
  return new Store(target.server.db.reader, target.server.registry).find(WebhookDelivery, { webhook: webhookId });
}

/** The delivery row of a region by name (the default payload's `data.name`). */
async function deliveryOf(target: TestApp, webhookId: string, name: string): Promise<Values | undefined> {
  return (await deliveries(target, webhookId)).find((row) => (JSON.parse(String(row.body)) as { data: { name: string } }).data.name === name);
}

/** A receiver that answers 200 at once and then one byte every half second for 15 s: never silent, never done. */
class Trickler {
  /** Each request's connection: when it opened, when it closed, and whether the client cut it off. */
  readonly connections: { opened: number; closed: number | null; cutOff: boolean }[] = [];
  private readonly server = http.createServer((req, res) => {
    req.resume();
    const connection = { opened: Date.now(), closed: null as number | null, cutOff: false };
    this.connections.push(connection);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.write('.');
    const timer = setInterval(() => res.write('.'), 500);
    const end = setTimeout(() => res.end('.'), 15000);
    res.on('close', () => {
      clearInterval(timer);
      clearTimeout(end);
      connection.closed = Date.now();
      connection.cutOff = !res.writableFinished;
    });
  });
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }
  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let app: TestApp;
const receiver = new Receiver();
let hookNumber = 0;

beforeAll(async () => {
  await receiver.start();
  app = await startApp({ NETINV_WEBHOOK_RETRY_SECONDS: '1', NETINV_WEBHOOK_MAX_ATTEMPTS: '3' });
});
afterAll(async () => {
  await app?.close();
  await receiver.stop();
});

/** A webhook on regions sending to its own path of the receiver. */
async function webhook(body: Record<string, unknown> = {}, target: TestApp = app): Promise<{ id: string; path: string }> {
  hookNumber++;
  const path = `/hook-${hookNumber}`;
  const res = await target.post('/api/extras/webhooks/', {
    name: `Hook ${hookNumber}`,
    content_types: ['dcim.region'],
    type_create: true,
    type_update: true,
    type_delete: true,
    payload_url: receiver.url(path),
    ...body,
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, path };
}

async function removeWebhook(id: string, target: TestApp = app): Promise<void> {
  expect((await target.delete(`/api/extras/webhooks/${id}/`)).status).toBe(204);
}

describe('definition', () => {
  test('create, read back; the enabled flag is not shown', async () => {
    const hook = await webhook({ additional_headers: 'X-A: 1', secret: 's3cret' });
    const res = await app.get(`/api/extras/webhooks/${hook.id}/`);
    expect(res.body).toMatchObject({
      name: `Hook ${hookNumber}`,
      content_types: ['dcim.region'],
      http_method: 'POST',
      http_content_type: 'application/json',
      additional_headers: 'X-A: 1',
      body_template: '',
      secret: 's3cret',
      ssl_verification: true,
      ca_file_path: null,
    });
    expect(res.body.enabled).toBeUndefined();
    expect((await app.get(`/api/extras/webhooks/?enabled=true&id=${hook.id}`)).body.count).toBe(1);
    await removeWebhook(hook.id);
  });

  test('validation: an event type, a known method, one webhook per event, model and URL', async () => {
    const none = await app.post('/api/extras/webhooks/', { name: 'No types', content_types: ['dcim.region'], payload_url: 'http://x.example/' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ __all__: ['You must select at least one type: create, update, and/or delete.'] });
    const method = await app.post('/api/extras/webhooks/', { name: 'Bad method', content_types: ['dcim.region'], type_create: true, payload_url: 'http://x.example/', http_method: 'FETCH' });
    expect(method.status).toBe(400);
    expect(Object.keys(method.body)).toEqual(['http_method']);
    const first = await app.post('/api/extras/webhooks/', { name: 'First', content_types: ['dcim.region', 'dcim.site'], type_create: true, payload_url: 'http://dup.example/' });
    expect(first.status).toBe(201);
    const second = await app.post('/api/extras/webhooks/', { name: 'Second', content_types: ['dcim.site'], type_create: true, payload_url: 'http://dup.example/' });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ type_create: ['A webhook already exists for create on dcim | site to URL http://dup.example/'] });
    const other = await app.post('/api/extras/webhooks/', { name: 'Second', content_types: ['dcim.site'], type_delete: true, payload_url: 'http://dup.example/' });
    expect(other.status).toBe(201);
    const ca = await app.post('/api/extras/webhooks/', { name: 'CA', content_types: ['dcim.site'], type_create: true, payload_url: 'https://ca.example/', ssl_verification: false, ca_file_path: '/etc/ca.pem' });
    expect(ca.status).toBe(400);
    expect(Object.keys(ca.body)).toEqual(['ca_file_path']);
    await removeWebhook(first.body.id);
    await removeWebhook(other.body.id);
  });
});

describe('delivery', () => {
  test('create, update and delete each send the payload once', async () => {
    const hook = await webhook();
    const created = await app.post('/api/dcim/regions/', { name: 'Hooked region', description: 'before' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const [first] = await received(receiver, hook.path, 1);
    expect(first.method).toBe('POST');
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.headers['x-hook-signature']).toBeUndefined();
    const payload = JSON.parse(first.body);
    expect(Object.keys(payload)).toEqual(['event', 'timestamp', 'model', 'username', 'request_id', 'data', 'snapshots']);
    const [record] = (await app.get(`/api/extras/object-changes/?changed_object_id=${id}`)).body.results;
    expect(payload).toMatchObject({ event: 'created', model: 'region', username: 'admin', request_id: record.request_id });
    expect(payload.timestamp).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
    expect(payload.data).toMatchObject({ id, name: 'Hooked region', url: `/api/dcim/regions/${id}/` });
    expect(payload.snapshots).toEqual({ prechange: null, postchange: payload.data, differences: { removed: null, added: payload.data } });
    // Python's json.dumps separators.
    expect(first.body.startsWith('{"event": "created", "timestamp": ')).toBe(true);

    expect((await app.patch(`/api/dcim/regions/${id}/`, { description: 'after' })).status).toBe(200);
    const [, second] = await received(receiver, hook.path, 2);
    const updated = JSON.parse(second.body);
    expect(updated.event).toBe('updated');
    expect(updated.snapshots.prechange.description).toBe('before');
    expect(updated.snapshots.postchange.description).toBe('after');
    expect(updated.snapshots.differences).toEqual({ removed: { description: 'before' }, added: { description: 'after' } });

    expect((await app.delete(`/api/dcim/regions/${id}/`)).status).toBe(204);
    const [, , third] = await received(receiver, hook.path, 3);
    const deleted = JSON.parse(third.body);
    expect(deleted.event).toBe('deleted');
    expect(deleted.data.description).toBe('after');
    expect(deleted.snapshots.postchange).toBeNull();
    await app.server.webhooks.idle();
    await settle();
    expect(receiver.at(hook.path)).toHaveLength(3);
    await removeWebhook(hook.id);
  });

  test('only the chosen events and models are sent; a bulk create sends one request per object', async () => {
    const hook = await webhook({ type_update: false, type_delete: false });
    const res = await app.post('/api/dcim/regions/', [{ name: 'Bulk hook 1' }, { name: 'Bulk hook 2' }]);
    expect(res.status).toBe(201);
    const got = await received(receiver, hook.path, 2);
    expect(got.map((r) => JSON.parse(r.body).data.name).sort()).toEqual(['Bulk hook 1', 'Bulk hook 2']);
    expect(new Set(got.map((r) => JSON.parse(r.body).request_id)).size).toBe(1);
    expect((await app.patch(`/api/dcim/regions/${res.body[0].id}/`, { description: 'x' })).status).toBe(200);
    await contextFor(app, FACTORIES).make('tenancy.tenantgroup');
    await app.server.webhooks.idle();
    await settle();
    expect(receiver.at(hook.path)).toHaveLength(2);
    await removeWebhook(hook.id);
  });

  test('the signature is the HMAC-SHA512 of the body with the secret; headers and body templates are rendered', async () => {
    const hook = await webhook({
      secret: 'hook-secret',
      http_content_type: 'text/plain',
      additional_headers: 'X-Model: {{ model }}\nX-Url: http://a.example:8080/x\n\nnot a header',
      body_template: '{{ event }} {{ data.name }} by {{ username }}',
    });
    expect((await app.post('/api/dcim/regions/', { name: 'Signed region' })).status).toBe(201);
    const [got] = await received(receiver, hook.path, 1);
    expect(got.body).toBe('created Signed region by admin');
    expect(got.headers['content-type']).toBe('text/plain');
    expect(got.headers['x-model']).toBe('region');
    expect(got.headers['x-url']).toBe('http://a.example:8080/x');
    const expected = createHmac('sha512', 'hook-secret').update(got.body).digest('hex');
    expect(got.headers['x-hook-signature']).toBe(expected);
    expect(createHmac('sha512', 'wrong').update(got.body).digest('hex')).not.toBe(got.headers['x-hook-signature']);
    await removeWebhook(hook.id);
  });

  test('a failing receiver gets the same request again after a pause', async () => {
    const hook = await webhook({ secret: 'retry' });
    receiver.failures = 1;
    expect((await app.post('/api/dcim/regions/', { name: 'Retried region' })).status).toBe(201);
    const [failed, retried] = await received(receiver, hook.path, 2, 10000);
    expect(retried).toBeDefined();
    expect(retried.body).toBe(failed.body);
    expect(retried.headers['x-hook-signature']).toBe(failed.headers['x-hook-signature']);
    await app.server.webhooks.idle();
    await settle();
    expect(receiver.at(hook.path)).toHaveLength(2);
    await removeWebhook(hook.id);
  });

  test('a receiver that never answers well neither slows nor fails the write', async () => {
    const hook = await webhook({ payload_url: 'http://127.0.0.1:9/unreachable' });
    const started = Date.now();
    const res = await app.post('/api/dcim/regions/', { name: 'Unreachable hook region' });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2000);
    await removeWebhook(hook.id);
  });

  test('a rolled-back write sends nothing', async () => {
    const hook = await webhook();
    const res = await app.post('/api/dcim/regions/', [{ name: 'Never region' }, { name: null }]);
    expect(res.status).toBe(400);
    await app.server.webhooks.idle();
    await settle(500);
    expect(receiver.at(hook.path)).toHaveLength(0);
    await removeWebhook(hook.id);
  });
});

describe('slow and malformed deliveries', () => {
  // A deadline short enough for a test, two attempts, one-second retries and a one-second lease.
  let slow: TestApp;
  const trickler = new Trickler();
  beforeAll(async () => {
    await trickler.start();
    slow = await startApp(
      { NETINV_WEBHOOK_TIMEOUT_SECONDS: '5', NETINV_WEBHOOK_RETRY_SECONDS: '1', NETINV_WEBHOOK_MAX_ATTEMPTS: '2', NETINV_WEBHOOK_LEASE_SECONDS: '1' },
      { databaseSuffix: 'slow' },
    );
  });
  afterAll(async () => {
    await slow?.close();
    await trickler.stop();
  });

  test('a receiver that trickles its answer is cut off at the deadline and holds up no other delivery', async () => {
    const trickled = await webhook({ payload_url: trickler.url('/trickle') }, slow);
    expect((await slow.post('/api/dcim/regions/', { name: 'Trickled region' })).status).toBe(201);
    expect(await waitFor(() => trickler.connections.length > 0, 10000)).toBe(true);
    const first = trickler.connections[0];
    // Queued while the trickle holds a delivery: sent while the trickle still goes on.
    const other = await webhook({ content_types: ['tenancy.tenant'] }, slow);
    expect((await slow.post('/api/tenancy/tenants/', { name: 'Meanwhile tenant', slug: 'meanwhile-tenant' })).status).toBe(201);
    const [got] = await received(receiver, other.path, 1, 20000);
    expect(got).toBeDefined();
    expect(JSON.parse(got.body).data.name).toBe('Meanwhile tenant');
    expect(first.closed === null || got.at < first.closed).toBe(true);
    // The trickle is cut off by the client at the deadline and the row records why.
    const timedOut = async () => /timed out/.test(String((await deliveryOf(slow, trickled.id, 'Trickled region'))?.last_error ?? ''));
    expect(await waitFor(timedOut, 20000)).toBe(true);
    expect(await waitFor(() => first.closed !== null, 5000)).toBe(true);
    expect(first.cutOff).toBe(true);
    const row = (await deliveryOf(slow, trickled.id, 'Trickled region'))!;
    expect(row.last_error).toBe('timed out: no complete answer within 5 s');
    expect(['pending', 'sending', 'failed']).toContain(row.state);
    expect(Number(row.attempts)).toBeLessThanOrEqual(2);
    const delivered = await deliveries(slow, other.id);
    expect(delivered.map((r) => r.state)).toEqual(['delivered']);
    await removeWebhook(trickled.id, slow);
    await removeWebhook(other.id, slow);
  });

  test('a header value that is not Latin-1 fails its own delivery with that reason; the others are sent', async () => {
    const named = await webhook({ additional_headers: 'X-Object-Name: {{ data.name }}' }, slow);
    const plain = await webhook({}, slow);
    expect((await slow.post('/api/dcim/regions/', [{ name: '東京' }, { name: 'Zürich' }, { name: 'Osaka' }])).status).toBe(201);
    const plainGot = await received(receiver, plain.path, 3);
    expect(plainGot.map((r) => JSON.parse(r.body).data.name).sort()).toEqual(['Osaka', 'Zürich', '東京']);
    const namedGot = await received(receiver, named.path, 2);
    // Latin-1 is sent as such; only the value it cannot encode is refused.
    expect(namedGot.map((r) => r.headers['x-object-name']).sort()).toEqual(['Osaka', 'Zürich']);
    const failed = async () => (await deliveryOf(slow, named.id, '東京'))?.state === 'failed';
    expect(await waitFor(failed, 10000)).toBe(true);
    let row = (await deliveryOf(slow, named.id, '東京'))!;
    expect(row.last_error).toBe('Header X-Object-Name: value is not valid latin-1');
    const attempts = Number(row.attempts);
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(attempts).toBeLessThanOrEqual(2);
    // Several leases later nothing has taken it again.
    await settle(2500);
    await slow.server.webhooks.idle();
    row = (await deliveryOf(slow, named.id, '東京'))!;
    expect(row.state).toBe('failed');
    expect(Number(row.attempts)).toBe(attempts);
    expect(receiver.at(named.path)).toHaveLength(2);
    expect((await deliveries(slow, plain.id)).map((r) => r.state)).toEqual(['delivered', 'delivered', 'delivered']);
    await removeWebhook(named.id, slow);
    await removeWebhook(plain.id, slow);
  });

  test('a delivery whose sender stopped mid-attempt is sent again only while attempts remain', async () => {
    const url = await freshDatabaseUrl({ persistent: true, suffix: 'lease' });
    const queued = await startApp({ NETINV_WEBHOOK_WORKER: 'false' }, { databaseUrl: url });
    let worker: TestApp | null = null;
    try {
      const hook = await webhook({}, queued);
      expect((await queued.post('/api/dcim/regions/', [{ name: 'Spent region' }, { name: 'Unfinished region' }])).status).toBe(201);
      // As a process that died while sending leaves them: claimed, the lease run out.
      const store = new Store(queued.server.db.reader, queued.server.registry);
      const past = new Date(Date.now() - 60_000);
      const spent = (await deliveryOf(queued, hook.id, 'Spent region'))!;
      const unfinished = (await deliveryOf(queued, hook.id, 'Unfinished region'))!;
      await queued.server.db.transaction((tx) => new Store(tx, queued.server.registry).update(WebhookDelivery, spent.id as string, { state: 'sending', attempts: 2, lease_until: past, last_error: 'HTTP 500' }));
      await queued.server.db.transaction((tx) => new Store(tx, queued.server.registry).update(WebhookDelivery, unfinished.id as string, { state: 'sending', attempts: 1, lease_until: past }));
      expect((await store.find(WebhookDelivery, { webhook: hook.id })).map((r) => r.state)).toEqual(['sending', 'sending']);
      await queued.close();
      worker = await startApp({ NETINV_WEBHOOK_MAX_ATTEMPTS: '2', NETINV_WEBHOOK_LEASE_SECONDS: '1' }, { databaseUrl: url });
      const w = worker;
      expect(await waitFor(async () => (await deliveries(w, hook.id)).every((r) => r.state === 'failed' || r.state === 'delivered'), 10000)).toBe(true);
      await settle(1500);
      await worker.server.webhooks.idle();
      expect(receiver.at(hook.path).map((r) => JSON.parse(r.body).data.name)).toEqual(['Unfinished region']);
      const spentAfter = (await deliveryOf(worker, hook.id, 'Spent region'))!;
      expect(spentAfter).toMatchObject({ state: 'failed', attempts: 2, last_error: 'attempt 2 of 2 never finished: the process sending it stopped' });
      expect(await deliveryOf(worker, hook.id, 'Unfinished region')).toMatchObject({ state: 'delivered', attempts: 2 });
    } finally {
      await queued.close().catch(() => undefined);
      await worker?.close();
    }
  });
});

describe('restart', () => {
  test('a delivery queued while no worker runs is sent once by the next server on the database', async () => {
    const url = await freshDatabaseUrl({ persistent: true, suffix: 'restart' });
    const stopped = await startApp({ NETINV_WEBHOOK_WORKER: 'false' }, { databaseUrl: url });
    let restarted: TestApp | null = null;
    try {
      const hook = await webhook({}, stopped);
      expect((await stopped.post('/api/dcim/regions/', { name: 'Queued region' })).status).toBe(201);
      await settle(500);
      expect(receiver.at(hook.path)).toHaveLength(0);
      await stopped.close();
      restarted = await startApp({}, { databaseUrl: url });
      const got = await received(receiver, hook.path, 1);
      expect(JSON.parse(got[0].body).data.name).toBe('Queued region');
      // A second server on the same database finds nothing left to send.
      const third = await startApp({}, { databaseUrl: url });
      await third.server.webhooks.idle();
      await restarted.server.webhooks.idle();
      await settle(500);
      await third.close();
      expect(receiver.at(hook.path)).toHaveLength(1);
    } finally {
      await stopped.close().catch(() => undefined);
      await restarted?.close();
    }
  });

  // Two SQLite servers in one process block each other's thread while waiting for the file lock,
  // which separate processes never do: the concurrent case runs on PostgreSQL and MySQL.
  (dialectUnderTest() === 'sqlite' ? test.skip : test)('two servers sweeping one queue together send each delivery once, also when sending outlasts the lease', async () => {
    const url = await freshDatabaseUrl({ persistent: true, suffix: 'pair' });
    const stopped = await startApp({ NETINV_WEBHOOK_WORKER: 'false' }, { databaseUrl: url });
    const hook = await webhook({}, stopped);
    const names = [1, 2, 3, 4, 5, 6].map((i) => ({ name: `Paired region ${i}` }));
    expect((await stopped.post('/api/dcim/regions/', names)).status).toBe(201);
    await stopped.close();
    // Both servers are up before either worker starts, so their sweeps overlap.
    // Answers slower than the one-second lease: the lease is renewed while each is sent.
    receiver.delays.set(hook.path, 1500);
    const a = await startApp({ NETINV_WEBHOOK_WORKER: 'false', NETINV_WEBHOOK_LEASE_SECONDS: '1' }, { databaseUrl: url });
    const b = await startApp({ NETINV_WEBHOOK_WORKER: 'false', NETINV_WEBHOOK_LEASE_SECONDS: '1' }, { databaseUrl: url });
    a.server.webhooks.start();
    b.server.webhooks.start();
    try {
      await received(receiver, hook.path, 6);
      await Promise.all([a.server.webhooks.idle(), b.server.webhooks.idle()]);
      await settle(500);
      const got = receiver.at(hook.path).map((r) => JSON.parse(r.body).data.name as string);
      expect(got.sort()).toEqual(names.map((n) => n.name).sort());
    } finally {
      await a.close();
      await b.close();
    }
  });
});
