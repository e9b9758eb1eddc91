/**
 * Unexpected failures (reference behaviour-http.md §7, "Unhandled exception"): a check or a query
 * that fails is a 500 with Nautobot's body and its cause in the log, never a quiet "no" or an
 * empty answer. The failures are real: data the server reads is broken in this file's own
 * database, as an outside change or a bad upgrade would break it.
 */
import type { FieldMeta } from '../../framework/metadata/model-meta';
import { storedColumns } from '../../framework/store/objects';
import { dialectUnderTest } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ NETINV_LOG_LEVEL: 'error' });
});
afterAll(async () => {
  await app?.close();
});

type Obj = Record<string, any>;
const ok = async (res: { status: number; body: any }, status = 201): Promise<Obj> => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

/** The response to `send`, and the error lines the server logged while answering it. */
async function logged(send: () => PromiseLike<{ status: number; body: any }>): Promise<{ status: number; body: any; errors: Obj[] }> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    const res = await send();
    return { status: res.status, body: res.body, errors: lines.flatMap((l) => l.split('\n')).filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Obj).filter((l) => l.level === 'error') };
  } finally {
    spy.mockRestore();
  }
}

/** Nautobot's 500 body as errors/mapper.ts writes it. */
const serverError = (exception: string) => ({ error: expect.any(String), exception, netinv_version: app.server.config.version });

/** Writes a column of one row directly, past the model's validation. */
async function storeDirectly(label: string, id: string, fieldName: string, value: unknown): Promise<void> {
  const model = app.server.registry.get(label);
  if (!model) throw new Error(`no model ${label}`);
  const field = model.field(fieldName) as FieldMeta;
  const db = app.server.db;
  const q = db.dialect.quote;
  const columns = storedColumns(field, value);
  const names = Object.keys(columns);
  await db.transaction((tx) =>
    tx.run(`UPDATE ${q(model.table)} SET ${names.map((c, i) => `${q(c)} = ${tx.dialect.placeholder(i + 1)}`).join(', ')} WHERE ${q('id')} = ${tx.dialect.placeholder(names.length + 1)}`, [
      ...names.map((c) => columns[c]),
      id,
    ]),
  );
}

describe('the model-level permission check (OPTIONS, browsable forms)', () => {
  test('a constraint that cannot be applied is a 500 with its cause logged, not "no permission"', async () => {
    const userId = await app.createUser('constrained');
    const key = await app.createToken(userId);
    const permission = await ok(
      await app.post('/api/users/permissions/', { name: 'sites in eu', users: [userId], object_types: ['dcim.site'], actions: ['view', 'add'], constraints: { region__slug: 'eu' } }),
    );
    const fine = await app.options('/api/dcim/sites/', key);
    expect(fine.status).toBe(200);
    expect(Object.keys(fine.body.actions)).toEqual(['POST']);

    // Saved constraints are validated; this one names a field that does not exist.
    await storeDirectly('users.objectpermission', permission.id, 'constraints', { no_such_field: 'eu' });
    const list = await logged(() => app.get('/api/dcim/sites/', key));
    expect({ status: list.status, body: list.body }).toEqual({ status: 500, body: serverError('FieldError') });
    const options = await logged(() => app.options('/api/dcim/sites/', key));
    expect({ status: options.status, body: options.body }).toEqual({ status: 500, body: serverError('FieldError') });
    expect(options.errors).toHaveLength(1);
    expect(options.errors[0]).toMatchObject({ msg: 'unhandled error', path: '/api/dcim/sites/', request_id: expect.any(String) });
    expect(options.errors[0].error).toContain('no_such_field');
  });
});

describe('the relationships block', () => {
  let site: Obj;
  beforeAll(async () => {
    site = await ok(await app.post('/api/dcim/sites/', { name: 'Rel site', status: 'active' }));
  });

  test('a side filter that no longer validates (it names a deleted object) admits no object', async () => {
    const tenant = await ok(await app.post('/api/tenancy/tenants/', { name: 'Gone soon' }));
    await ok(await app.post('/api/extras/relationships/', { name: 'Tenant sites', source_type: 'dcim.site', destination_type: 'ipam.vrf', source_filter: { tenant: [tenant.slug] } }));
    await ok(await app.delete(`/api/tenancy/tenants/${tenant.id}/`), 204);
    const res = await logged(() => app.get(`/api/dcim/sites/${site.id}/?include=relationships`));
    expect(res.status).toBe(200);
    expect(res.body.relationships).toEqual({});
    expect(res.errors).toEqual([]);
  });

  test('a side filter whose query fails is a 500 with its cause logged, not an empty block', async () => {
    const group = await ok(await app.post('/api/tenancy/tenant-groups/', { name: 'Customers' }));
    await ok(await app.post('/api/extras/relationships/', { name: 'Customer sites', source_type: 'dcim.site', destination_type: 'ipam.vrf', source_filter: { tenant_group: [group.slug] } }));
    // Only the side filter reads the tenant groups' table: without it, its query fails.
    const groups = (app.server.registry.get('tenancy.tenantgroup') as { table: string }).table;
    const q = app.server.db.dialect.quote;
    await app.server.db.transaction(async (tx) => {
      const dialect = dialectUnderTest();
      if (dialect === 'mysql') await tx.run('SET FOREIGN_KEY_CHECKS = 0');
      await tx.run(`DROP TABLE ${q(groups)}${dialect === 'postgres' ? ' CASCADE' : ''}`);
      if (dialect === 'mysql') await tx.run('SET FOREIGN_KEY_CHECKS = 1');
    });
    expect((await app.get(`/api/dcim/sites/${site.id}/`)).status).toBe(200);
    const res = await logged(() => app.get(`/api/dcim/sites/${site.id}/?include=relationships`));
    expect(res.status).toBe(500);
    // The client learns the request id, not the schema; the log has the cause under that id.
    expect(res.body).toEqual({ error: expect.stringMatching(/^Internal server error \(request [0-9a-f-]{36}\); the cause is in the server log\.$/), exception: expect.any(String), netinv_version: app.server.config.version });
    expect(JSON.stringify(res.body)).not.toContain(groups);
    expect(res.errors).toHaveLength(1);
    expect(res.errors[0]).toMatchObject({ msg: 'unhandled error', request_id: expect.any(String) });
    expect(res.body.error).toContain(res.errors[0].request_id);
    expect(res.errors[0].error).toContain(groups);
  });
});
