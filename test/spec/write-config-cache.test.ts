/**
 * Writes read the configuration they apply (custom field definitions, relationships, webhooks,
 * job hooks) through the configuration cache, and still see a change of it at once: the write
 * after a change in this process applies the new configuration.
 */
import { Store } from '../../framework';
import { WebhookDelivery } from '../../models/extras/webhook';
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ NETINV_COUNT_QUERIES: 'true' });
});
afterAll(async () => {
  await app?.close();
});

const statements = (res: { headers: Record<string, string> }) => Number(res.headers['x-query-count']);

async function createTenant(name: string) {
  const res = await app.post('/api/tenancy/tenants/', { name, slug: name });
  expect(res.status).toBe(201);
  return res;
}

test('a write with the configuration cached runs fewer statements than the one that loaded it', async () => {
  const first = await createTenant('cache-1');
  const second = await createTenant('cache-2');
  const third = await createTenant('cache-3');
  expect(statements(second)).toBeLessThan(statements(first));
  expect(statements(third)).toBe(statements(second));
});

test('a custom field, webhook or relationship created just before a write applies to it', async () => {
  await createTenant('cache-warm');
  const field = await app.post('/api/extras/custom-fields/', { name: 'cache_level', type: 'integer', content_types: ['tenancy.tenant'], default: 7 });
  expect(field.status).toBe(201);
  const withField = await createTenant('cache-field');
  expect(withField.body.custom_fields).toEqual({ cache_level: 7 });

  const hook = await app.post('/api/extras/webhooks/', { name: 'Cache hook', content_types: ['tenancy.tenant'], type_create: true, payload_url: 'http://127.0.0.1:9/hook' });
  expect(hook.status).toBe(201);
  const hooked = await createTenant('cache-hooked');
  const queued = await new Store(app.server.db.reader, app.server.registry).find(WebhookDelivery, { webhook: hook.body.id });
  expect(queued.map((d) => (JSON.parse(String(d.body)) as { data: { name: string } }).data.name)).toEqual([hooked.body.name]);

  expect((await app.delete(`/api/extras/custom-fields/${field.body.id}/`)).status).toBe(204);
  expect((await app.delete(`/api/extras/webhooks/${hook.body.id}/`)).status).toBe(204);
  const plain = await createTenant('cache-plain');
  expect(plain.body.custom_fields).toEqual({});
  const rel = await app.post('/api/extras/relationships/', {
    name: 'Cache peer',
    slug: 'cache-peer',
    type: 'one-to-one',
    source_type: 'tenancy.tenant',
    destination_type: 'tenancy.tenant',
    required_on: 'source',
  });
  expect(rel.status).toBe(201);
  // The relationship is now required on tenants: a tenant without its peer is refused at once.
  const refused = await app.post('/api/tenancy/tenants/', { name: 'cache-lonely', slug: 'cache-lonely' });
  expect(refused.status).toBe(400);
  expect((await app.get('/api/tenancy/tenants/?name=cache-lonely')).body.count).toBe(0);
});
