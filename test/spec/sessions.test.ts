/**
 * Session login for the browsable API: the login form with its own CSRF token, the session
 * cookie, CSRF protection of unsafe API requests made with it, local-only redirects, logout.
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

function cookieOf(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  const raw = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const line = raw.find((c) => c.startsWith(`${name}=`));
  return line ? decodeURIComponent(line.split(';')[0].slice(name.length + 1)) : undefined;
}

async function login(username: string, password: string, next = '/api/dcim/sites/') {
  const page = await app.raw().get('/api-auth/login/');
  const csrf = cookieOf(page, 'csrftoken') as string;
  return app.raw().post('/api-auth/login/').set('Cookie', `csrftoken=${csrf}`).type('form')
    .send({ username, password, next, csrfmiddlewaretoken: csrf });
}

test('the login page carries a form and a CSRF cookie', async () => {
  const page = await app.raw().get('/api-auth/login/?next=/api/ipam/');
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  const csrf = cookieOf(page, 'csrftoken');
  expect(csrf).toMatch(/^[0-9a-f]{64}$/);
  expect(page.text).toContain(`value="${csrf}"`);
  expect(page.text).toContain('value="/api/ipam/"');
});

test('a login without the form token is refused', async () => {
  const res = await app.raw().post('/api-auth/login/').type('form').send({ username: 'admin', password: 'secret-password' });
  expect(res.status).toBe(403);
  expect(cookieOf(res, 'sessionid')).toBeUndefined();
});

test('wrong credentials show the form again without a session', async () => {
  const res = await login('admin', 'wrong');
  expect(res.status).toBe(200);
  expect(res.text).toContain('Please enter a correct username and password.');
  expect(cookieOf(res, 'sessionid')).toBeUndefined();
});

test('a session reads, writes only with X-CSRFToken, and ends at logout', async () => {
  const res = await login('admin', 'secret-password');
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe('/api/dcim/sites/');
  const session = cookieOf(res, 'sessionid') as string;
  const csrf = cookieOf(res, 'csrftoken') as string;
  expect(([res.headers['set-cookie']].flat() as string[]).find((c) => c.startsWith('sessionid='))).toMatch(/HttpOnly/);
  const cookie = `sessionid=${session}; csrftoken=${csrf}`;

  const read = await app.raw().get('/api/dcim/sites/').set('Cookie', cookie).set('Accept', 'application/json');
  expect(read.status).toBe(200);
  const noCsrf = await app.raw().post('/api/extras/tags/').set('Cookie', cookie).set('Content-Type', 'application/json').send('{"name":"s","slug":"s"}');
  expect(noCsrf.status).toBe(403);
  expect(noCsrf.body).toEqual({ detail: 'CSRF Failed: CSRF token missing or incorrect.' });
  const write = await app.raw().post('/api/extras/tags/').set('Cookie', cookie).set('X-CSRFToken', csrf).set('Content-Type', 'application/json').set('Accept', 'application/json').send('{"name":"s","slug":"s"}');
  expect(write.status).toBe(201);

  const out = await app.raw().post('/api-auth/logout/').set('Cookie', cookie);
  expect(out.status).toBe(302);
  const after = await app.raw().get('/api/dcim/sites/').set('Cookie', cookie).set('Accept', 'application/json');
  expect(after.status).toBe(403);
});

test('redirects after login stay on this site', async () => {
  for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil']) {
    const res = await login('admin', 'secret-password', next);
    expect(res.headers.location).toBe('/api/');
  }
});

test('an inactive user cannot log in', async () => {
  await app.createUser('gone', { active: false, password: 'pw-gone-1' });
  const res = await login('gone', 'pw-gone-1');
  expect(cookieOf(res, 'sessionid')).toBeUndefined();
});
