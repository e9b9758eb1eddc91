/**
 * File variables: a job run sent as multipart/form-data (reference behaviour-jobs.md §1.4), the
 * variables as form fields and files, `_commit` and `_schedule_*` beside them; a file variable's
 * value is the file's text.
 */
import * as path from 'node:path';
import { Store } from '../../framework';
import { startApp, type TestApp } from '../helpers/harness';
import { waitFor } from '../helpers/wait';

const TS_JOBS = path.resolve(__dirname, '../fixtures/jobs');
type Obj = Record<string, unknown>;

let app: TestApp;
let job: string;

beforeAll(async () => {
  app = await startApp({ NETINV_JOBS_ROOT: TS_JOBS, NETINV_JOB_POLL_MS: '50' });
  const res = await app.get('/api/extras/jobs/?job_class_name=FileSummary&api_version=1.6');
  expect(res.body.count).toBe(1);
  job = String(res.body.results[0].id);
  expect((await app.patch(`/api/extras/jobs/${job}/`, { enabled: true })).status).toBe(200);
});
afterAll(async () => {
  await app?.close();
});

function multipart(fields: Array<[string, string]>, files: Array<[string, string, Buffer]>): { body: Buffer; type: string } {
  const boundary = 'netinvTestBoundary7d1c';
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const [name, filename, data] of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`), data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

async function post(form: { body: Buffer; type: string }) {
  return app.raw().post(`/api/extras/jobs/${job}/run/?api_version=1.6`).set('Authorization', `Token ${app.token}`).set('Accept', 'application/json').set('Content-Type', form.type).send(form.body);
}

test('GET variables describes the file variable', async () => {
  const res = await app.get(`/api/extras/jobs/${job}/variables/?api_version=1.6`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual([
    { name: 'upload', type: 'FileVar', required: true },
    { name: 'letters', type: 'MultiChoiceVar', required: false, choices: [['a', 'A'], ['b', 'B'], ['c', 'C']] },
  ]);
});

test('a multipart run gives the job the file as text and repeated fields as a list', async () => {
  const res = await post(multipart([['letters', 'a'], ['letters', 'c'], ['_commit', 'true']], [['upload', 'hosts.txt', Buffer.from('r1\nr2\nr3\n')]]));
  expect(res.status).toBe(201);
  const id = String(res.body.job_result.id);
  const done = await waitFor(async () => {
    const r = await app.get(`/api/extras/job-results/${id}/`);
    return ['completed', 'failed', 'errored'].includes((r.body.status as Obj).value as string) ? (r.body as Obj) : null;
  });
  expect(done.status).toEqual({ value: 'completed', label: 'Completed' });
  expect(done.data).toEqual({ output: { lines: 3, first: 'r1', letters: ['a', 'c'] } });
  const logs = await app.get(`/api/extras/job-results/${id}/logs/`);
  expect((logs.body as Obj[]).map((l) => l.message)).toEqual(['3 lines']);
});

test('a missing file, a file that is not text, an unknown field: Nautobot error bodies, nothing queued', async () => {
  const before = (await app.get('/api/extras/job-results/')).body.count as number;
  let res = await post(multipart([['letters', 'a']], []));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ errors: { upload: ['This field is required.'] } });
  res = await post(multipart([], [['upload', 'x.bin', Buffer.from([0xff, 0xfe, 0x00])]]));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ errors: { upload: ['The submitted file is not UTF-8 text.'] } });
  res = await post(multipart([['bogus', '1']], [['upload', 'a.txt', Buffer.from('x')]]));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ errors: { bogus: ['Job data contained an unknown property'] } });
  res = await post(multipart([['letters', 'z']], [['upload', 'a.txt', Buffer.from('x')]]));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ errors: { letters: ['Select a valid choice. z is not one of the available choices.'] } });
  expect((await app.get('/api/extras/job-results/')).body.count).toBe(before);
});

test('schedule and commit errors come under the _-prefixed form keys', async () => {
  let res = await post(multipart([['_schedule_interval', 'future'], ['_schedule_start_time', new Date(Date.now() + 3600_000).toISOString()]], [['upload', 'a.txt', Buffer.from('x')]]));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ _schedule_name: ['Please provide a name for the job schedule.'] });
  res = await post(multipart([['_schedule_name', 'x'], ['_schedule_interval', 'bogus']], [['upload', 'a.txt', Buffer.from('x')]]));
  expect(res.body).toEqual({ _schedule_interval: ['"bogus" is not a valid choice.'] });
  res = await post(multipart([['_commit', 'perhaps']], [['upload', 'a.txt', Buffer.from('x')]]));
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ _commit: ['Must be a valid boolean.'] });
  res = await post(multipart([['_task_queue', 'elsewhere']], [['upload', 'a.txt', Buffer.from('x')]]));
  expect(res.body).toEqual({ _task_queue: ['"elsewhere" is not a valid choice.'] });
});

test('a scheduled multipart run keeps the file for when it fires', async () => {
  const start = new Date(Date.now() + 3600_000).toISOString();
  const res = await post(multipart([['_schedule_name', 'nightly file'], ['_schedule_interval', 'future'], ['_schedule_start_time', start]], [['upload', 'a.txt', Buffer.from('one\ntwo\n')]]));
  expect(res.status).toBe(201);
  expect(res.body.job_result).toBeNull();
  expect(res.body.schedule).toMatchObject({ name: 'nightly file', interval: 'future' });
  const { server } = app;
  const stored = await new Store(server.db.reader, server.registry).get(server.registry.get('extras.scheduledjob')!, String(res.body.schedule.id));
  expect(stored?.kwargs).toEqual({ data: { upload: 'one\ntwo\n', letters: [] }, commit: true });
});

test('a malformed multipart body is a 400 parse error', async () => {
  const res = await post({ type: 'multipart/form-data; boundary=nope', body: Buffer.from('garbage') });
  expect(res.status).toBe(400);
  expect(Object.keys(res.body)).toEqual(['detail']);
  expect(String(res.body.detail)).toMatch(/^Multipart form parse error - /);
});
