/**
 * "Try it out" on /api/docs/ for a logged-in session: the page carries the session's CSRF token,
 * the served script's request interceptor sends it as X-CSRFToken on unsafe methods (from the
 * csrftoken cookie, as Django's pages do) and turns a bare key typed into Authorize into
 * `Token <key>`; a session write made with those headers succeeds, one without is refused. In
 * headless Chromium (when installed) the real Swagger UI runs a POST through "Try it out".
 *
 * NETINV_TEST_SCREENSHOTS=<dir> keeps a screenshot of the page after the POST.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { Browser, chromiumPath } from '../helpers/chromium';
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();
const PASSWORD = 'secret-password';

type Request = { url: string; method: string; headers: Record<string, string>; body?: string };
type Interceptor = (request: Request) => Request;

function cookieOf(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  const raw = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const line = raw.find((c) => c.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.split(';')[0].slice(name.length + 1)) : undefined;
}

async function login(): Promise<{ session: string; csrf: string }> {
  const page = await app.raw().get('/api-auth/login/');
  const form = cookieOf(page, 'csrftoken') as string;
  const res = await app.raw().post('/api-auth/login/').set('Cookie', `csrftoken=${form}`).type('form')
    .send({ username: 'admin', password: PASSWORD, next: '/api/docs/', csrfmiddlewaretoken: form });
  expect(res.status).toBe(302);
  return { session: cookieOf(res, 'sessionid') as string, csrf: cookieOf(res, 'csrftoken') as string };
}

/**
 * Runs the served docs script against a stand-in for Swagger UI and the page: returns the
 * configuration it passed to SwaggerUIBundle.
 */
async function docsScript(page: { cookie: string; metaToken: string | null }): Promise<{ url: string; requestInterceptor: Interceptor }> {
  const res = await app.raw().get('/api/docs/static/netinv-docs.js');
  expect(res.status).toBe(200);
  let config: { url: string; requestInterceptor: Interceptor } | undefined;
  const bundle = Object.assign((c: typeof config) => (config = c), { presets: { apis: {} } });
  const root = { getAttribute: (name: string) => ({ 'data-schema-url': '/api/swagger/?api_version=1.6', 'data-api-version': '1.6' })[name] ?? null };
  const document = {
    cookie: page.cookie,
    getElementById: () => root,
    querySelector: (selector: string) => (selector === 'meta[name="csrf-token"]' && page.metaToken !== null ? { getAttribute: () => page.metaToken } : null),
  };
  const window: Record<string, unknown> = {};
  vm.runInNewContext(res.text, { window, document, SwaggerUIBundle: bundle, SwaggerUIStandalonePreset: {} });
  expect(config).toBeDefined();
  return config as NonNullable<typeof config>;
}

describe('the docs script', () => {
  test('unsafe methods carry X-CSRFToken from the csrftoken cookie, else from the page; safe ones do not', async () => {
    const fromCookie = await docsScript({ cookie: 'theme=dark; csrftoken=abc123; other=1', metaToken: 'from-page' });
    expect(fromCookie.url).toBe('/api/swagger/?api_version=1.6');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post']) {
      expect(fromCookie.requestInterceptor({ url: '/api/extras/tags/', method, headers: {} }).headers['X-CSRFToken']).toBe('abc123');
    }
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(fromCookie.requestInterceptor({ url: '/api/extras/tags/', method, headers: {} }).headers).not.toHaveProperty('X-CSRFToken');
    }
    const fromPage = await docsScript({ cookie: '', metaToken: 'from-page' });
    expect(fromPage.requestInterceptor({ url: '/api/extras/tags/', method: 'DELETE', headers: {} }).headers['X-CSRFToken']).toBe('from-page');
    const none = await docsScript({ cookie: '', metaToken: null });
    expect(none.requestInterceptor({ url: '/api/extras/tags/', method: 'POST', headers: {} }).headers).not.toHaveProperty('X-CSRFToken');
  });

  test('a bare key from Authorize becomes `Token <key>`; `Token <key>` is left alone; the version is asked for', async () => {
    const { requestInterceptor } = await docsScript({ cookie: '', metaToken: null });
    expect(requestInterceptor({ url: '/api/', method: 'GET', headers: { Authorization: ' 0123abcd ' } }).headers.Authorization).toBe('Token 0123abcd');
    expect(requestInterceptor({ url: '/api/', method: 'GET', headers: { Authorization: 'Token 0123abcd' } }).headers.Authorization).toBe('Token 0123abcd');
    expect(requestInterceptor({ url: '/api/', method: 'GET', headers: {} }).headers.Accept).toBe('application/json; version=1.6');
    // Swagger UI's own lower-case `accept: */*` is replaced, not doubled.
    expect(requestInterceptor({ url: '/api/', method: 'GET', headers: { accept: '*/*' } }).headers).toEqual({ accept: 'application/json; version=1.6' });
    expect(requestInterceptor({ url: '/api/', method: 'GET', headers: { accept: 'application/json; version=1.3' } }).headers).toEqual({ accept: 'application/json; version=1.3' });
  });
});

describe('a logged-in session', () => {
  test('the page carries its CSRF token and is not cached; a token caller gets none', async () => {
    const { session, csrf } = await login();
    const page = await app.raw().get('/api/docs/').set('Cookie', `sessionid=${session}; csrftoken=${csrf}`).set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<meta name="csrf-token" content="${csrf}">`);
    expect(page.headers['cache-control']).toBe('no-store');
    const byToken = await app.raw().get('/api/docs/').set('Authorization', `Token ${app.token}`).set('Accept', 'text/html');
    expect(byToken.text).not.toContain('csrf-token');
  });

  test('a POST, PATCH and DELETE made with the headers the interceptor adds succeed; without them they are refused', async () => {
    const { session, csrf } = await login();
    const cookie = `sessionid=${session}; csrftoken=${csrf}`;
    const { requestInterceptor } = await docsScript({ cookie: `csrftoken=${csrf}`, metaToken: csrf });
    const send = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown, intercept = true) => {
      const base: Request = { url, method, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) };
      const request = intercept ? requestInterceptor(base) : base;
      let test = app.raw()[method.toLowerCase() as 'post' | 'patch' | 'delete'](request.url).set('Cookie', cookie);
      for (const [k, v] of Object.entries(request.headers)) test = test.set(k, v);
      return request.body ? test.send(request.body) : test;
    };
    const refused = await send('POST', '/api/extras/tags/', { name: 'Docs refused', slug: 'docs-refused' }, false);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'CSRF Failed: CSRF token missing or incorrect.' });
    const created = await send('POST', '/api/extras/tags/', { name: 'Docs session', slug: 'docs-session' });
    expect(created.status).toBe(201);
    const changed = await send('PATCH', `/api/extras/tags/${created.body.id}/`, { description: 'from the docs page' });
    expect(changed.status).toBe(200);
    expect(changed.body.description).toBe('from the docs page');
    expect((await send('DELETE', `/api/extras/tags/${created.body.id}/`)).status).toBe(204);
  });
});

const executable = chromiumPath();
(executable ? test : test.skip)(`Swagger UI's "Try it out" posts with a browser session${executable ? '' : ' (skipped: Chromium is not installed)'}`, async () => {
  const browser = await Browser.launch(executable as string);
  try {
    const page = await browser.newPage({}, { width: 1280, height: 1600 });
    // Log in as a person would: the login page sets the form's cookie, the form posts it back.
    await page.goto(`${app.baseUrl}/api-auth/login/?next=/api/`);
    await page.evaluate<number>(`(async () => {
      const token = document.querySelector('input[name="csrfmiddlewaretoken"]').value;
      const body = new URLSearchParams({ username: 'admin', password: ${JSON.stringify(PASSWORD)}, next: '/api/', csrfmiddlewaretoken: token });
      return (await fetch('/api-auth/login/', { method: 'POST', body, credentials: 'same-origin' })).status;
    })()`);
    await page.goto(`${app.baseUrl}/api/docs/?api_version=1.6#/extras/extras_tags_create`);
    const op = '#operations-extras-extras_tags_create';
    await page.waitFor(`document.querySelector('${op} .try-out__btn')`, 30_000);
    await page.evaluate<void>(`document.querySelector('${op} .try-out__btn').click()`);
    await page.waitFor(`document.querySelector('${op} textarea.body-param__text')`);
    await page.evaluate<void>(`(() => {
      const area = document.querySelector('${op} textarea.body-param__text');
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set;
      setter.call(area, JSON.stringify({ name: 'Tried out', slug: 'tried-out', content_types: ['dcim.site'] }));
      area.dispatchEvent(new Event('input', { bubbles: true }));
    })()`);
    await page.evaluate<void>(`document.querySelector('${op} .execute').click()`);
    await page.waitFor(`document.querySelector('${op} .live-responses-table tr.response .response-col_status')`, 30_000);
    const status = await page.evaluate<string>(`document.querySelector('${op} .live-responses-table tr.response .response-col_status').textContent.trim()`);
    const dir = process.env.NETINV_TEST_SCREENSHOTS;
    if (dir) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'docs-try-it-out.png'), await page.screenshot());
    }
    expect(status).toBe('201');
    const tags = await app.get('/api/extras/tags/?slug=tried-out');
    expect(tags.body.count).toBe(1);
  } finally {
    await browser.close();
  }
}, 90_000);
