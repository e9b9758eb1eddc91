/**
 * GraphiQL at /graphql/ (reference behaviour-graphql.md §1): for a logged-in browser session only,
 * anonymous visitors and bare tokens are sent to the login page. In headless Chromium the page
 * loads its assets from this server (no CDN), logs in, runs a query through /api/graphql/ with the
 * session and its CSRF token, and shows the result; a screenshot is written for inspection.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Browser, chromiumPath } from '../helpers/chromium';
import { startApp, type TestApp } from '../helpers/harness';

const executable = chromiumPath();
const withChromium = executable ? describe : describe.skip;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
  expect((await app.post('/api/dcim/sites/', { name: 'AMS01', slug: 'ams01', status: 'active' })).status).toBe(201);
});
afterAll(async () => {
  await app?.close();
});

test('anonymous visitors and bare tokens go to the login page', async () => {
  let res = await app.raw().get('/graphql/');
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe('/api-auth/login/?next=%2Fgraphql%2F');
  res = await app.raw().get('/graphql/').set('Authorization', `Token ${app.token}`);
  expect(res.status).toBe(302);
});

test('the assets come from this server', async () => {
  for (const asset of ['react.production.min.js', 'react-dom.production.min.js', 'graphiql.min.js', 'graphiql.min.css']) {
    const res = await app.raw().get(`/graphql/static/${asset}`);
    expect([asset, res.status]).toEqual([asset, 200]);
  }
});

test('a session POST to /api/graphql/ needs the CSRF token', async () => {
  const agent = app.raw();
  const login = await agent.get('/api-auth/login/');
  const loginCsrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(login.text)?.[1] as string;
  const cookie = (login.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
  const done = await agent.post('/api-auth/login/').set('Cookie', cookie).type('form').send({ username: 'admin', password: 'secret-password', csrfmiddlewaretoken: loginCsrf, next: '/graphql/' });
  expect(done.status).toBe(302);
  const session = (done.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
  const sessionCookie = session.join('; ');
  const csrf = session.find((c) => c.startsWith('csrftoken='))?.slice('csrftoken='.length) as string;
  let res = await agent.post('/api/graphql/').set('Cookie', sessionCookie).send({ query: '{ sites { name } }' });
  expect(res.status).toBe(403);
  expect(res.body.detail).toMatch(/^CSRF Failed/);
  res = await agent.post('/api/graphql/').set('Cookie', sessionCookie).set('X-CSRFToken', csrf).send({ query: '{ sites { name } }' });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: { sites: [{ name: 'AMS01' }] } });
  res = await agent.get('/graphql/').set('Cookie', sessionCookie);
  expect(res.status).toBe(200);
  expect(res.text).toContain('/graphql/static/graphiql.min.js');
});

withChromium('in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await Browser.launch(executable as string);
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('log in, run a query, see its result', async () => {
    const page = await browser.newPage();
    const query = '{ sites { name slug } }';
    await page.goto(`${app.baseUrl}/graphql/?query=${encodeURIComponent(query)}`);
    expect(await page.evaluate<string>('location.pathname')).toBe('/api-auth/login/');
    await page.evaluate<void>(`(() => {
      document.querySelector('input[name=username]').value = 'admin';
      document.querySelector('input[name=password]').value = 'secret-password';
      document.querySelector('form').submit();
    })()`);
    await page.waitFor('location.pathname === "/graphql/" && document.querySelector(".graphiql-execute-button")');
    await page.evaluate<void>('document.querySelector(".graphiql-execute-button").click()');
    await page.waitFor('document.querySelector(".result-window") && document.querySelector(".result-window").textContent.includes("ams01")');
    const result = await page.evaluate<string>('document.querySelector(".result-window").textContent');
    expect(result).toContain('"name": "AMS01"');
    const png = await page.screenshot();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    fs.writeFileSync(path.join(os.tmpdir(), 'netinv-graphiql.png'), png);
  }, 60_000);
});
