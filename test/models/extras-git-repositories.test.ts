/**
 * Git repositories (reference models/extras.md "Git repository", behaviour-jobs.md §6): the
 * model's rules, the sync action's permissions, messages and 503, and syncs run by the job worker
 * from local repositories (file:// URLs, so offline) that load config context schemas, config
 * contexts (flat, per assignment and local), export templates, refresh and delete them as the
 * files change, leave everything as it was when the repository is broken, and remove what a
 * deleted repository provided. Credentials come from a secrets group over HTTP.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { acceptedRemoteUrl } from '../../models/extras/git-settings';
import { FACTORIES } from '../factories/all';
import { contextFor } from '../factories';
import { freshDatabaseUrl } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

type Obj = Record<string, any>;

const REPOS = '/api/extras/git-repositories/';
const CC = '/api/extras/config-contexts/';
const SCHEMAS = '/api/extras/config-context-schemas/';
const TEMPLATES = '/api/extras/export-templates/';
const RESULTS = '/api/extras/job-results/';
const ALL = ['extras.configcontext', 'extras.configcontextschema', 'extras.exporttemplate', 'extras.job'];

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-git-'));
const gitRoot = path.join(tmp, 'copies');
let app: TestApp;
let seq = 0;

beforeAll(async () => {
  app = await startApp({ NETINV_GIT_ALLOW_LOCAL: 'true', NETINV_GIT_ROOT: gitRoot, NETINV_GIT_TIMEOUT_SECONDS: '30', NETINV_LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// -- A Git repository on disk ------------------------------------------------------------------

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.net', '-c', 'init.defaultBranch=main', '-C', dir, ...args], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
}

/** A working repository: files written (null deletes), committed; answers the commit. */
class Source {
  readonly dir: string;
  constructor(name: string) {
    this.dir = path.join(tmp, name);
    fs.mkdirSync(this.dir, { recursive: true });
    git(this.dir, 'init', '--quiet');
  }
  get url(): string {
    return `file://${this.dir}`;
  }
  commit(files: Record<string, string | object | null>, message = 'change'): string {
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(this.dir, name);
      if (content === null) fs.rmSync(file, { force: true });
      else {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      }
    }
    git(this.dir, 'add', '--all');
    git(this.dir, 'commit', '--quiet', '--allow-empty', '-m', message);
    return git(this.dir, 'rev-parse', 'HEAD').trim();
  }
}

// -- The API -----------------------------------------------------------------------------------

async function made(p: string, body: Obj, on: TestApp = app): Promise<Obj> {
  const res = await on.post(p, body);
  if (res.status !== 201) throw new Error(`POST ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function list(p: string, query = ''): Promise<Obj[]> {
  const res = await app.get(`${p}?limit=0&${query}`);
  expect(res.status).toBe(200);
  return res.body.results;
}

const TERMINAL = ['completed', 'failed', 'errored'];

/** The results of a repository's syncs, newest first. */
async function resultsOf(name: string, on: TestApp = app): Promise<Obj[]> {
  const res = await on.get(`${RESULTS}?limit=0&name=${encodeURIComponent(name)}`);
  expect(res.status).toBe(200);
  return res.body.results;
}

/** Waits until every run of the repository ended; answers the newest result and its log. */
async function settled(name: string, count: number, on: TestApp = app): Promise<{ result: Obj; log: Obj[] }> {
  const results = await waitFor(async () => {
    const all = await resultsOf(name, on);
    return all.length >= count && all.every((r) => TERMINAL.includes(r.status.value)) ? all : null;
  }, 60_000);
  const result = results[0];
  const log = await on.get(`${RESULTS}${result.id}/logs/`);
  expect(log.status).toBe(200);
  return { result, log: log.body };
}

/** POST sync/ and wait for that run; answers its result and log. */
async function sync(repo: Obj, on: TestApp = app): Promise<{ result: Obj; log: Obj[] }> {
  const before = (await resultsOf(repo.name, on)).length;
  const res = await on.post(`${REPOS}${repo.id}/sync/`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ message: `Repository ${repo.name} sync job added to queue.` });
  return settled(repo.name, before + 1, on);
}

/** Creates a repository (which queues its first sync) and waits for that sync. */
async function repository(source: Source, body: Obj = {}): Promise<{ repo: Obj; result: Obj; log: Obj[] }> {
  const name = `Repository ${++seq}`;
  const repo = await made(REPOS, { name, remote_url: source.url, provided_contents: ALL, ...body });
  return { repo, ...(await settled(name, 1)) };
}

const messages = (log: Obj[]) => log.map((l) => l.message as string);
const failures = (log: Obj[]) => log.filter((l) => l.log_level === 'failure').map((l) => l.message as string);

// -- Objects the files refer to -----------------------------------------------------------------

let world: { region: Obj; site: Obj; device: Obj; vm: Obj; tag: Obj };

beforeAll(async () => {
  const ctx = contextFor(app, FACTORIES);
  const region = await made('/api/dcim/regions/', { name: 'Europe', slug: 'eu' });
  const site = await made('/api/dcim/sites/', { name: 'AMS01', slug: 'ams01', status: 'active', region: region.id });
  const deviceId = await ctx.make('dcim.device', { name: 'router1', site: site.id, local_context_data: null });
  const vmId = await ctx.make('virtualization.virtualmachine', { name: 'vm1' });
  const tag = await made('/api/extras/tags/', { name: 'Edge', slug: 'edge' });
  world = { region, site, device: (await app.get(`/api/dcim/devices/${deviceId}/`)).body, vm: (await app.get(`/api/virtualization/virtual-machines/${vmId}/`)).body, tag };
});

const SCHEMA_FILE = {
  _metadata: { name: 'NTP schema', description: 'NTP servers' },
  data_schema: { type: 'object', properties: { ntp: { type: 'object' } } },
};

const CONTEXT_YAML = `_metadata:
  name: NTP
  weight: 100
  description: NTP servers of Europe
  schema: NTP schema
  regions:
    - slug: eu
  tags:
    - slug: edge
ntp:
  servers:
    - 10.0.0.1
    - 10.0.0.2
`;

const TEMPLATE = '{% for s in queryset %}{{ s.name }},{{ s.slug }}\n{% endfor %}';

function fullLayout(): Record<string, string | object> {
  return {
    'config_context_schemas/ntp.json': SCHEMA_FILE,
    'config_contexts/ntp.yaml': CONTEXT_YAML,
    'config_contexts/list.json': [
      { _metadata: { name: 'Syslog', is_active: false }, syslog: { server: '10.1.1.1' } },
      { _metadata: { name: 'SNMP' }, snmp: { community: 'public' } },
    ],
    'config_contexts/sites/ams01.json': { _metadata: { name: 'AMS01 DNS' }, dns: ['10.2.2.2'] },
    'config_contexts/devices/router1.json': { role: 'edge router' },
    'config_contexts/virtual_machines/vm1.yaml': 'backup: true\n',
    'export_templates/dcim/site/sites.csv': TEMPLATE,
    'jobs/my_job.py': 'print("never run")\n',
  };
}

// -- The model ---------------------------------------------------------------------------------

describe('the repository record', () => {
  test('fields, defaults, write-only token, provided contents sorted once, display and brief form', async () => {
    const name = `Record ${++seq}`;
    const repo = await made(REPOS, { name, remote_url: 'http://127.0.0.1:9/netinv/config.git', token: 's3cr3t-t0ken', provided_contents: ['extras.job', 'extras.configcontext', 'extras.job'] });
    expect(repo).toMatchObject({
      display: name,
      name,
      slug: `record-${seq}`,
      remote_url: 'http://127.0.0.1:9/netinv/config.git',
      branch: 'main',
      username: '',
      secrets_group: null,
      current_head: '',
      provided_contents: ['extras.configcontext', 'extras.job'],
      custom_fields: {},
    });
    expect(repo).not.toHaveProperty('token');
    expect(repo).not.toHaveProperty('tags');
    expect(Object.keys(repo)).toEqual(
      expect.arrayContaining(['id', 'display', 'url', 'name', 'slug', 'remote_url', 'branch', 'username', 'secrets_group', 'current_head', 'provided_contents', 'created', 'last_updated', 'notes_url', 'custom_fields']),
    );
    const brief = await app.get(`${REPOS}${repo.id}/?brief=1`);
    expect(Object.keys(brief.body)).toEqual(['id', 'display', 'url', 'name']);
    // The token stays out of the change record too.
    const changes = await app.get(`/api/extras/object-changes/?changed_object_id=${repo.id}`);
    expect(JSON.stringify(changes.body)).not.toContain('s3cr3t-t0ken');
    expect(changes.body.results[0].object_data).not.toHaveProperty('token');
    // The slug gets a suffix when taken.
    const second = await made(REPOS, { name: `record ${seq}`, remote_url: 'http://127.0.0.1:9/other.git' });
    expect(second.slug).toBe(`record-${seq}-2`);
  });

  test("Nautobot's validation: URL, choices, overlapping contents on one URL", async () => {
    const base = { name: `Invalid ${++seq}`, remote_url: 'https://git.example.com/a.git' };
    for (const remote_url of ['ftp://git.example.com/a.git', 'https://intranet/a.git', 'git@github.com:a/b.git', 'not a url']) {
      const res = await app.post(REPOS, { ...base, remote_url });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ remote_url: ['Enter a valid URL.'] });
    }
    let res = await app.post(REPOS, { ...base, provided_contents: ['extras.configcontext', 'bogus'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ provided_contents: ['"bogus" is not a valid choice.'] });
    res = await app.post(REPOS, { ...base, provided_contents: 'extras.job' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ provided_contents: ['Expected a list of items but got type "str".'] });
    res = await app.post(REPOS, { ...base, provided_contents: null });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ provided_contents: ['This field may not be null.'] });
    const url = `http://127.0.0.1:9/shared-${seq}.git`;
    await made(REPOS, { name: `Shared A ${seq}`, remote_url: url, provided_contents: ['extras.configcontext', 'extras.job'] });
    res = await app.post(REPOS, { name: `Shared B ${seq}`, remote_url: url, provided_contents: ['extras.job'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ __all__: [`Another Git repository already configured for remote URL ${url} provides contents overlapping with this repository.`] });
    await made(REPOS, { name: `Shared C ${seq}`, remote_url: url, provided_contents: ['extras.exporttemplate'] });
  });

  test('remote URLs as Django validates them; file URLs and paths only where the setting allows', () => {
    for (const ok of ['https://github.com/a/b.git', 'http://localhost:3000/x', 'http://10.0.0.1/r.git', 'https://[2001:db8::1]:8443/r', 'https://user:pw@git.example.com/r.git']) {
      expect(acceptedRemoteUrl(ok, false)).toBe(true);
    }
    for (const bad of ['https://intranet/r.git', 'https://git.example.com:99999/r', 'ssh://git.example.com/r.git', 'file:///srv/r.git', '/srv/r.git', 'https://bad host.com/']) {
      expect(acceptedRemoteUrl(bad, false)).toBe(false);
    }
    expect(acceptedRemoteUrl('file:///srv/r.git', true)).toBe(true);
    expect(acceptedRemoteUrl('/srv/r.git', true)).toBe(true);
    expect(acceptedRemoteUrl('srv/r.git', true)).toBe(false);
  });

  test('filters: name, remote_url, branch, provided_contents, secrets_group, tag, q', async () => {
    const group = await made('/api/extras/secrets-groups/', { name: `Filter group ${++seq}` });
    const repo = await made(REPOS, { name: `Filtered ${seq}`, remote_url: `http://127.0.0.1:9/filtered-${seq}.git`, branch: `release-${seq}`, secrets_group: group.id, provided_contents: ['extras.exporttemplate'] });
    const ids = async (query: string) => (await list(REPOS, query)).map((r) => r.id);
    expect(await ids(`branch=release-${seq}`)).toEqual([repo.id]);
    expect(await ids(`remote_url__ic=filtered-${seq}`)).toEqual([repo.id]);
    expect(await ids(`secrets_group=${group.slug}`)).toEqual([repo.id]);
    expect(await ids(`secrets_group_id=${group.id}`)).toEqual([repo.id]);
    expect(await ids(`q=filtered-${seq}`)).toEqual([repo.id]);
    expect(await ids(`provided_contents=exporttemplate&name=Filtered ${seq}`)).toEqual([repo.id]);
    expect(await ids(`provided_contents=extras.job&name=Filtered ${seq}`)).toEqual([]);
    expect((await app.get(`${REPOS}?tag=nosuchtag`)).status).toBe(400);
    expect((await app.get(`${REPOS}?tag=edge&name=Filtered ${seq}`)).body.count).toBe(0);
  });
});

// -- Syncing -----------------------------------------------------------------------------------

describe('a sync loads what the repository provides', () => {
  const source = new Source('config');
  let repo: Obj;
  let head: string;

  beforeAll(async () => {
    head = source.commit(fullLayout(), 'first');
  });

  test('creating the repository queues a sync: schemas, contexts, local contexts and templates load, owned by it', async () => {
    const created = await repository(source);
    repo = created.repo;
    expect(created.result).toMatchObject({ name: repo.name, obj_type: 'extras.gitrepository', job_model: null, status: { value: 'completed' }, user: expect.objectContaining({ username: 'admin' }) });
    expect(failures(created.log)).toEqual([]);
    expect(messages(created.log)).toEqual(
      expect.arrayContaining([
        `Creating/refreshing local copy of Git repository "${repo.name}"...`,
        'Repository successfully refreshed',
        `The current Git repository hash is "${head}"`,
        `Refreshing data provided by ${repo.name}...`,
        'Refreshing config context schemas...',
        'Loading config context schema from `ntp.json`',
        'Successfully created config context schema',
        'Refreshing config contexts...',
        'Loading config context from `ntp.yaml`',
        'Successfully created config context',
        'Loading config context, filter `sites = [slug: "ams01"]`, from `sites/ams01.json`',
        'Loading local config context for `router1` from `devices/router1.json`',
        'Successfully updated local config context',
        'Refreshing jobs...',
        'netinv does not load jobs from Git repositories: the `jobs/` directory is ignored.',
        'Refreshing export templates...',
        'Loading `dcim.site` export template from `sites.csv`',
        'Successfully created export template',
        `Data refresh from ${repo.name} complete!`,
      ]),
    );
    expect(created.log.find((l) => l.message === 'Successfully created config context' && l.log_object === `[${repo.name}] NTP`)).toMatchObject({ grouping: 'config contexts', log_level: 'success' });
    expect((await app.get(`${REPOS}${repo.id}/`)).body.current_head).toBe(head);

    const owner = { id: repo.id, display: repo.name, name: repo.name, url: repo.url };
    const [schema] = await list(SCHEMAS, `owner_content_type=extras.gitrepository&name=NTP schema`);
    expect(schema).toMatchObject({ display: `[${repo.name}] NTP schema`, slug: 'ntp-schema', description: 'NTP servers', owner_content_type: 'extras.gitrepository', owner_object_id: repo.id, owner, data_schema: SCHEMA_FILE.data_schema });

    const contexts = await list(CC, `owner_object_id=${repo.id}`);
    expect(contexts.map((c) => c.name).sort()).toEqual(['AMS01 DNS', 'NTP', 'SNMP', 'Syslog']);
    const ntp = contexts.find((c) => c.name === 'NTP') as Obj;
    expect(ntp).toMatchObject({
      display: `[${repo.name}] NTP`,
      owner_content_type: 'extras.gitrepository',
      owner_object_id: repo.id,
      owner,
      weight: 100,
      description: 'NTP servers of Europe',
      is_active: true,
      schema: expect.objectContaining({ id: schema.id }),
      regions: [expect.objectContaining({ id: world.region.id })],
      tags: ['edge'],
      data: { ntp: { servers: ['10.0.0.1', '10.0.0.2'] } },
    });
    expect(contexts.find((c) => c.name === 'Syslog')).toMatchObject({ is_active: false, weight: 1000, description: '', schema: null, data: { syslog: { server: '10.1.1.1' } } });
    expect(contexts.find((c) => c.name === 'AMS01 DNS')).toMatchObject({ sites: [expect.objectContaining({ id: world.site.id })], data: { dns: ['10.2.2.2'] } });

    const [template] = await list(TEMPLATES, `owner_object_id=${repo.id}`);
    expect(template).toMatchObject({
      display: `[${repo.name}] dcim | site: sites.csv`,
      content_type: 'dcim.site',
      name: 'sites.csv',
      template_code: TEMPLATE,
      mime_type: 'text/csv',
      file_extension: 'csv',
      owner_content_type: 'extras.gitrepository',
      owner_object_id: repo.id,
      owner,
    });
    // A loaded template renders.
    const rendered = await app.get(`${TEMPLATES}${template.id}/render/?slug=ams01`);
    expect(rendered.status).toBe(200);
    expect(rendered.text).toBe('AMS01,ams01\n');

    expect((await app.get(`/api/dcim/devices/${world.device.id}/`)).body.local_context_data).toEqual({ role: 'edge router' });
    expect((await app.get(`/api/virtualization/virtual-machines/${world.vm.id}/`)).body.local_context_data).toEqual({ backup: true });
    // Owned contexts apply like any other (NTP wants the tag edge, which the device lacks).
    const device = (await app.get(`/api/dcim/devices/${world.device.id}/`)).body;
    expect(device.config_context).toMatchObject({ dns: ['10.2.2.2'], snmp: { community: 'public' }, role: 'edge router' });
    // The change records of the loaded objects carry the sync's job id as request id.
    const changes = await list('/api/extras/object-changes/', `changed_object_id=${ntp.id}`);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ action: { value: 'create' }, request_id: created.result.job_id, user_name: 'admin' });
  });

  test('a sync with nothing changed changes nothing', async () => {
    const before = await list(CC, `owner_object_id=${repo.id}`);
    const { result, log } = await sync(repo);
    expect(result.status.value).toBe('completed');
    expect(messages(log)).toEqual(expect.arrayContaining(['No change to config context schema', 'No change to config context', 'No change to local config context', 'No change to export template']));
    expect(messages(log)).not.toContain('Successfully refreshed config context');
    const after = await list(CC, `owner_object_id=${repo.id}`);
    expect(after.map((c) => [c.id, c.last_updated])).toEqual(before.map((c) => [c.id, c.last_updated]));
  });

  test('owned records stay writable through the API, as in Nautobot; the next sync puts the files back', async () => {
    const [ntp] = await list(CC, `owner_object_id=${repo.id}&name=NTP`);
    const patched = await app.patch(`${CC}${ntp.id}/`, { weight: 7, data: { ntp: { servers: ['192.0.2.1'] } } });
    expect(patched.status).toBe(200);
    expect(patched.body.weight).toBe(7);
    const { result, log } = await sync(repo);
    expect(result.status.value).toBe('completed');
    expect(log.find((l) => l.message === 'Successfully refreshed config context')).toMatchObject({ log_object: `[${repo.name}] NTP` });
    expect((await app.get(`${CC}${ntp.id}/`)).body).toMatchObject({ weight: 100, data: { ntp: { servers: ['10.0.0.1', '10.0.0.2'] } } });
  });

  test('a changed file is refreshed, a removed one deleted', async () => {
    head = source.commit({
      'config_contexts/ntp.yaml': CONTEXT_YAML.replace('weight: 100', 'weight: 200').replace('10.0.0.2', '10.0.0.3'),
      'config_contexts/list.json': [{ _metadata: { name: 'SNMP' }, snmp: { community: 'private' } }],
      'config_contexts/devices/router1.json': null,
      'export_templates/dcim/site/sites.csv': null,
      'export_templates/dcim/device/devices.txt': '{% for d in queryset %}{{ d.name }}\n{% endfor %}',
      'config_context_schemas/ntp.json': { ...SCHEMA_FILE, _metadata: { name: 'NTP schema', description: 'changed' } },
    });
    const { result, log } = await sync(repo);
    expect(result.status.value).toBe('completed');
    expect(messages(log)).toEqual(
      expect.arrayContaining([
        'Successfully refreshed config context schema',
        'Successfully refreshed config context',
        `Deleted config context [${repo.name}] Syslog`,
        'Deleted local config context',
        `Deleted export template [${repo.name}] dcim | site: sites.csv`,
      ]),
    );
    expect((await app.get(`${REPOS}${repo.id}/`)).body.current_head).toBe(head);
    const contexts = await list(CC, `owner_object_id=${repo.id}`);
    expect(contexts.map((c) => c.name).sort()).toEqual(['AMS01 DNS', 'NTP', 'SNMP']);
    expect(contexts.find((c) => c.name === 'NTP')).toMatchObject({ weight: 200, data: { ntp: { servers: ['10.0.0.1', '10.0.0.3'] } } });
    expect(contexts.find((c) => c.name === 'SNMP')?.data).toEqual({ snmp: { community: 'private' } });
    expect((await list(SCHEMAS, `owner_content_type=extras.gitrepository&name=NTP schema`))[0].description).toBe('changed');
    expect((await list(TEMPLATES, `owner_object_id=${repo.id}`)).map((t) => `${t.content_type} ${t.name} ${t.mime_type} ${t.file_extension}`)).toEqual(['dcim.device devices.txt text/plain txt']);
    const device = (await app.get(`/api/dcim/devices/${world.device.id}/`)).body;
    expect(device.local_context_data).toBeNull();
    // Rendered config contexts follow the sync at once.
    expect(device.config_context.snmp).toEqual({ community: 'private' });
    expect(device.config_context).not.toHaveProperty('role');
  });

  test('a content kind the repository stops providing is deleted', async () => {
    const patched = await app.patch(`${REPOS}${repo.id}/`, { provided_contents: ['extras.configcontext', 'extras.configcontextschema'] });
    expect(patched.status).toBe(200);
    // The update queued a sync (Nautobot's trigger_resync).
    const results = (await resultsOf(repo.name)).length;
    const { result, log } = await settled(repo.name, results);
    expect(result.status.value).toBe('completed');
    expect(messages(log)).toContain(`Deleted export template [${repo.name}] dcim | device: devices.txt`);
    expect(await list(TEMPLATES, `owner_object_id=${repo.id}`)).toEqual([]);
    expect(await list(CC, `owner_object_id=${repo.id}`)).toHaveLength(3);
  });

  test('a broken file fails the sync with a log and changes nothing, not even what loaded well', async () => {
    const snapshot = async () => ({
      contexts: (await list(CC, `owner_object_id=${repo.id}`)).map((c) => [c.name, c.weight, c.data, c.last_updated]),
      schemas: (await list(SCHEMAS, `owner_content_type=extras.gitrepository`)).map((s) => [s.name, s.description, s.last_updated]),
      head: (await app.get(`${REPOS}${repo.id}/`)).body.current_head,
    });
    const before = await snapshot();
    source.commit({
      'config_contexts/ntp.yaml': CONTEXT_YAML.replace('weight: 100', 'weight: 300'),
      'config_contexts/broken.yaml': 'ntp: [unclosed\n',
      'config_contexts/nameless.json': { _metadata: { weight: 5 }, a: 1 },
      'config_contexts/unknown-region.json': { _metadata: { name: 'Nowhere', regions: [{ slug: 'nowhere' }] } },
      'config_context_schemas/ntp.json': { ...SCHEMA_FILE, _metadata: { name: 'NTP schema', description: 'changed again' } },
    });
    const { result, log } = await sync(repo);
    expect(result.status.value).toBe('failed');
    const failed = failures(log);
    expect(failed).toHaveLength(3);
    expect(failed[0]).toMatch(/^Error in loading config context data from `broken.yaml`: /);
    expect(failed).toContain('Error in loading config context data from `nameless.json`: data `_metadata` is missing the required `name` key.');
    expect(failed).toContain("Error in loading config context data from `unknown-region.json`: No matching Region found for {'slug': 'nowhere'}; unable to create/update context Nowhere");
    expect(messages(log)).toContain(`Nothing was changed: the data provided by ${repo.name} stays as the last successful sync left it.`);
    expect(await snapshot()).toEqual(before);
    // Fixed, the next sync loads it all.
    source.commit({ 'config_contexts/broken.yaml': null, 'config_contexts/nameless.json': null, 'config_contexts/unknown-region.json': null });
    expect((await sync(repo)).result.status.value).toBe('completed');
    expect((await list(CC, `owner_object_id=${repo.id}&name=NTP`))[0].weight).toBe(300);
  });

  test('an unreachable remote or a missing branch errors the sync, as in Nautobot, and changes nothing', async () => {
    const before = (await list(CC, `owner_object_id=${repo.id}`)).map((c) => [c.name, c.last_updated]);
    const count = (await resultsOf(repo.name)).length;
    let res = await app.patch(`${REPOS}${repo.id}/`, { remote_url: `file://${path.join(tmp, 'nowhere')}` });
    expect(res.status).toBe(200);
    let { result, log } = await settled(repo.name, count + 1);
    expect(result.status.value).toBe('errored');
    expect(failures(log).join('\n')).toMatch(/Error while refreshing .*: .*(does not appear to be a git repository|not found)/i);
    res = await app.patch(`${REPOS}${repo.id}/`, { remote_url: source.url, branch: 'nosuchbranch' });
    ({ result, log } = await settled(repo.name, count + 2));
    expect(result.status.value).toBe('errored');
    expect(failures(log)[0]).toMatch(/^Please create branch 'nosuchbranch' in upstream and try again\. If this is a new repo, please add a commit before syncing\./);
    expect((await list(CC, `owner_object_id=${repo.id}`)).map((c) => [c.name, c.last_updated])).toEqual(before);
    await app.patch(`${REPOS}${repo.id}/`, { branch: 'main' });
    expect((await settled(repo.name, count + 3)).result.status.value).toBe('completed');
  });

  test("a context's name conflicts only within its owner; local data owned elsewhere is a conflict", async () => {
    const manual = await made(CC, { name: 'NTP', data: { manual: true } });
    expect(manual.owner).toBeNull();
    expect(manual.display).toBe('NTP');
    const other = new Source('other');
    other.commit({ 'config_contexts/virtual_machines/vm1.json': { other: true }, 'config_contexts/ntp.json': { _metadata: { name: 'NTP' }, x: 1 } });
    const { repo: second, result, log } = await repository(other, { provided_contents: ['extras.configcontext'] });
    expect(result.status.value).toBe('failed');
    expect(failures(log)).toEqual([`DATA CONFLICT: Local context data is owned by another owner, ${repo.name}`]);
    expect(await list(CC, `owner_object_id=${second.id}`)).toEqual([]);
    await app.delete(`${REPOS}${second.id}/`);
    await app.delete(`${CC}${manual.id}/`);
  });

  test('deleting the repository deletes what it provided, records it in a job result and removes its copy', async () => {
    const copy = path.join(gitRoot, repo.id);
    expect(fs.existsSync(path.join(copy, '.git'))).toBe(true);
    expect(await list(CC, `owner_object_id=${repo.id}`)).toHaveLength(3);
    const count = (await resultsOf(repo.name)).length;
    const res = await app.delete(`${REPOS}${repo.id}/`);
    expect(res.status).toBe(204);
    expect(await list(CC, `owner_object_id=${repo.id}`)).toEqual([]);
    expect(await list(SCHEMAS, 'owner_content_type=extras.gitrepository')).toEqual([]);
    expect((await app.get(`/api/virtualization/virtual-machines/${world.vm.id}/`)).body.local_context_data).toBeNull();
    const results = await resultsOf(repo.name);
    expect(results).toHaveLength(count + 1);
    expect(results[0]).toMatchObject({ status: { value: 'completed' }, user: null, obj_type: 'extras.gitrepository' });
    const log = (await app.get(`${RESULTS}${results[0].id}/logs/`)).body;
    expect(messages(log)).toEqual(expect.arrayContaining([`Refreshing data provided by ${repo.name}...`, `Deleted config context [${repo.name}] NTP`, 'Deleted local config context']));
    await waitFor(async () => (fs.existsSync(copy) ? null : true));
  });
});

// -- Credentials -------------------------------------------------------------------------------

describe('credentials from the secrets group', () => {
  const USER = 'netinv-sync';
  const TOKEN = 'tok-Hv83Jq1xZ-secret';
  let server: http.Server;
  let base: string;
  const seen: string[] = [];

  beforeAll(async () => {
    // A bare repository served over git's "dumb" HTTP protocol, behind Basic authentication.
    const source = new Source('served-src');
    source.commit({ 'config_contexts/auth.json': { _metadata: { name: 'Behind auth' }, auth: true } });
    const bare = path.join(tmp, 'served.git');
    execFileSync('git', ['clone', '--quiet', '--bare', source.dir, bare]);
    execFileSync('git', ['-C', bare, 'update-server-info']);
    const expected = `Basic ${Buffer.from(`${USER}:${TOKEN}`).toString('base64')}`;
    server = http.createServer((req, res) => {
      seen.push(req.headers.authorization ?? '');
      if (req.headers.authorization !== expected) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end();
        return;
      }
      const file = path.join(bare, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/^\/served\.git/, ''));
      if (!file.startsWith(bare) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/served.git`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('without credentials the fetch fails; with the HTTP(S) token and username it loads, and the token is nowhere kept', async () => {
    const name = `Authenticated ${++seq}`;
    const repo = await made(REPOS, { name, remote_url: base, provided_contents: ['extras.configcontext'] });
    let { result, log } = await settled(name, 1);
    expect(result.status.value).toBe('errored');
    expect(failures(log)[0]).toMatch(/terminal prompts disabled|Authentication failed|could not read Username/i);

    process.env.NETINV_TEST_GIT_USER = USER;
    process.env.NETINV_TEST_GIT_TOKEN = TOKEN;
    const group = await made('/api/extras/secrets-groups/', { name: `Git credentials ${seq}` });
    for (const [type, variable] of [['username', 'NETINV_TEST_GIT_USER'], ['token', 'NETINV_TEST_GIT_TOKEN']]) {
      const secret = await made('/api/extras/secrets/', { name: `Git ${type} ${seq}`, provider: 'environment-variable', parameters: { variable } });
      await made('/api/extras/secrets-groups-associations/', { group: group.id, secret: secret.id, access_type: 'HTTP(S)', secret_type: type });
    }
    expect((await app.patch(`${REPOS}${repo.id}/`, { secrets_group: group.id })).status).toBe(200);
    ({ result, log } = await settled(name, 2));
    expect(failures(log)).toEqual([]);
    expect(result.status.value).toBe('completed');
    expect((await list(CC, `owner_object_id=${repo.id}`)).map((c) => c.name)).toEqual(['Behind auth']);
    expect(seen.some((h) => h.startsWith('Basic '))).toBe(true);
    // Not in the copy's configuration, the logs, the results or the repository's representation.
    const copy = path.join(gitRoot, repo.id);
    expect(fs.readFileSync(path.join(copy, '.git', 'config'), 'utf8')).not.toContain(TOKEN);
    expect(spawnSync('grep', ['-r', '-l', '-F', TOKEN, path.join(copy, '.git')], { encoding: 'utf8' })).toMatchObject({ status: 1, stdout: '' });
    const everything = JSON.stringify([await resultsOf(name), log, (await app.get(`${REPOS}${repo.id}/`)).body]);
    expect(everything).not.toContain(TOKEN);
  });

  test("a secrets group without a token falls back to the repository's own token, with Nautobot's warning", async () => {
    const name = `Legacy token ${++seq}`;
    const group = await made('/api/extras/secrets-groups/', { name: `Empty group ${seq}` });
    await made(REPOS, { name, remote_url: base, username: USER, token: TOKEN, secrets_group: group.id, provided_contents: ['extras.exporttemplate'] });
    const { result, log } = await settled(name, 1);
    expect(result.status.value).toBe('completed');
    expect(messages(log)).toContain("Repository has a secrets group assigned but is missing a 'token' secret of access type 'HTTP'.Falling through to legacy behaviour.");
    expect(JSON.stringify(log)).not.toContain(TOKEN);
  });
});

// -- The sync action ---------------------------------------------------------------------------

describe('POST sync/: permissions, 503, 404', () => {
  test("add and change are both needed, each with Nautobot's message; an unknown repository is a 404", async () => {
    const source = new Source(`perm-${++seq}`);
    source.commit({ 'README.md': 'nothing provided' });
    const { repo } = await repository(source, { provided_contents: [] });
    const userId = await app.createUser(`syncer${seq}`);
    const token = await app.createToken(userId);
    const url = `${REPOS}${repo.id}/sync/`;
    let res = await app.post(url, undefined, token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    const perm = await made('/api/users/permissions/', { name: `git add ${seq}`, object_types: ['extras.gitrepository'], actions: ['view', 'add'], users: [userId] });
    res = await app.post(url, undefined, token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'This user does not have permission to make changes to Git repositories.' });
    expect((await app.patch(`/api/users/permissions/${perm.id}/`, { actions: ['view', 'add', 'change'] })).status).toBe(200);
    res = await app.post(url, undefined, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: `Repository ${repo.name} sync job added to queue.` });
    expect((await resultsOf(repo.name))[0].user).toMatchObject({ id: userId });
    res = await app.post(`${REPOS}00000000-0000-4000-8000-000000000000/sync/`, undefined, token);
    expect(res.status).toBe(404);
    // A read-only token may not sync.
    const readOnly = await app.createToken(userId, { writeEnabled: false });
    expect((await app.post(url, undefined, readOnly)).status).toBe(403);
    await settled(repo.name, 2);
  });

  test('503 while no job worker runs anywhere; a worker started elsewhere (netinv worker) is enough', async () => {
    const databaseUrl = await freshDatabaseUrl({ persistent: true, suffix: 'queue' });
    const queueOnly = await startApp({ NETINV_JOB_WORKER: 'false', NETINV_LOG_LEVEL: 'silent', NETINV_GIT_ROOT: gitRoot }, { databaseUrl });
    try {
      const repo = await made(REPOS, { name: `Queued ${++seq}`, remote_url: 'http://127.0.0.1:9/queued.git' }, queueOnly);
      // Without the setting, local URLs are refused as Nautobot refuses them.
      const local = await queueOnly.post(REPOS, { name: `Local ${seq}`, remote_url: 'file:///srv/repo.git' });
      expect(local.status).toBe(400);
      expect(local.body).toEqual({ remote_url: ['Enter a valid URL.'] });
      let res = await queueOnly.post(`${REPOS}${repo.id}/sync/`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ detail: 'Unable to process request: No celery workers running on queue default.' });
      // The create still queued its sync, pending for a worker.
      expect((await resultsOf(repo.name, queueOnly))[0].status.value).toBe('pending');
      // A second process on the same database whose worker runs (sync URLs to the discard port fail at once).
      const worker = await startApp({ NETINV_LOG_LEVEL: 'silent', NETINV_GIT_ROOT: gitRoot, NETINV_JOB_POLL_MS: '50' }, { databaseUrl });
      try {
        res = await queueOnly.post(`${REPOS}${repo.id}/sync/`);
        expect(res.status).toBe(200);
        await settled(repo.name, 2, queueOnly);
      } finally {
        await worker.close();
      }
      // Its beat is gone with it.
      res = await queueOnly.post(`${REPOS}${repo.id}/sync/`);
      expect(res.status).toBe(503);
    } finally {
      await queueOnly.close();
    }
  });
});
