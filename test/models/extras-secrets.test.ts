/**
 * Secrets, secrets groups and their associations: provider parameters checked on write with
 * Nautobot's messages, the check action for both core providers, a value that no response ever
 * carries (list, detail, brief, change log, webhook payload, GraphQL), association choices and
 * uniqueness, reading a value from code, and a provider added by a plugin.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SecretParametersError, SecretValueNotFoundError, Store } from '../../framework';
import { groupSecret, readSecret } from '../../models/extras';
import { WebhookDelivery } from '../../models/extras/webhook';
import { appForThisFile, startApp, type TestApp } from '../helpers/harness';
import { VAULT } from '../fixtures/plugins/vault-secrets';

const app = appForThisFile({ NETINV_WEBHOOK_WORKER: 'false' });

type Obj = Record<string, any>;
let seq = 0;
const SECRETS = '/api/extras/secrets/';
const GROUPS = '/api/extras/secrets-groups/';
const ASSOCIATIONS = '/api/extras/secrets-groups-associations/';
const VALUE = 'hunter2-Zq7xV9-never-shown';

async function made(p: string, body: Obj, on: TestApp = app): Promise<Obj> {
  const res = await on.post(p, body);
  if (res.status !== 201) throw new Error(`POST ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-secrets-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('provider parameters on write', () => {
  test('an unknown provider is refused', async () => {
    const res = await app.post(SECRETS, { name: `Bogus ${++seq}`, provider: 'bogus', parameters: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ provider: ['No registered provider "bogus" is available'] });
  });

  test('text-file needs an absolute path without ".."', async () => {
    for (const parameters of [{}, { path: 'relative/file' }]) {
      const res = await app.post(SECRETS, { name: `File ${++seq}`, provider: 'text-file', parameters });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ __all__: ['Path must be an absolute path, not a relative one'] });
    }
    const dotted = await app.post(SECRETS, { name: `File ${++seq}`, provider: 'text-file', parameters: { path: '/etc/../etc/passwd' } });
    expect(dotted.status).toBe(400);
    expect(dotted.body).toEqual({ __all__: ['Illegal character sequence in path'] });
    const ok = await made(SECRETS, { name: `File ${++seq}`, provider: 'text-file', parameters: { path: '/run/secrets/x' } });
    expect(ok).toMatchObject({ provider: 'text-file', parameters: { path: '/run/secrets/x' }, description: '' });
    // An update is checked too.
    const patched = await app.patch(`${SECRETS}${ok.id}/`, { parameters: { path: 'x' } });
    expect(patched.status).toBe(400);
    expect(patched.body).toEqual({ __all__: ['Path must be an absolute path, not a relative one'] });
  });

  test('environment-variable: accepted without "variable", as in Nautobot 1.6; check then says why', async () => {
    const secret = await made(SECRETS, { name: `Env ${++seq}`, provider: 'environment-variable' });
    expect(secret.parameters).toEqual({});
    expect(secret.slug).toBe(`env-${seq}`);
    const check = await app.get(`${SECRETS}${secret.id}/check/`);
    expect(check.body).toEqual({
      result: false,
      message: `SecretParametersError: Secret "Env ${seq}" (provider "EnvironmentVariableSecretsProvider"): The "variable" parameter is mandatory!`,
    });
  });
});

describe('the check action', () => {
  test('environment-variable: true when the variable is set, false with Nautobot\'s message when not', async () => {
    const variable = `NETINV_TEST_SECRET_${++seq}`;
    const secret = await made(SECRETS, { name: `db-pass-${seq}`, provider: 'environment-variable', parameters: { variable } });
    delete process.env[variable];
    const unset = await app.get(`${SECRETS}${secret.id}/check/`);
    expect(unset.status).toBe(200);
    expect(unset.body).toEqual({
      result: false,
      message: `SecretValueNotFoundError: Secret "db-pass-${seq}" (provider "EnvironmentVariableSecretsProvider"): Undefined environment variable "${variable}"!`,
    });
    process.env[variable] = VALUE;
    try {
      const set = await app.get(`${SECRETS}${secret.id}/check/`);
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ result: true, message: 'Passed' });
      expect(JSON.stringify(set.body)).not.toContain(VALUE);
    } finally {
      delete process.env[variable];
    }
  });

  test('text-file: true for a readable file, false for a missing one', async () => {
    const file = path.join(tmp, `present-${++seq}`);
    fs.writeFileSync(file, `  ${VALUE}\n`);
    const present = await made(SECRETS, { name: `file-${seq}`, provider: 'text-file', parameters: { path: file } });
    expect((await app.get(`${SECRETS}${present.id}/check/`)).body).toEqual({ result: true, message: 'Passed' });
    const gone = path.join(tmp, `missing-${seq}`);
    const missing = await made(SECRETS, { name: `missing-${seq}`, provider: 'text-file', parameters: { path: gone } });
    expect((await app.get(`${SECRETS}${missing.id}/check/`)).body).toEqual({
      result: false,
      message: `SecretValueNotFoundError: Secret "missing-${seq}" (provider "TextFileSecretsProvider"): File "${gone}" not found!`,
    });
  });

  test('needs view permission on secrets and an existing secret', async () => {
    const secret = await made(SECRETS, { name: `perm-${++seq}`, provider: 'environment-variable', parameters: { variable: 'HOME' } });
    const userId = await app.createUser(`secret-viewer-${seq}`);
    const token = await app.createToken(userId);
    expect((await app.get(`${SECRETS}${secret.id}/check/`, token)).status).toBe(403);
    expect((await app.get(`${SECRETS}00000000-0000-4000-8000-000000000000/check/`)).status).toBe(404);
  });
});

describe('a secret\'s value is never returned', () => {
  test('list, detail, brief, change log, webhook payload and GraphQL carry no value', async () => {
    const variable = `NETINV_TEST_SECRET_${++seq}`;
    process.env[variable] = VALUE;
    const file = path.join(tmp, `shown-${seq}`);
    fs.writeFileSync(file, VALUE);
    try {
      await made('/api/extras/webhooks/', { name: `Secrets hook ${seq}`, content_types: ['extras.secret'], type_create: true, type_update: true, payload_url: 'http://127.0.0.1:9/secrets' });
      const env = await made(SECRETS, { name: `shown-env-${seq}`, provider: 'environment-variable', parameters: { variable } });
      const txt = await made(SECRETS, { name: `shown-file-${seq}`, provider: 'text-file', parameters: { path: file } });
      // The model has no value field: these keys and no other.
      expect(Object.keys(env).sort()).toEqual([
        'computed_fields', 'created', 'custom_fields', 'description', 'display', 'id', 'last_updated', 'name', 'notes_url', 'parameters', 'provider', 'relationships', 'slug', 'tags', 'url',
      ]);
      await app.patch(`${SECRETS}${env.id}/`, { description: 'touched' });
      const answers: unknown[] = [env, txt];
      for (const id of [env.id, txt.id]) {
        answers.push((await app.get(`${SECRETS}${id}/`)).body);
        answers.push((await app.get(`${SECRETS}${id}/?brief=1&include=computed_fields,relationships`)).body);
        expect((await app.get(`${SECRETS}${id}/check/`)).body.result).toBe(true);
        const changes = await app.get(`/api/extras/object-changes/?changed_object_id=${id}`);
        expect(changes.body.count).toBeGreaterThan(0);
        answers.push(changes.body);
      }
      const list = await app.get(`${SECRETS}?limit=0`);
      expect(list.body.results.map((s: Obj) => s.id)).toEqual(expect.arrayContaining([env.id, txt.id]));
      answers.push(list.body, (await app.get(`${SECRETS}?brief=1&limit=0`)).body);
      const graphql = await app.post('/api/graphql/', { query: '{ secrets { id name slug provider parameters } secrets_groups { id name } }' });
      expect(JSON.stringify(graphql.body)).toContain(env.id);
      answers.push(graphql.body);
      const deliveries = await new Store(app.server.db.reader, app.server.registry).find(WebhookDelivery, {});
      const payloads = deliveries.map((d) => String(d.body)).filter((b) => b.includes(env.id) || b.includes(txt.id));
      expect(payloads.length).toBeGreaterThanOrEqual(3);
      answers.push(payloads);
      const text = JSON.stringify(answers);
      expect(text).toContain(variable);
      expect(text).not.toContain(VALUE);
    } finally {
      delete process.env[variable];
    }
  });
});

describe('groups and associations', () => {
  test('choices are case-sensitive plain strings; (group, access type, secret type) is unique', async () => {
    const group = await made(GROUPS, { name: `Group ${++seq}` });
    const secret = await made(SECRETS, { name: `member-${seq}`, provider: 'environment-variable', parameters: { variable: 'X' } });
    const wrongAccess = await app.post(ASSOCIATIONS, { group: group.id, secret: secret.id, access_type: 'ssh', secret_type: 'password' });
    expect(wrongAccess.status).toBe(400);
    // Nautobot's message first, then netinv's list of the valid values.
    expect(wrongAccess.body.access_type[0]).toBe('"ssh" is not a valid choice.');
    expect(Object.keys(wrongAccess.body)).toEqual(['access_type']);
    const wrongType = await app.post(ASSOCIATIONS, { group: group.id, secret: secret.id, access_type: 'SSH', secret_type: 'Password' });
    expect(wrongType.body.secret_type).toEqual(['"Password" is not a valid choice.', 'Valid choices are: key, password, secret, token, username.']);
    const assoc = await made(ASSOCIATIONS, { group: group.id, secret: secret.id, access_type: 'HTTP(S)', secret_type: 'token' });
    expect(Object.keys(assoc)).toEqual(['id', 'display', 'url', 'group', 'access_type', 'secret_type', 'secret']);
    expect(assoc).toMatchObject({ access_type: 'HTTP(S)', secret_type: 'token', display: `Group ${seq}: HTTP(S) token: member-${seq}` });
    expect(Object.keys(assoc.secret)).toEqual(['id', 'display', 'url', 'name', 'slug']);
    const duplicate = await app.post(ASSOCIATIONS, { group: group.id, secret: secret.id, access_type: 'HTTP(S)', secret_type: 'token' });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ non_field_errors: ['The fields group, access_type, secret_type must make a unique set.'] });
    await made(ASSOCIATIONS, { group: group.id, secret: secret.id, access_type: 'HTTP(S)', secret_type: 'username' });

    const detail = (await app.get(`${GROUPS}${group.id}/`)).body;
    expect(detail.secrets.map((s: Obj) => [s.access_type, s.secret_type])).toEqual([['HTTP(S)', 'token'], ['HTTP(S)', 'username']]);
    expect(Object.keys(detail.secrets[0])).toEqual(['id', 'display', 'url', 'access_type', 'secret_type', 'secret']);
    // Read-only: a write of `secrets` changes nothing.
    await app.patch(`${GROUPS}${group.id}/`, { secrets: [] });
    expect((await app.get(`${GROUPS}${group.id}/`)).body.secrets).toHaveLength(2);
    expect((await app.get(`${ASSOCIATIONS}?group=${group.slug}&secret_type=token`)).body.count).toBe(1);
    expect((await app.get(`${ASSOCIATIONS}?group_id=${group.id}&access_type__n=HTTP(S)`)).body.count).toBe(0);
    // Deleting the secret deletes its associations.
    expect((await app.delete(`${SECRETS}${secret.id}/`)).status).toBe(204);
    expect((await app.get(`${ASSOCIATIONS}?group_id=${group.id}`)).body.count).toBe(0);
  });
});

describe('reading a value from code', () => {
  test('readSecret and groupSecret return the value; a missing one raises the typed error', async () => {
    const variable = `NETINV_TEST_SECRET_${++seq}`;
    const file = path.join(tmp, `code-${seq}`);
    fs.writeFileSync(file, `${VALUE}-file\n`);
    const group = await made(GROUPS, { name: `Code group ${seq}` });
    const env = await made(SECRETS, { name: `code-env-${seq}`, provider: 'environment-variable', parameters: { variable } });
    const txt = await made(SECRETS, { name: `code-file-${seq}`, provider: 'text-file', parameters: { path: file } });
    // Parameters may be templates rendered with the object the secret is used for.
    const templated = await made(SECRETS, { name: `code-tpl-${seq}`, provider: 'environment-variable', parameters: { variable: 'NETINV_TEST_{{ obj.name | upper }}' } });
    await made(ASSOCIATIONS, { group: group.id, secret: env.id, access_type: 'SSH', secret_type: 'password' });
    await made(ASSOCIATIONS, { group: group.id, secret: txt.id, access_type: 'SSH', secret_type: 'key' });
    const store = new Store(app.server.db.reader, app.server.registry);
    await expect(groupSecret(store, group.id, 'SSH', 'password')).rejects.toBeInstanceOf(SecretValueNotFoundError);
    process.env[variable] = VALUE;
    process.env[`NETINV_TEST_ROUTER${seq}`] = 'templated';
    try {
      expect(await groupSecret(store, group.id, 'SSH', 'password')).toBe(VALUE);
      expect(await groupSecret(store, group.id, 'SSH', 'key')).toBe(`${VALUE}-file`);
      expect(await readSecret(store, templated.id, { obj: { name: `router${seq}` } })).toBe('templated');
      await expect(groupSecret(store, group.id, 'SNMP', 'password')).rejects.toBeInstanceOf(SecretParametersError);
      fs.rmSync(file);
      const err = await groupSecret(store, group.id, 'SSH', 'key').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SecretValueNotFoundError);
      expect(String(err)).toBe(`SecretValueNotFoundError: Secret "code-file-${seq}" (provider "TextFileSecretsProvider"): File "${file}" not found!`);
    } finally {
      delete process.env[variable];
      delete process.env[`NETINV_TEST_ROUTER${seq}`];
    }
  });
});

describe('a provider added by a plugin', () => {
  let withPlugin: TestApp;
  beforeAll(async () => {
    withPlugin = await startApp({ NETINV_PLUGINS: './test/fixtures/plugins/vault-secrets' }, { databaseSuffix: 'vault' });
  });
  afterAll(async () => {
    await withPlugin?.close();
  });

  test('is accepted, validated by the plugin and read by check; unknown to a server without it', async () => {
    const missing = await withPlugin.post(SECRETS, { name: 'vault-1', provider: 'test-vault', parameters: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ parameters: ['The "key" parameter is mandatory!'] });
    const secret = await made(SECRETS, { name: 'vault-1', provider: 'test-vault', parameters: { key: 'db' } }, withPlugin);
    expect((await withPlugin.get(`${SECRETS}${secret.id}/check/`)).body).toEqual({
      result: false,
      message: 'SecretValueNotFoundError: Secret "vault-1" (provider "TestVaultSecretsProvider"): No key "db" in the vault',
    });
    VAULT.set('db', VALUE);
    expect((await withPlugin.get(`${SECRETS}${secret.id}/check/`)).body).toEqual({ result: true, message: 'Passed' });
    expect(await readSecret(new Store(withPlugin.server.db.reader, withPlugin.server.registry), secret.id)).toBe(VALUE);
    expect((await app.post(SECRETS, { name: 'vault-elsewhere', provider: 'test-vault', parameters: { key: 'db' } })).body).toEqual({
      provider: ['No registered provider "test-vault" is available'],
    });
  });
});
