/**
 * The log and the request id: one line per request at info (JSON with NETINV_LOG_FORMAT=json,
 * text otherwise) on stderr, an X-Request-ID header on every response, taken from the request
 * when a proxy sent a sane one, and unexpected errors logged with their stack under that id.
 */
import { Tag } from '../../models/extras/tag';
import { startApp, type TestApp } from '../helpers/harness';

type Obj = Record<string, any>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What the server wrote to stderr: captured during each test (and the start), not printed. */
let written: string[] = [];
let spy: jest.SpyInstance | undefined;
const capture = () => {
  spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
};
const release = () => {
  spy?.mockRestore();
  spy = undefined;
};

let app: TestApp;
let text: TestApp;
beforeAll(async () => {
  capture();
  try {
    app = await startApp({ NETINV_LOG_LEVEL: 'info', NETINV_LOG_FORMAT: 'json' });
    // A second server on the same database, writing text.
    text = await startApp({ NETINV_LOG_LEVEL: 'info', NETINV_LOG_FORMAT: 'text' }, { databaseUrl: app.server.config.databaseUrl });
  } finally {
    release();
  }
});
afterAll(async () => {
  await text?.close();
  await app?.close();
});
beforeEach(() => {
  written = [];
  capture();
});
afterEach(release);

/** What was written to stderr while `send` ran, waiting (1 s at most) until `until` holds for the lines. */
async function stderrOf<T>(send: () => PromiseLike<T>, until: (lines: string[]) => boolean = () => true): Promise<{ res: T; lines: string[]; output: string }> {
  const from = written.length;
  const res = await send();
  const output = () => written.slice(from).join('');
  const lines = () => output().split('\n').filter(Boolean);
  // The request line is written when the response has finished, which the client may see first.
  for (let waited = 0; !until(lines()) && waited < 1000; waited += 10) await new Promise((r) => setTimeout(r, 10));
  return { res, lines: lines(), output: output() };
}

const events = (lines: string[]): Obj[] => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Obj);
const requestEvents = (lines: string[]) => events(lines).filter((e) => e.msg === 'request');
const hasRequestLine = (lines: string[]) => requestEvents(lines).length > 0;

describe('the request line', () => {
  test('JSON: method, path, status, duration, user and the request id of the response header', async () => {
    const { res, lines } = await stderrOf(() => app.get('/api/dcim/sites/?limit=1'), hasRequestLine);
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'];
    expect(id).toMatch(UUID);
    const logged = requestEvents(lines);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      pid: process.pid,
      msg: 'request',
      method: 'GET',
      path: '/api/dcim/sites/?limit=1',
      status: 200,
      duration_ms: expect.any(Number),
      user: 'admin',
      request_id: id,
    });
    expect(logged[0].duration_ms).toBeGreaterThanOrEqual(0);
  });

  test('an anonymous request is logged with user null, a refused one with its status', async () => {
    const { res, lines } = await stderrOf(() => app.get('/api/dcim/sites/', null), hasRequestLine);
    expect(res.status).toBe(403);
    expect(requestEvents(lines)).toEqual([expect.objectContaining({ method: 'GET', path: '/api/dcim/sites/', status: 403, user: null, request_id: res.headers['x-request-id'] })]);
  });

  test('text: one readable line', async () => {
    const { res, lines } = await stderrOf(
      () => text.get('/api/dcim/sites/?limit=1'),
      (l) => l.some((line) => line.includes(' GET /api/')),
    );
    expect(res.status).toBe(200);
    const id = res.headers['x-request-id'];
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z INFO  GET /api/dcim/sites/\\?limit=1 200 \\d+(\\.\\d)?ms user=admin-[0-9a-f]{8} request_id=${id}$`));
  });

  test('NETINV_LOG_LEVEL=warn drops it', async () => {
    const quiet = await startApp({ NETINV_LOG_LEVEL: 'warn', NETINV_LOG_FORMAT: 'json' }, { databaseUrl: app.server.config.databaseUrl });
    try {
      const { res, output } = await stderrOf(async () => {
        const r = await quiet.get('/api/dcim/sites/');
        await new Promise((resolve) => setTimeout(resolve, 50));
        return r;
      });
      expect(res.status).toBe(200);
      expect(output).toBe('');
    } finally {
      await quiet.close();
    }
  });

  test('neither the token, a refused token nor the body is logged', async () => {
    const refused = 'f'.repeat(40);
    const { res, output } = await stderrOf(
      async () => {
        const created = await app.post('/api/extras/tags/', { name: 'Body secret 7c1e', slug: 'body-secret-7c1e', content_types: ['dcim.site'] });
        await app.get('/api/dcim/sites/', refused);
        return created;
      },
      (l) => requestEvents(l).length >= 2,
    );
    expect(res.status).toBe(201);
    expect(requestEvents(output.split('\n').filter(Boolean)).map((e) => e.status)).toEqual([201, 403]);
    expect(output).not.toContain(app.token);
    expect(output).not.toContain(refused);
    expect(output.toLowerCase()).not.toContain('authorization');
    expect(output).not.toContain('7c1e');
  });
});

describe('X-Request-ID', () => {
  test('generated (a UUID, new for each request) when the request has none', async () => {
    const a = await app.get('/api/');
    const b = await app.get('/api/');
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  test("a proxy's sane id is answered and logged as is", async () => {
    const sent = 'edge-7f3a/01 2026';
    const { res, lines } = await stderrOf(() => app.get('/api/dcim/sites/').set('X-Request-ID', sent), hasRequestLine);
    expect(res.headers['x-request-id']).toBe(sent);
    expect(requestEvents(lines)[0].request_id).toBe(sent);
    const longest = 'a'.repeat(200);
    expect((await app.get('/api/').set('X-Request-ID', longest)).headers['x-request-id']).toBe(longest);
  });

  test('an id too long or not printable ASCII is replaced by a new one', async () => {
    for (const sent of ['a'.repeat(201), 'tab\there', 'caf\u00e9']) {
      const res = await app.get('/api/').set('X-Request-ID', sent);
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
  });

  test('on 404s, errors, redirects, OPTIONS and HEAD', async () => {
    const sent = 'proxy-given-id';
    const responses = await Promise.all([
      app.get('/api/no-such-app/').set('X-Request-ID', sent),
      app.get('/no-such-page').set('X-Request-ID', sent),
      app.get('/api/dcim/sites/00000000-0000-4000-8000-000000000000/').set('X-Request-ID', sent),
      app.post('/api/dcim/sites/', { name: '' }).set('X-Request-ID', sent),
      app.get('/api/dcim/sites/', null).set('X-Request-ID', sent),
      app.get('/api/dcim/sites').set('X-Request-ID', sent),
      app.options('/api/dcim/sites/').set('X-Request-ID', sent),
      app.raw().head('/api/dcim/sites/').set('Authorization', `Token ${app.token}`).set('X-Request-ID', sent),
    ]);
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 400, 403, 302, 200, 200]);
    for (const r of responses) expect(r.headers['x-request-id']).toBe(sent);
    const generated = await app.get('/no-such-page');
    expect(generated.headers['x-request-id']).toMatch(UUID);
  });

  test("the change log's request_id is the request's when it is a UUID, a new UUID otherwise", async () => {
    const uuid = '6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
    const first = await app.post('/api/extras/tags/', { name: 'Correlated', content_types: ['dcim.site'] }).set('X-Request-ID', uuid);
    expect(first.status).toBe(201);
    const changes = await app.get(`/api/extras/object-changes/?request_id=${uuid}`);
    expect(changes.body.results.map((c: Obj) => c.changed_object_id)).toEqual([first.body.id]);
    const second = await app.post('/api/extras/tags/', { name: 'Not a UUID id', content_types: ['dcim.site'] }).set('X-Request-ID', 'lb-12345');
    expect(second.status).toBe(201);
    expect(second.headers['x-request-id']).toBe('lb-12345');
    const change = await app.get(`/api/extras/object-changes/?changed_object_id=${second.body.id}`);
    expect(change.body.results).toHaveLength(1);
    expect(change.body.results[0].request_id).toMatch(UUID);
  });
});

describe('unexpected errors', () => {
  test("a 500 is logged with its stack and cause under the response's request id", async () => {
    const cause = new Error('disk on fire 41d2');
    const spy = jest.spyOn(Tag, 'clean').mockRejectedValueOnce(new Error('cannot write the tag', { cause }));
    try {
      const { res, lines } = await stderrOf(() => app.post('/api/extras/tags/', { name: 'Doomed', content_types: ['dcim.site'] }), hasRequestLine);
      expect(res.status).toBe(500);
      const id = res.headers['x-request-id'];
      expect(id).toMatch(UUID);
      expect(res.body.error).toContain(id);
      const errors = events(lines).filter((e) => e.level === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ msg: 'unhandled error', method: 'POST', path: '/api/extras/tags/', request_id: id });
      expect(errors[0].error).toMatch(/^Error: cannot write the tag\n\s+at /);
      expect(errors[0].error).toMatch(/\ncaused by: Error: disk on fire 41d2\n\s+at /);
      expect(requestEvents(lines)).toEqual([expect.objectContaining({ status: 500, request_id: id })]);
    } finally {
      spy.mockRestore();
    }
  });

  test('text: the stack follows the line, indented', async () => {
    const spy = jest.spyOn(Tag, 'clean').mockRejectedValueOnce(new Error('cannot write the tag either'));
    try {
      const { res, lines } = await stderrOf(
        () => text.post('/api/extras/tags/', { name: 'Doomed too', content_types: ['dcim.site'] }),
        (l) => l.some((line) => line.includes(' POST /api/')),
      );
      expect(res.status).toBe(500);
      const id = res.headers['x-request-id'];
      const at = lines.findIndex((l) => / ERROR unhandled error /.test(l));
      expect(lines[at]).toContain(`request_id=${id}`);
      expect(lines[at + 1]).toBe('    Error: cannot write the tag either');
      expect(lines[at + 2]).toMatch(/^\s{4}\s+at /);
    } finally {
      spy.mockRestore();
    }
  });
});
