/**
 * Scheduled jobs and approvals (reference behaviour-jobs.md §1.4, §3), and the API 1.2 class-path
 * routes pynautobot uses. A schedule's next firing time is moved to now in the database where a
 * test would otherwise wait for a future minute or hour; everything else goes through the API.
 */
import { Store } from '../../framework';
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

type Obj = Record<string, unknown>;
let app: TestApp;
let createJob: string;

beforeAll(async () => {
  app = await startApp({ NETINV_PLUGINS: EXAMPLE_PLUGIN, NETINV_JOB_POLL_MS: '50' });
  const res = await app.get('/api/extras/jobs/?job_class_name=CreateAutonomousSystem&api_version=1.6');
  createJob = String(res.body.results[0].id);
  expect((await app.patch(`/api/extras/jobs/${createJob}/`, { enabled: true })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
});

/** Makes a schedule due now, as if its time had come. */
async function dueNow(id: string): Promise<void> {
  const { server } = app;
  await server.db.transaction((tx) => new Store(tx, server.registry).update(server.registry.get('extras.scheduledjob')!, id, { next_run_at: new Date(Date.now() - 1000) }));
}

async function storedSchedule(id: string): Promise<Obj> {
  const { server } = app;
  return (await new Store(server.db.reader, server.registry).get(server.registry.get('extras.scheduledjob')!, id)) as Obj;
}

async function resultsOfSchedule(id: string): Promise<Obj[]> {
  const res = await app.get(`/api/extras/job-results/?limit=100`);
  return (res.body.results as Obj[]).filter((r) => (r.schedule as Obj | null)?.id === id);
}

async function asCount(asn: number): Promise<number> {
  return (await app.get(`/api/plugins/bgp/autonomous-systems/?asn=${asn}`)).body.count as number;
}

function future(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString();
}

describe('schedules', () => {
  test('a schedule needs a name and a start time 15 s ahead; a bad crontab is refused', async () => {
    const path = `/api/extras/jobs/${createJob}/run/`;
    let res = await app.post(path, { data: { asn: 1 }, schedule: { interval: 'future', start_time: future(60) } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ schedule: { name: ['Please provide a name for the job schedule.'] } });
    res = await app.post(path, { data: { asn: 1 }, schedule: { name: 'x', interval: 'future', start_time: future(1) } });
    expect(res.body).toEqual({ schedule: { start_time: ['Please enter a valid date and time greater than or equal to the current date and time.'] } });
    res = await app.post(path, { data: { asn: 1 }, schedule: { name: 'x', interval: 'custom', crontab: '61 * * * *' } });
    expect(res.body).toEqual({ schedule: { crontab: ['Please enter a valid crontab.'] } });
  });

  test('once at a time: a scheduled job, then one run when it is due', async () => {
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 64601 }, schedule: { name: 'later', interval: 'future', start_time: future(3600) } });
    expect(res.status).toBe(201);
    expect(res.body.job_result).toBeNull();
    expect(res.body.schedule).toMatchObject({ name: 'later', interval: 'future', crontab: '' });
    const id = String(res.body.schedule.id);
    const listed = await app.get(`/api/extras/scheduled-jobs/${id}/`);
    expect(listed.body).toMatchObject({ name: 'later', interval: 'future', job_class: 'plugins/netinv_bgp.jobs/CreateAutonomousSystem', total_run_count: 0, approval_required: false, display: 'later: future' });
    expect(listed.body).not.toHaveProperty('start_time');
    expect(await asCount(64601)).toBe(0);
    await dueNow(id);
    await waitFor(async () => ((await asCount(64601)) === 1 ? true : null));
    const results = await waitFor(async () => {
      const r = await resultsOfSchedule(id);
      return r.length === 1 && (r[0].status as Obj).value === 'completed' ? r : null;
    });
    expect(results[0].user).toMatchObject({ username: 'admin' });
    expect((await app.get(`/api/extras/scheduled-jobs/${id}/`)).body.total_run_count).toBe(1);
    expect((await storedSchedule(id)).next_run_at).toBeNull();
  });

  test.each([
    ['hourly', 3600_000, 64602],
    ['daily', 86_400_000, 64604],
    ['weekly', 7 * 86_400_000, 64605],
  ])('%s: last_run_at is set one period before the start; each firing moves the next run a period on', async (interval, period, asn) => {
    const start = future(600);
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn }, commit: false, schedule: { name: interval, interval, start_time: start } });
    expect(res.status).toBe(201);
    const id = String(res.body.schedule.id);
    const body = (await app.get(`/api/extras/scheduled-jobs/${id}/`)).body;
    expect(body.interval).toBe(interval);
    expect(new Date(body.last_run_at).getTime()).toBe(new Date(start).getTime() - period);
    await dueNow(id);
    await waitFor(async () => ((await resultsOfSchedule(id)).length === 1 ? true : null));
    const next = (await storedSchedule(id)).next_run_at as Date;
    expect(next.getTime()).toBeGreaterThan(Date.now() + period - 100_000);
    expect(next.getTime()).toBeLessThanOrEqual(Date.now() + period);
    expect((await app.get(`/api/extras/scheduled-jobs/${id}/`)).body.total_run_count).toBe(1);
  });

  test('crontab: fires when due and waits for the next selected minute', async () => {
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 64603 }, commit: false, schedule: { name: 'cron', interval: 'custom', crontab: '*/5 * * * *' } });
    expect(res.status).toBe(201);
    const id = String(res.body.schedule.id);
    const first = (await storedSchedule(id)).next_run_at as Date;
    expect(first.getUTCMinutes() % 5).toBe(0);
    expect(first.getUTCSeconds()).toBe(0);
    await dueNow(id);
    await waitFor(async () => ((await resultsOfSchedule(id)).length === 1 ? true : null));
    const next = (await storedSchedule(id)).next_run_at as Date;
    expect(next.getUTCMinutes() % 5).toBe(0);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime()).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
  });
});

describe('approvals', () => {
  let approver: string;
  let requester: string;

  beforeAll(async () => {
    const res = await app.patch(`/api/extras/jobs/${createJob}/`, { approval_required: true, approval_required_override: true });
    expect(res.body.approval_required).toBe(true);
    const approverId = await app.createUser('approver');
    approver = await app.createToken(approverId);
    await app.post('/api/users/permissions/', { name: 'approve jobs', object_types: ['extras.job', 'extras.scheduledjob'], actions: ['view', 'change', 'delete', 'approve', 'run'], users: [approverId] });
    const requesterId = await app.createUser('requester');
    requester = await app.createToken(requesterId);
    await app.post('/api/users/permissions/', { name: 'request jobs', object_types: ['extras.job', 'extras.scheduledjob'], actions: ['view', 'change', 'run'], users: [requesterId] });
  });
  afterAll(async () => {
    await app.patch(`/api/extras/jobs/${createJob}/`, { approval_required: false, approval_required_override: false });
  });

  async function request(asn: number): Promise<string> {
    const res = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn }, commit: true }, requester);
    expect(res.status).toBe(201);
    expect(res.body.job_result).toBeNull();
    expect(res.body.schedule).toMatchObject({ interval: 'immediately' });
    return String(res.body.schedule.id);
  }

  test('a job requiring approval waits; the requester cannot approve; an approver can, and it runs', async () => {
    const id = await request(64701);
    expect((await app.get(`/api/extras/scheduled-jobs/${id}/`)).body).toMatchObject({ approval_required: true, approved_by_user: null, approved_at: null });
    // Not run while unapproved.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await resultsOfSchedule(id)).toEqual([]);

    let res = await app.post(`/api/extras/scheduled-jobs/${id}/approve/`, undefined, requester);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'You do not have permission to approve this request.' });

    const selfId = await app.createUser('self-approver');
    const self = await app.createToken(selfId);
    await app.post('/api/users/permissions/', { name: 'self approve', object_types: ['extras.job', 'extras.scheduledjob'], actions: ['view', 'change', 'approve', 'run'], users: [selfId] });
    const own = await app.post(`/api/extras/jobs/${createJob}/run/`, { data: { asn: 64702 } }, self);
    res = await app.post(`/api/extras/scheduled-jobs/${String(own.body.schedule.id)}/approve/`, undefined, self);
    expect(res.status).toBe(403);
    expect(res.body).toBe('You cannot approve your own job request!');

    res = await app.post(`/api/extras/scheduled-jobs/${id}/approve/`, undefined, approver);
    expect(res.status).toBe(200);
    expect(res.body.approved_by_user).toMatchObject({ username: 'approver' });
    expect(res.body.approved_at).not.toBeNull();
    await waitFor(async () => ((await asCount(64701)) === 1 ? true : null));
    const results = await resultsOfSchedule(id);
    expect(results[0].user).toMatchObject({ username: 'requester' });
  });

  test('deny deletes the request: an empty 200', async () => {
    const id = await request(64703);
    let res = await app.post(`/api/extras/scheduled-jobs/${id}/deny/`, undefined, requester);
    expect(res.status).toBe(403);
    res = await app.post(`/api/extras/scheduled-jobs/${id}/deny/`, undefined, approver);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await app.get(`/api/extras/scheduled-jobs/${id}/`)).status).toBe(404);
  });

  test('dry-run runs the request now with commit off', async () => {
    // A job that needs approval cannot have sensitive variables (the class says so).
    const id = await request(64704);
    const res = await app.post(`/api/extras/scheduled-jobs/${id}/dry-run/`, undefined, approver);
    expect(res.status).toBe(200);
    expect(res.body.status).toEqual({ value: 'pending', label: 'Pending' });
    const done = await waitFor(async () => {
      const r = await app.get(`/api/extras/job-results/${String(res.body.id)}/`);
      return (r.body.status as Obj).value === 'completed' ? r.body : null;
    });
    expect(done.job_kwargs).toEqual({ data: { asn: 64704, description: '' }, commit: false, task_queue: null });
    expect(await asCount(64704)).toBe(0);
  });
});

describe('API 1.2 class-path routes (pynautobot)', () => {
  test('GET and POST …/jobs/<class path>/run/ answer the job class object with the result', async () => {
    const path = '/api/extras/jobs/plugins/netinv_bgp.jobs/CreateAutonomousSystem/';
    const get = await app.get(path);
    expect(get.status).toBe(200);
    expect(get.body).toMatchObject({ id: 'plugins/netinv_bgp.jobs/CreateAutonomousSystem', pk: createJob, name: 'Create AS', vars: { asn: 'IntegerVar', description: 'StringVar' }, test_methods: [] });
    expect(get.body.url).toMatch(/\/api\/extras\/jobs\/plugins\/netinv_bgp\.jobs\/CreateAutonomousSystem\/$/);
    const run = await app.post(`${path}run/`, { data: { asn: 64801 }, commit: true });
    expect(run.status).toBe(200);
    expect(run.body.result).toMatchObject({ name: 'plugins/netinv_bgp.jobs/CreateAutonomousSystem', status: { value: 'pending' } });
    await waitFor(async () => ((await asCount(64801)) === 1 ? true : null));
    expect((await app.get('/api/extras/jobs/plugins/netinv_bgp.jobs/Nothing/')).status).toBe(404);
  });
});
