/**
 * Jobs (reference behaviour-jobs.md §1–§2): job records from the example plugin's classes,
 * variables, runs with commit and dry run through the server's own worker, results and logs,
 * Nautobot's errors for disabled, uninstalled and badly fed jobs.
 */
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

let app: TestApp;

beforeAll(async () => {
  app = await startApp({ NETINV_PLUGINS: EXAMPLE_PLUGIN, NETINV_JOB_POLL_MS: '100', NETINV_LOG_LEVEL: 'warn' });
});
afterAll(async () => {
  await app?.close();
});

async function jobNamed(className: string): Promise<Record<string, unknown>> {
  const res = await app.get(`/api/extras/jobs/?job_class_name=${className}&api_version=1.6`);
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(1);
  return res.body.results[0] as Record<string, unknown>;
}

async function enable(className: string): Promise<string> {
  const job = await jobNamed(className);
  const res = await app.patch(`/api/extras/jobs/${String(job.id)}/`, { enabled: true });
  expect(res.status).toBe(200);
  expect(res.body.enabled).toBe(true);
  return String(job.id);
}

/** Waits until the result reaches a terminal status and returns it. */
async function finished(resultId: string): Promise<Record<string, unknown>> {
  return waitFor(async () => {
    const res = await app.get(`/api/extras/job-results/${resultId}/`);
    expect(res.status).toBe(200);
    const status = (res.body.status as { value: string }).value;
    return ['completed', 'failed', 'errored'].includes(status) ? (res.body as Record<string, unknown>) : null;
  });
}

describe('job records', () => {
  test('each plugin job has a record, installed, disabled, with the class attributes', async () => {
    const job = await jobNamed('CreateAutonomousSystem');
    expect(job).toMatchObject({
      source: 'plugins',
      module_name: 'netinv_bgp.jobs',
      job_class_name: 'CreateAutonomousSystem',
      grouping: 'netinv_bgp.jobs',
      name: 'Create AS',
      slug: 'plugins-netinv_bgp-jobs-createautonomoussystem',
      installed: true,
      enabled: false,
      has_sensitive_variables: false,
      approval_required: false,
      read_only: false,
      commit_default: true,
      is_job_hook_receiver: false,
      is_job_button_receiver: false,
      soft_time_limit: 0,
      time_limit: 0,
      task_queues: [],
    });
    expect((await jobNamed('AutonomousSystemReport')).read_only).toBe(true);
  });

  test('a non-overridden attribute follows the class on save; with its override flag it is kept', async () => {
    const job = await jobNamed('AutonomousSystemReport');
    const path = `/api/extras/jobs/${String(job.id)}/`;
    let res = await app.patch(path, { name: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('AS report');
    res = await app.patch(path, { name: 'Renamed', name_override: true });
    expect(res.body.name).toBe('Renamed');
    expect((await app.get(path)).body.name).toBe('Renamed');
    res = await app.patch(path, { name_override: false });
    expect(res.body.name).toBe('AS report');
  });

  test('sensitive variables and approval cannot both be set', async () => {
    const job = await jobNamed('CreateAutonomousSystem');
    const res = await app.patch(`/api/extras/jobs/${String(job.id)}/`, { approval_required: true, approval_required_override: true, has_sensitive_variables: true, has_sensitive_variables_override: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ approval_required: ['A job with sensitive variables cannot also be marked as requiring approval'] });
  });

  test('POST to the job list is not allowed', async () => {
    expect((await app.post('/api/extras/jobs/', { name: 'x' })).status).toBe(405);
  });
});

describe('variables', () => {
  test('GET variables lists them in declaration order with the keys that apply', async () => {
    const job = await jobNamed('CreateAutonomousSystem');
    const res = await app.get(`/api/extras/jobs/${String(job.id)}/variables/`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { name: 'asn', type: 'IntegerVar', required: true, label: 'ASN', min_value: 1, max_value: 4294967295 },
      { name: 'description', type: 'StringVar', required: false, max_length: 200, default: '' },
    ]);
  });
});

describe('running', () => {
  let createJob: string;
  beforeAll(async () => {
    createJob = await enable('CreateAutonomousSystem');
  });

  test('a disabled job is a 403 with Nautobot message', async () => {
    const job = await jobNamed('AutonomousSystemReport');
    await app.patch(`/api/extras/jobs/${String(job.id)}/`, { enabled: false });
    const res = await app.post(`/api/extras/jobs/${String(job.id)}/run/`, { data: {} });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'This job is not enabled to be run.' });
  });

  test('bad input: Nautobot error bodies, nothing queued', async () => {
    const before = (await app.get('/api/extras/job-results/')).body.count;
    const path = `/api/extras/jobs/${createJob}/run/`;
    let res = await app.post(path, { data: [] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: ['Job data needs to be a dict'] });
    res = await app.post(path, { data: { asn: 1, bogus: 2 } });
    expect(res.body).toEqual({ errors: { bogus: ['Job data contained an unknown property'] } });
    res = await app.post(path, { data: {} });
    expect(res.body).toEqual({ errors: { asn: ['This field is required.'] } });
    res = await app.post(path, { data: { asn: 'x' } });
    expect(res.body).toEqual({ errors: { asn: ['Enter a whole number.'] } });
    res = await app.post(path, { data: { asn: 0 } });
    expect(res.body).toEqual({ errors: { asn: ['Ensure this value is greater than or equal to 1.'] } });
    res = await app.post(path, { data: { asn: 1 }, commit: 'maybe' });
    expect(res.body).toEqual({ commit: ['Must be a valid boolean.'] });
    res = await app.post(path, { data: { asn: 1 }, task_queue: 'invalid' });
    expect(res.body).toEqual({ task_queue: ['"invalid" is not a valid choice.'] });
    res = await app.post(path, { data: { asn: 1 }, schedule: { name: 'x', interval: 'bogus' } });
    expect(res.body).toEqual({ schedule: { interval: ['"bogus" is not a valid choice.'] } });
    expect((await app.get('/api/extras/job-results/')).body.count).toBe(before);
  });

  test('a run with commit creates the object, change-logged, and completes with the output and logs', async () => {
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 65100, description: 'from a job' }, commit: true });
    expect(res.status).toBe(201);
    expect(res.body.schedule).toBeNull();
    expect(res.body.job_result).toMatchObject({ name: 'plugins/netinv_bgp.jobs/CreateAutonomousSystem', completed: null, user: { username: 'admin' } });
    // As queued: read before the commit that lets a worker start it.
    expect(res.body.job_result.status).toEqual({ value: 'pending', label: 'Pending' });
    const result = await finished(res.body.job_result.id);
    expect(result.status).toEqual({ value: 'completed', label: 'Completed' });
    expect(result.completed).not.toBeNull();
    expect(result.job_model).toMatchObject({ id: createJob, name: 'Create AS' });
    expect(result.obj_type).toBe('extras.job');
    expect(result.job_kwargs).toEqual({ data: { asn: 65100, description: 'from a job' }, commit: true, task_queue: null });
    const created = (result.data as { output: { id: string } }).output.id;
    const as = await app.get(`/api/plugins/bgp/autonomous-systems/${created}/`);
    expect(as.status).toBe(200);
    expect(as.body.asn).toBe(65100);
    const changes = await app.get(`/api/extras/object-changes/?changed_object_id=${created}`);
    expect(changes.body.count).toBe(1);
    expect(changes.body.results[0]).toMatchObject({ action: { value: 'create' }, user_name: 'admin', request_id: result.job_id });

    const logs = await app.get(`/api/extras/job-results/${String(result.id)}/logs/`);
    expect(logs.status).toBe(200);
    expect(logs.body).toEqual([
      expect.objectContaining({ display: 'Created AS65100', message: 'Created AS65100', log_level: 'success', log_object: 'AS65100', grouping: 'main', absolute_url: null }),
    ]);
    const listed = await app.get(`/api/extras/job-logs/?job_result=${String(result.id)}`);
    expect(listed.body.count).toBe(1);
    expect(listed.body.results[0].job_result).toBe(result.id);
    expect(listed.body.results[0].display).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
  });

  test('a dry run rolls back every change, the change log included', async () => {
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 65200 }, commit: false });
    expect(res.status).toBe(201);
    const result = await finished(res.body.job_result.id);
    expect((result.status as { value: string }).value).toBe('completed');
    const id = (result.data as { output: { id: string } }).output.id;
    expect((await app.get(`/api/plugins/bgp/autonomous-systems/${id}/`)).status).toBe(404);
    expect((await app.get('/api/plugins/bgp/autonomous-systems/?asn=65200')).body.count).toBe(0);
    expect((await app.get(`/api/extras/object-changes/?changed_object_id=${id}`)).body.count).toBe(0);
    const logs = (await app.get(`/api/extras/job-results/${String(result.id)}/logs/`)).body as Array<{ message: string }>;
    expect(logs.map((l) => l.message)).toEqual(['Created AS65200', 'Database changes have been reverted automatically.']);
  });

  test('a job that throws ends errored with the traceback logged, its changes rolled back', async () => {
    // AS65100 exists: the second create fails validation inside the job.
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 65100 }, commit: true });
    const result = await finished(res.body.job_result.id);
    expect((result.status as { value: string }).value).toBe('errored');
    const logs = (await app.get(`/api/extras/job-results/${String(result.id)}/logs/`)).body as Array<{ message: string; log_level: string }>;
    expect(logs.at(-1)?.log_level).toBe('failure');
    expect(logs.at(-1)?.message).toMatch(/An exception occurred/);
  });

  test('a read-only job never commits and reports through its log', async () => {
    const report = await enable('AutonomousSystemReport');
    const res = await app.post(`/api/extras/jobs/${report}/run/`, { data: { warn_private: true } });
    expect(res.status).toBe(201);
    const result = await finished(res.body.job_result.id);
    expect((result.status as { value: string }).value).toBe('completed');
    expect((result.data as { output: { count: number } }).output.count).toBeGreaterThanOrEqual(1);
    const logs = (await app.get(`/api/extras/job-results/${String(result.id)}/logs/`)).body as Array<{ message: string; log_level: string }>;
    expect(logs).toContainEqual(expect.objectContaining({ message: 'AS65100 is a private ASN', log_level: 'warning' }));
  });

  test('job results can be deleted, with their logs', async () => {
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 65300 }, commit: false });
    const result = await finished(res.body.job_result.id);
    expect((await app.delete(`/api/extras/job-results/${String(result.id)}/`)).status).toBe(204);
    expect((await app.get(`/api/extras/job-logs/?job_result=${String(result.id)}`)).status).toBe(400);
  });

  test('a user without run permission gets 403; run is allowed by the run action', async () => {
    const userId = await app.createUser('runner');
    const token = await app.createToken(userId);
    expect((await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 65400 } }, token)).status).toBe(403);
    const perm = await app.post('/api/users/permissions/', { name: 'run jobs', object_types: ['extras.job'], actions: ['view', 'run'], users: [userId] });
    expect(perm.status).toBe(201);
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 65400 }, commit: false }, token);
    expect(res.status).toBe(201);
    await finished(res.body.job_result.id);
  });
});
