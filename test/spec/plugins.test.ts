/**
 * Plugins (reference models/plugins.md): enabled by NETINV_PLUGINS, checked at start, mounted
 * under /api/plugins/<base_url>/ with every framework behaviour, listed by /api/plugins/ and
 * /api/plugins/installed-plugins/ (staff only), migrated after the core schema.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadConfig } from '../../app/config';
import { dataSourceFor, migrate, registryWith } from '../../app/database';
import { enabledPlugins } from '../../app/plugins';
import { loadPlugins, PluginError, compareVersions } from '../../framework/plugins';
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { insertRows, selectRows } from '../../framework/store/migration-schema';
import { freshDatabaseUrl } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';

const FIXTURES = './test/fixtures/plugins';
const AS = '/api/plugins/bgp/autonomous-systems/';
const SESSIONS = '/api/plugins/bgp/sessions/';

function load(specs: string[], settings: Record<string, Record<string, unknown>> = {}) {
  return loadPlugins({ specs, cwd: process.cwd(), serverVersion: '0.1.0', reservedLabels: ['dcim', 'extras', 'ipam', 'tenancy', 'users'], settings });
}

describe('the loader fails loudly at start', () => {
  test.each([
    [[`${FIXTURES}/too-new`], /too_new 1\.0\.0 requires netinv 99\.0\.0 or newer; this is 0\.1\.0/],
    [[`${FIXTURES}/too-old`], /too_old 1\.0\.0 supports netinv up to 0\.0\.9; this is 0\.1\.0/],
    [[`${FIXTURES}/needs-settings`], /needs_settings requires PLUGINS_CONFIG\.needs_settings\.api_key to be set/],
    [[`${FIXTURES}/named-dcim`], /name dcim is already used by a core application/],
    [[EXAMPLE_PLUGIN, `${FIXTURES}/same-base-url`], /base_url bgp is already taken/],
    [[EXAMPLE_PLUGIN, EXAMPLE_PLUGIN], /name netinv_bgp is already used by another plugin/],
    [[`${FIXTURES}/not-a-plugin`], /does not export definePlugin/],
    [['./no/such/plugin'], /cannot be loaded/],
    [['netinv-no-such-package'], /plugin netinv-no-such-package: cannot be loaded/],
  ])('%j', (specs, message) => {
    expect(() => load(specs)).toThrow(PluginError);
    expect(() => load(specs)).toThrow(message);
  });

  test('settings: defaults, overridden by PLUGINS_CONFIG', () => {
    const [plugin] = load([`${FIXTURES}/needs-settings`], { needs_settings: { api_key: 'k' } });
    expect(plugin.settings).toEqual({ timeout: 5, api_key: 'k' });
  });

  test('the server refuses to start, naming the plugin', async () => {
    await expect(startApp({ NETINV_PLUGINS: `${FIXTURES}/too-new` })).rejects.toThrow(/too_new/);
  });

  test('versions compare as numbers', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.2.3-rc1', '1.2.3')).toBe(0);
  });

  test('NETINV_PLUGINS and PLUGINS_CONFIG come from the environment and the config file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-config-'));
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ NETINV_PLUGINS: [EXAMPLE_PLUGIN], PLUGINS_CONFIG: { netinv_bgp: { allow_private_asn: false } } }));
    const config = loadConfig({ NETINV_CONFIG: file });
    expect(config.plugins).toEqual([EXAMPLE_PLUGIN]);
    expect(config.pluginsConfig).toEqual({ netinv_bgp: { allow_private_asn: false } });
    expect(loadConfig({ NETINV_CONFIG: file, NETINV_PLUGINS: ' a , b ' }).plugins).toEqual(['a', 'b']);
    fs.writeFileSync(file, JSON.stringify({ PLUGINS_CONFIG: { netinv_bgp: 3 } }));
    expect(() => loadConfig({ NETINV_CONFIG: file })).toThrow(/PLUGINS_CONFIG\.netinv_bgp: expected an object/);
  });
});

test('plugin migrations run after the core ones and produce the declared schema', async () => {
  const plugins = enabledPlugins(loadConfig({ NETINV_PLUGINS: EXAMPLE_PLUGIN }));
  const ds = await dataSourceFor(await freshDatabaseUrl(), registryWith(plugins), false, plugins);
  await ds.initialize();
  try {
    const applied = await migrate(ds, plugins);
    expect(applied.slice(-3).map((name) => name.replace(/\d{13}$/, ''))).toEqual(['InitialBgp', 'AddBgpObjectVersions', 'AutonomousSystemStatus']);
    expect(applied.indexOf('Initial1795431639398')).toBe(0);
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    expect(await migrate(ds, plugins)).toEqual([]);
  } finally {
    await ds.destroy();
  }
});

test('autonomous systems that exist before the status migration become Active', async () => {
  const plugins = enabledPlugins(loadConfig({ NETINV_PLUGINS: EXAMPLE_PLUGIN }));
  const ds = await dataSourceFor(await freshDatabaseUrl(), registryWith(plugins), false, plugins);
  await ds.initialize();
  try {
    await migrate(ds, plugins);
    await ds.undoLastMigration();
    const qr = ds.createQueryRunner();
    try {
      const columns = (await qr.getTable('netinv_bgp_autonomoussystem'))?.columns.map((c) => c.name);
      expect(columns).not.toContain('status_id');
      await insertRows(qr, 'netinv_bgp_autonomoussystem', [
        { id: '6c1b4e0e-2f7a-4c55-9d0e-0d5e3f1a2b3c', created: '2026-01-01', last_updated: '2026-01-01 00:00:00', _custom_field_data: '{}', asn: 3320, description: '', _version: 1 },
      ]);
      const [active] = await selectRows(qr, 'extras_status', ['id', 'content_types'], { slug: 'active' });
      expect(JSON.parse(String(active.content_types))).not.toContain('netinv_bgp.autonomoussystem');
      expect((await migrate(ds, plugins)).map((name) => name.replace(/\d{13}$/, ''))).toEqual(['AutonomousSystemStatus']);
      expect(await selectRows(qr, 'netinv_bgp_autonomoussystem', ['asn', 'status_id', 'provider_id'])).toEqual([{ asn: expect.anything(), status_id: active.id, provider_id: null }]);
      for (const slug of ['active', 'available', 'planned']) {
        const [status] = await selectRows(qr, 'extras_status', ['content_types'], { slug });
        expect(JSON.parse(String(status.content_types))).toContain('netinv_bgp.autonomoussystem');
      }
    } finally {
      await qr.release();
    }
  } finally {
    await ds.destroy();
  }
});

describe('an enabled plugin', () => {
  let app: TestApp;
  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-config-'));
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, JSON.stringify({ PLUGINS_CONFIG: { netinv_bgp: { allow_private_asn: false } } }));
    app = await startApp({ NETINV_PLUGINS: EXAMPLE_PLUGIN, NETINV_CONFIG: file });
  });
  afterAll(async () => {
    await app?.close();
  });

  test('/api/plugins/ lists installed-plugins and the plugin root; the root lists its endpoints', async () => {
    const res = await app.get('/api/plugins/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      'installed-plugins': `${app.baseUrl}/api/plugins/installed-plugins/`,
      bgp: `${app.baseUrl}/api/plugins/bgp/`,
    });
    expect(Object.keys(res.body)[0]).toBe('installed-plugins');
    const root = await app.get('/api/plugins/bgp/');
    expect(root.body).toEqual({ 'autonomous-systems': `${app.baseUrl}${AS}`, sessions: `${app.baseUrl}${SESSIONS}` });
    expect((await app.get('/api/plugins/', null)).status).toBe(403);
    expect((await app.get('/api/')).body.netinv_bgp).toBeUndefined();
  });

  test('/api/plugins/installed-plugins/: staff only, Nautobot keys including "verison"', async () => {
    const res = await app.get('/api/plugins/installed-plugins/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        name: 'BGP',
        package: EXAMPLE_PLUGIN,
        author: 'netinv',
        author_email: 'netinv@example.net',
        description: 'BGP autonomous systems and peer sessions',
        verison: '0.3.0',
        version: '0.3.0',
      },
    ]);
    const userId = await app.createUser('plain-user');
    const token = await app.createToken(userId);
    expect((await app.get('/api/plugins/installed-plugins/', token)).status).toBe(403);
    expect((await app.get('/api/plugins/installed-plugins/', null)).status).toBe(403);
  });

  test('/api/status/ names the plugin and its version', async () => {
    expect((await app.get('/api/status/')).body.plugins).toEqual({ netinv_bgp: '0.3.0' });
  });

  test('models behave as core models: urls, filters, brief, nested writes, tags, versions', async () => {
    const as = await app.post(AS, { asn: 3320, description: 'DTAG' });
    expect(as.status).toBe(201);
    expect(as.body.url).toBe(`${app.baseUrl}${AS}${as.body.id}/`);
    expect(as.body.display).toBe('AS3320');
    expect(as.headers['api-version']).toBe('1.2');
    const tag = await app.post('/api/extras/tags/?api_version=1.3', { name: 'peering', slug: 'peering', content_types: ['netinv_bgp.peersession'] });
    expect(tag.status).toBe(201);
    const session = await app.post(SESSIONS, { name: 'dtag-1', local_as: { asn: 3320 }, status: 'active', tags: [{ slug: 'peering' }] });
    expect(session.status).toBe(201);
    expect(session.body.local_as).toEqual({ id: as.body.id, display: 'AS3320', url: as.body.url, asn: 3320 });
    expect(session.body.status).toEqual({ value: 'active', label: 'Active' });
    expect(session.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['peering']);
    expect((await app.get(`${SESSIONS}?local_as=${as.body.id}&tag=peering`)).body.count).toBe(1);
    expect((await app.get(`${SESSIONS}?local_as_id=${as.body.id}&status__n=active`)).body.count).toBe(0);
    expect((await app.get(`${AS}?asn__gte=3000&q=DTAG`)).body.count).toBe(1);
    expect((await app.get(`${AS}${as.body.id}/?brief=1`)).body).toEqual({ id: as.body.id, display: 'AS3320', url: as.body.url, asn: 3320 });
    expect((await app.get(`${SESSIONS}?colour=red`)).status).toBe(400);
    const protectedDelete = await app.delete(`${AS}${as.body.id}/`);
    expect(protectedDelete.status).toBe(409);
  });

  test("autonomous systems have Nautobot BGP models' provider and status", async () => {
    const provider = await app.post('/api/circuits/providers/', { name: 'Level 3', slug: 'level3' });
    expect(provider.status).toBe(201);
    const planned = await app.post(AS, { asn: 3356, status: 'planned', provider: { slug: 'level3' } });
    expect(planned.status).toBe(201);
    expect(planned.body.status).toEqual({ value: 'planned', label: 'Planned' });
    expect(planned.body.provider).toEqual({ id: provider.body.id, display: 'Level 3', url: `${app.baseUrl}/api/circuits/providers/${provider.body.id}/`, name: 'Level 3', slug: 'level3' });
    // Left out, the status is Active (Nautobot requires it; the plugin's own job leaves it out).
    const plain = await app.post(AS, { asn: 174 });
    expect(plain.status).toBe(201);
    expect(plain.body.status).toEqual({ value: 'active', label: 'Active' });
    expect(plain.body.provider).toBeNull();
    expect((await app.get(`${AS}${plain.body.id}/`)).body.status).toEqual({ value: 'active', label: 'Active' });
    // Only the statuses enabled for autonomous systems.
    const connected = await app.post(AS, { asn: 2914, status: 'connected' });
    expect(connected.status).toBe(400);
    expect(connected.body).toEqual({ status: ['Object with slug=connected does not exist.'] });
    const options = await app.options(AS);
    expect(options.body.actions.POST.status.required).toBe(false);
    expect(options.body.actions.POST.status.choices).toEqual([
      { value: 'active', display: 'Active' },
      { value: 'available', display: 'Available' },
      { value: 'planned', display: 'Planned' },
    ]);
    const changed = await app.patch(`${AS}${plain.body.id}/`, { status: 'available' });
    expect(changed.status).toBe(200);
    expect((await app.get(`${AS}?status=available`)).body.results.map((a: { asn: number }) => a.asn)).toEqual([174]);
    expect((await app.get(`${AS}?provider=level3`)).body.results.map((a: { asn: number }) => a.asn)).toEqual([3356]);
    expect((await app.get(`${AS}?provider_id=${provider.body.id}&status=planned`)).body.count).toBe(1);
    // The provider is protected while an autonomous system names it.
    expect((await app.delete(`/api/circuits/providers/${provider.body.id}/`)).status).toBe(409);
    expect((await app.get(`/api/circuits/providers/${provider.body.id}/`)).status).toBe(200);
  });

  test('extra actions and settings work', async () => {
    const as = await app.post(AS, { asn: 1299 });
    await app.post(SESSIONS, { name: 'arelion-1', local_as: as.body.id });
    const sessions = await app.get(`${AS}${as.body.id}/sessions/`);
    expect(sessions.status).toBe(200);
    expect(sessions.body.map((s: { name: string }) => s.name)).toEqual(['arelion-1']);
    // allow_private_asn is false in this configuration.
    const refused = await app.post(AS, { asn: 64512 });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ asn: ['AS64512 is a private ASN, which this installation does not allow.'] });
  });

  test('OPTIONS and the browsable API work on plugin endpoints', async () => {
    const options = await app.options(SESSIONS);
    expect(options.body.name).toBe('Peer Session');
    expect(options.body.actions.POST.status.choices).toEqual([
      { value: 'active', display: 'Active' },
      { value: 'planned', display: 'Planned' },
      { value: 'disabled', display: 'Disabled' },
    ]);
    const page = await app.raw().get(SESSIONS).set('Authorization', `Token ${app.token}`).set('Accept', 'text/html');
    expect(page.status).toBe(200);
    // The list page's form offers POST, built from the plugin model's fields like any other.
    expect(page.text).toMatch(/<button type="submit" class="primary" value="POST">POST<\/button>/);
    expect(page.text).toContain('name="status"');
  });
});
