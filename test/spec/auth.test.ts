/**
 * Authentication (spec "Authentication"; reference behaviour-auth.md §1–§5): token header parsing,
 * expiry, inactive users, read-only tokens, Basic provisioning on the tokens endpoint, token scoping.
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

const SITES = '/api/dcim/sites/';
const TOKENS = '/api/users/tokens/';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const withHeader = (value: string, path = SITES) => app.raw().get(path).set('Accept', 'application/json').set('Authorization', value);

describe('Authorization header', () => {
  test('no header: 403 with the DRF message, no challenge', async () => {
    const res = await app.get(SITES, null);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  test.each([
    ['Token', 'Invalid token header. No credentials provided.'],
    ['Token a b', 'Invalid token header. Token string should not contain spaces.'],
    ['Token 0123456789abcdef0123456789abcdef01234567', 'Invalid token'],
    ['Token short', 'Invalid token'],
  ])('%s → 403 %s', async (header, detail) => {
    const res = await withHeader(header);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail });
  });

  test('other schemes are ignored (anonymous)', async () => {
    for (const header of [`Bearer ${app.token}`, basic('admin', 'secret-password')]) {
      const res = await withHeader(header);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    }
  });

  test('scheme is case-insensitive and extra spaces are allowed', async () => {
    for (const header of [`token ${app.token}`, `TOKEN   ${app.token}`]) {
      const res = await withHeader(header);
      expect(res.status).toBe(200);
    }
  });

  test('expired token: 403 Token expired; future expiry works', async () => {
    const expired = await app.createToken(app.adminId, { expires: '2001-01-01T00:00:00Z' });
    let res = await app.get(SITES, expired);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Token expired' });
    const future = await app.createToken(app.adminId, { expires: '2999-01-01T00:00:00Z' });
    res = await app.get(SITES, future);
    expect(res.status).toBe(200);
  });

  test('token of an inactive user: 403 User inactive', async () => {
    const userId = await app.createUser('sleeper', { active: false });
    const key = await app.createToken(userId);
    const res = await app.get(SITES, key);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'User inactive' });
  });
});

describe('users without permissions', () => {
  let plain: string;
  beforeAll(async () => {
    plain = await app.createToken(await app.createUser('reader'));
  });

  test('a user without a view permission may not read', async () => {
    const res = await app.get(SITES, plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });

  test('a user without an add permission may not write; nothing is created', async () => {
    const res = await app.post('/api/extras/tags/', { name: 'x', slug: 'x' }, plain);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    const list = await app.get('/api/extras/tags/?slug=x');
    expect(list.body.count).toBe(0);
  });

  test('a read-only token of the superuser: 403 on every write, reads work', async () => {
    const readOnly = await app.createToken(app.adminId, { writeEnabled: false });
    expect((await app.get(SITES, readOnly)).status).toBe(200);
    const created = await app.post('/api/extras/tags/', { name: 'ro', slug: 'ro' });
    expect(created.status).toBe(201);
    for (const res of [
      await app.post('/api/extras/tags/', { name: 'ro2', slug: 'ro2' }, readOnly),
      await app.patch(`/api/extras/tags/${created.body.id}/`, { name: 'changed' }, readOnly),
      await app.put(`/api/extras/tags/${created.body.id}/`, { name: 'changed', slug: 'ro' }, readOnly),
      await app.delete(`/api/extras/tags/${created.body.id}/`, undefined, readOnly),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    }
    const after = await app.get(`/api/extras/tags/${created.body.id}/`);
    expect(after.body.name).toBe('ro');
  });
});

describe('token provisioning with Basic credentials', () => {
  const provision = (authorization: string, body?: unknown) => {
    const t = app.raw().post(TOKENS).set('Accept', 'application/json').set('Authorization', authorization);
    return body === undefined ? t : t.set('Content-Type', 'application/json').send(JSON.stringify(body));
  };

  test('superuser with an empty body: 201, generated 40-hex key that then authenticates', async () => {
    const res = await provision(basic('admin', 'secret-password'));
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(res.body.url);
    expect(res.body.key).toMatch(/^[0-9a-f]{40}$/);
    expect(res.body).toMatchObject({ write_enabled: true, expires: null, description: '' });
    const use = await app.get(SITES, res.body.key);
    expect(use.status).toBe(200);
  });

  test('body fields are honoured; the owner is always the authenticated user', async () => {
    const key = 'ab'.repeat(20);
    const res = await provision(basic('admin', 'secret-password'), {
      key, write_enabled: false, description: 'ansible', expires: '2999-01-01T00:00:00Z', user: 'someone-else',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ key, write_enabled: false, description: 'ansible', expires: '2999-01-01T00:00:00Z' });
    const mine = await app.get(`${TOKENS}?key=${key}`);
    expect(mine.body.count).toBe(1);
  });

  test('passwords may contain colons', async () => {
    await app.createUser('colon', { superuser: true, password: 'a:b:c' });
    const res = await provision(basic('colon', 'a:b:c'));
    expect(res.status).toBe(201);
  });

  test.each([
    ['Basic', 'Invalid basic header. No credentials provided.'],
    ['Basic a b', 'Invalid basic header. Credentials string should not contain spaces.'],
    ['Basic !!!not-base64', 'Invalid basic header. Credentials not correctly base64 encoded.'],
  ])('%s → 403', async (header, detail) => {
    const res = await provision(header);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail });
  });

  test('wrong password, unknown user and inactive user all read the same', async () => {
    await app.createUser('dormant', { active: false, superuser: true, password: 'pw-dormant' });
    for (const header of [basic('admin', 'wrong'), basic('nobody', 'x'), basic('dormant', 'pw-dormant')]) {
      const res = await provision(header);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Invalid username/password.' });
    }
  });

  test('provisioning needs users.add_token: 403 without it, 201 with it', async () => {
    const id = await app.createUser('plain', { password: 'pw-plain' });
    const refused = await provision(basic('plain', 'pw-plain'));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect(await app.server.db.reader.objects(`SELECT id FROM users_token WHERE user_id = ${app.server.db.dialect.placeholder(1)}`, [id])).toEqual([]);
    const grant = await app.post('/api/users/permissions/', { name: 'own tokens', users: [id], object_types: ['users.token'], actions: ['view', 'add'] });
    expect(grant.status).toBe(201);
    const res = await provision(basic('plain', 'pw-plain'));
    expect(res.status).toBe(201);
    const own = await app.get(TOKENS, res.body.key);
    expect(own.status).toBe(200);
    expect(own.body.count).toBe(1);
    expect(own.body.results[0].key).toBe(res.body.key);
  });

  test('keys are 40 hexadecimal characters and match exactly', async () => {
    const upper = 'ABCDEF0123456789ABCDEF0123456789ABCDEF01';
    const res = await provision(basic('admin', 'secret-password'), { key: upper });
    expect(res.status).toBe(201);
    expect(res.body.key).toBe(upper);
    expect((await app.get(SITES, upper)).status).toBe(200);
    const lowered = await app.get(SITES, upper.toLowerCase());
    expect(lowered.status).toBe(403);
    expect(lowered.body).toEqual({ detail: 'Invalid token' });
    const lower = 'abcdef0123456789abcdef0123456789abcdef99';
    expect((await provision(basic('admin', 'secret-password'), { key: lower })).status).toBe(201);
    expect((await app.get(SITES, lower.toUpperCase())).status).toBe(403);
    const bad = await provision(basic('admin', 'secret-password'), { key: 'z'.repeat(40) });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ key: ['A key is 40 hexadecimal characters.'] });
  });

  test('key validation: blank and wrong length are 400', async () => {
    let res = await provision(basic('admin', 'secret-password'), { key: '' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ key: ['This field cannot be blank.'] });
    res = await provision(basic('admin', 'secret-password'), { key: 'abc' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ key: ['Ensure this field has at least 40 characters.'] });
  });

  test('Basic works only on the tokens endpoint', async () => {
    const res = await withHeader(basic('admin', 'secret-password'), '/api/extras/tags/');
    expect(res.status).toBe(403);
  });
});

describe('token scoping', () => {
  test('every user, superusers included, sees only their own tokens', async () => {
    const otherId = await app.createUser('other');
    const otherKey = await app.createToken(otherId);
    await app.post('/api/users/permissions/', { name: 'other tokens', users: [otherId], object_types: ['users.token'], actions: ['view', 'change', 'delete'] });
    const otherList = await app.get(TOKENS, otherKey);
    expect(otherList.status).toBe(200);
    expect(otherList.body.count).toBe(1);
    expect(otherList.body.results[0].key).toBe(otherKey);
    const otherTokenId = otherList.body.results[0].id as string;

    const adminList = await app.get(`${TOKENS}?limit=0`);
    expect(adminList.body.results.map((t: { id: string }) => t.id)).not.toContain(otherTokenId);
    expect((await app.get(`${TOKENS}${otherTokenId}/`)).status).toBe(404);
    expect((await app.patch(`${TOKENS}${otherTokenId}/`, { description: 'x' })).status).toBe(404);
    const thirdId = await app.createUser('third');
    const thirdKey = await app.createToken(thirdId);
    await app.post('/api/users/permissions/', { name: 'third tokens', users: [thirdId], object_types: ['users.token'], actions: ['view', 'delete'] });
    const detail = await app.get(`${TOKENS}${otherTokenId}/`, thirdKey);
    expect(detail.status).toBe(404);
    expect(detail.body).toEqual({ detail: 'Not found.' });
    const del = await app.delete(`${TOKENS}${otherTokenId}/`, undefined, thirdKey);
    expect(del.status).toBe(404);
    expect((await app.get(TOKENS, otherKey)).status).toBe(200);
  });

  test('changing or deleting one\'s own token needs users.change_token / users.delete_token', async () => {
    const id = await app.createUser('viewer');
    const key = await app.createToken(id);
    await app.post('/api/users/permissions/', { name: 'viewer tokens', users: [id], object_types: ['users.token'], actions: ['view', 'add'] });
    const mine = (await app.get(TOKENS, key)).body.results[0];
    const patch = await app.patch(`${TOKENS}${mine.id}/`, { description: 'changed' }, key);
    expect(patch.status).toBe(403);
    const del = await app.delete(`${TOKENS}${mine.id}/`, undefined, key);
    expect(del.status).toBe(403);
    const after = await app.get(`${TOKENS}${mine.id}/`, key);
    expect(after.status).toBe(200);
    expect(after.body.description).toBe(mine.description);
    await app.post('/api/users/permissions/', { name: 'viewer edits', users: [id], object_types: ['users.token'], actions: ['change'] });
    expect((await app.patch(`${TOKENS}${mine.id}/`, { description: 'changed' }, key)).status).toBe(200);
  });

  test('user passwords are write-only and stored hashed', async () => {
    const res = await app.post('/api/users/users/', { username: 'newbie', password: 'pw-newbie-1' });
    expect(res.status).toBe(201);
    expect(res.body.password).toBeUndefined();
    const rows = await app.server.db.reader.objects(`SELECT password FROM users_user WHERE username = ${app.server.db.dialect.placeholder(1)}`, ['newbie']);
    expect(String(rows[0].password)).toMatch(/^scrypt\$/);
    expect(String(rows[0].password)).not.toContain('pw-newbie-1');
  });
});
