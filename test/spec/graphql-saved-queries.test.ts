/**
 * Saved GraphQL queries (reference behaviour-graphql.md §8, models/extras.md): syntax checked on
 * save, variables recomputed from the document, and the run action with its statuses.
 */
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
const PATH = '/api/extras/graphql-queries/';

beforeAll(async () => {
  app = await startApp();
  for (const slug of ['ams01', 'atl01']) expect((await app.post('/api/dcim/sites/', { name: slug.toUpperCase(), slug, status: 'active' })).status).toBe(201);
});
afterAll(async () => {
  await app?.close();
});

async function save(query: string, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await app.post(PATH, { name: `q${Math.random()}`, query, ...extra });
  expect(res.status).toBe(201);
  return res.body;
}

test('syntax errors are refused under query; variables come from the document', async () => {
  let res = await app.post(PATH, { name: 'broken', query: '{ sites { name }' });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ query: ['Syntax Error GraphQL (1:17) Expected Name, found EOF\n\n1: { sites { name }\n                   ^\n'] });
  const saved = await save('query ($name: [String], $limit: Int = 10) { sites(name: $name, limit: $limit) { name } }', { variables: { ignored: 1 } });
  expect(saved.variables).toEqual({ name: '', limit: '10' });
  expect(saved.slug).toMatch(/^q0/);
  // Unknown fields are only found when the query runs.
  res = await app.post(PATH, { name: 'unknown field', query: '{ sites { nope } }' });
  expect(res.status).toBe(201);
});

test('run: variables from the body, data as /api/graphql/ gives it', async () => {
  const saved = await save('query ($name: [String]) { sites(name: $name) { name } }');
  let res = await app.post(`${PATH}${saved.id}/run/`, { variables: { name: ['AMS01'] } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: { sites: [{ name: 'AMS01' }] } });
  // A bare variables object is ignored, as in Nautobot.
  res = await app.post(`${PATH}${saved.id}/run/`, { name: ['AMS01'] });
  expect(res.body).toEqual({ data: { sites: [{ name: 'AMS01' }, { name: 'ATL01' }] } });
  res = await app.post(`${PATH}${saved.id}/run/`);
  expect(res.status).toBe(200);
});

test('run: validation errors are a 200 without data; missing variables a 400; unknown id a 404', async () => {
  const invalid = await save('{ sites { nope } }');
  let res = await app.post(`${PATH}${invalid.id}/run/`, {});
  expect(res.status).toBe(200);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors[0].message).toMatch(/^Cannot query field "nope" on type "SiteType"/);
  const required = await save('query ($id: ID!) { site(id: $id) { name } }');
  res = await app.post(`${PATH}${required.id}/run/`, {});
  expect(res.status).toBe(400);
  expect(res.body.errors[0].message).toBe('Variable "$id" of required type "ID!" was not provided.');
  res = await app.post(`${PATH}00000000-0000-4000-8000-000000000000/run/`, {});
  expect(res.status).toBe(404);
  res = await app.post(`${PATH}not-a-uuid/run/`, {});
  expect(res.status).toBe(404);
});

test('run needs extras.add_graphqlquery and a write-enabled token', async () => {
  const saved = await save('{ sites { name } }');
  const user = await app.createUser('viewer');
  const key = await app.createToken(user);
  let res = await app.post(`${PATH}${saved.id}/run/`, {}, key);
  expect(res.status).toBe(403);
  const readOnly = await app.createToken(app.adminId, { writeEnabled: false });
  res = await app.post(`${PATH}${saved.id}/run/`, {}, readOnly);
  expect(res.status).toBe(403);
  expect((await app.post('/api/users/permissions/', { name: 'run', users: [user], object_types: ['extras.graphqlquery'], actions: ['add'] })).status).toBe(201);
  res = await app.post(`${PATH}${saved.id}/run/`, {}, key);
  expect(res.status).toBe(200);
  // Data follows the caller's view permissions: no site permission, no sites.
  expect(res.body).toEqual({ data: { sites: [] } });
});

test('saved queries are in the schema', async () => {
  await save('{ regions { name } }', { name: 'Regions' });
  const res = await app.post('/api/graphql/', { query: '{ graphql_queries(name: "Regions") { name slug query variables } }' });
  expect(res.body).toEqual({ data: { graphql_queries: [{ name: 'Regions', slug: 'regions', query: '{ regions { name } }', variables: {} }] } });
});
