/**
 * Job hooks and job buttons (reference behaviour-jobs.md §4–§5): hooks run their receiver with the
 * change record as input on create, update and delete; the receiver's own changes fire nothing;
 * rules and messages of both models; a button's receiver run for an object.
 */
import * as path from 'node:path';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

type Obj = Record<string, unknown>;
let app: TestApp;
let receiver: string;
let buttonReceiver: string;
let plainJob: string;

async function enabledJob(className: string): Promise<string> {
  const res = await app.get(`/api/extras/jobs/?job_class_name=${className}&api_version=1.6`);
  const id = String(res.body.results[0].id);
  expect((await app.patch(`/api/extras/jobs/${id}/`, { enabled: true })).status).toBe(200);
  return id;
}

async function hookLogs(): Promise<string[]> {
  const results = (await app.get(`/api/extras/job-results/?job_model_id=${receiver}&limit=100`)).body.results as Obj[];
  const lines: string[] = [];
  for (const r of results) {
    if ((r.status as Obj).value !== 'completed') return [];
    lines.push(...((await app.get(`/api/extras/job-results/${String(r.id)}/logs/`)).body as Array<{ message: string }>).map((l) => l.message));
  }
  return lines.sort();
}

beforeAll(async () => {
  app = await startApp({ NETINV_JOBS_ROOT: path.resolve(__dirname, '../fixtures/jobs'), NETINV_JOB_POLL_MS: '50' });
  receiver = await enabledJob('ChangeReceiver');
  buttonReceiver = await enabledJob('ButtonReceiver');
  plainJob = await enabledJob('Noop');
});
afterAll(async () => {
  await app?.close();
});

describe('job hooks', () => {
  test('rules: a hook receiver, at least one action, no overlapping hook', async () => {
    let res = await app.post('/api/extras/job-hooks/', { name: 'not a receiver', content_types: ['dcim.region'], job: plainJob, type_create: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ job: [`Invalid pk "${plainJob}" - object does not exist.`] });
    res = await app.post('/api/extras/job-hooks/', { name: 'no action', content_types: ['dcim.region'], job: receiver });
    expect(res.body).toEqual({ __all__: ['You must select at least one type: create, update, and/or delete.'] });
    res = await app.post('/api/extras/job-hooks/', { name: 'bad type', content_types: ['users.token'], job: receiver, type_create: true });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['content_types']);
    res = await app.post('/api/extras/job-hooks/', { name: 'first', content_types: ['dcim.site'], job: receiver, type_delete: true, enabled: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'first', job: receiver, content_types: ['dcim.site'], enabled: false, type_create: false, type_update: false, type_delete: true });
    res = await app.post('/api/extras/job-hooks/', { name: 'second', content_types: ['dcim.site'], job: receiver, type_delete: true });
    expect(res.body).toEqual({ type_delete: [`A job hook already exists for delete on dcim | site to job Change receiver`] });
    expect((await app.delete(`/api/extras/job-hooks/${String((await app.get('/api/extras/job-hooks/?name=first')).body.results[0].id)}/`)).status).toBe(204);
  });

  test('create, update and delete each run the receiver with the change record; its own update fires nothing', async () => {
    const hook = await app.post('/api/extras/job-hooks/', { name: 'regions', content_types: ['dcim.region'], job: receiver, type_create: true, type_update: true, type_delete: true });
    expect(hook.status).toBe(201);
    const region = await app.post('/api/dcim/regions/', { name: 'Hooked', slug: 'hooked' });
    expect(region.status).toBe(201);
    const id = String(region.body.id);
    await waitFor(async () => ((await hookLogs()).length === 1 ? true : null));
    expect(await hookLogs()).toEqual([`create dcim.region ${id}`]);
    // The receiver's change is logged like any other, under the run's request id, and fires no hook.
    expect((await app.get(`/api/dcim/regions/${id}/`)).body.description).toBe('seen by the hook');
    const changes = (await app.get(`/api/extras/object-changes/?changed_object_id=${id}`)).body.results as Obj[];
    expect(changes.map((c) => (c.action as Obj).value).sort()).toEqual(['create', 'update']);

    expect((await app.patch(`/api/dcim/regions/${id}/`, { description: 'changed' })).status).toBe(200);
    expect((await app.delete(`/api/dcim/regions/${id}/`)).status).toBe(204);
    await waitFor(async () => ((await hookLogs()).length === 3 ? true : null));
    expect(await hookLogs()).toEqual([`create dcim.region ${id}`, `delete dcim.region ${id}`, `update dcim.region ${id}`]);
    const results = (await app.get(`/api/extras/job-results/?job_model_id=${receiver}`)).body.results as Obj[];
    expect(results.every((r) => (r.user as Obj).username === 'admin')).toBe(true);
    const change = (await app.get(`/api/extras/job-results/${String(results[0].id)}/`)).body.job_kwargs as Obj;
    expect(change.commit).toBe(true);
    expect(Object.keys(change.data as Obj)).toEqual(['object_change']);
  });

  test('a disabled hook, or a rolled-back write, runs nothing', async () => {
    const hooks = (await app.get('/api/extras/job-hooks/?name=regions')).body.results as Obj[];
    await app.patch(`/api/extras/job-hooks/${String(hooks[0].id)}/`, { enabled: false });
    const before = (await app.get('/api/extras/job-results/')).body.count;
    expect((await app.post('/api/dcim/regions/', { name: 'Quiet', slug: 'quiet' })).status).toBe(201);
    await app.patch(`/api/extras/job-hooks/${String(hooks[0].id)}/`, { enabled: true });
    // A bulk create with a bad item rolls back whole.
    expect((await app.post('/api/dcim/regions/', [{ name: 'Ok', slug: 'ok' }, { name: '' }])).status).toBe(400);
    expect((await app.get('/api/extras/job-results/')).body.count).toBe(before);
  });
});

describe('job buttons', () => {
  test('a button names a button receiver; pressing it is a run with the object', async () => {
    let res = await app.post('/api/extras/job-buttons/', { name: 'wrong', content_types: ['dcim.region'], job: receiver, text: 'Go' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ job: [`Invalid pk "${receiver}" - object does not exist.`] });
    res = await app.post('/api/extras/job-buttons/', { name: 'Inspect', content_types: ['dcim.region'], job: buttonReceiver, text: 'Inspect {{ obj.name }}', button_class: 'bogus' });
    expect(res.body.button_class[0]).toBe('"bogus" is not a valid choice.');
    res = await app.post('/api/extras/job-buttons/', { name: 'Inspect', content_types: ['dcim.region'], job: buttonReceiver, text: 'Inspect {{ obj.name }}' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ job: buttonReceiver, weight: 100, group_name: '', button_class: 'default', confirmation: true });

    const region = await app.post('/api/dcim/regions/', { name: 'Pressed', slug: 'pressed' });
    const run = await app.post(`/api/extras/jobs/${buttonReceiver}/run/`, { data: { object_pk: region.body.id, object_model_name: 'dcim.region' } });
    expect(run.status).toBe(201);
    const done = await waitFor(async () => {
      const r = await app.get(`/api/extras/job-results/${String(run.body.job_result.id)}/`);
      return (r.body.status as Obj).value === 'completed' ? r.body : null;
    });
    expect(done.data).toEqual({ output: region.body.id });
  });
});
