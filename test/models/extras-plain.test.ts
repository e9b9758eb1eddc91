/**
 * The plain-data extras endpoints: notes on any object, custom links, export templates, statuses
 * (usable by the models they name as soon as they exist), content types and /api/status/.
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

type Obj = Record<string, any>;
let seq = 0;
async function made(path: string, body: Obj): Promise<Obj> {
  const res = await app.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

describe('notes', () => {
  const NOTES = '/api/extras/notes/';

  test('a note on a site: author from the requester, nested object, generated slug, oldest first', async () => {
    const site = await made('/api/dcim/sites/', { name: `Noted site ${++seq}`, status: 'active' });
    const first = await made(NOTES, { assigned_object_type: 'dcim.site', assigned_object_id: site.id, note: 'Rack **A** is full', user_name: 'forged', user: null });
    expect(Object.keys(first)).toEqual([
      'id', 'display', 'url', 'user', 'user_name', 'assigned_object_type', 'assigned_object_id', 'assigned_object', 'note', 'slug', 'created', 'last_updated',
    ]);
    expect(first.user).toMatchObject({ id: app.adminId });
    expect(first.user_name).not.toBe('forged');
    expect(first.assigned_object).toMatchObject({ id: site.id, display: site.name, url: site.url });
    expect(first.slug).toMatch(new RegExp(`^noted-site-${seq}-\\d{4}-`));
    expect(first.display).toBe(first.slug);
    const second = await made(NOTES, { assigned_object_type: 'dcim.site', assigned_object_id: site.id, note: 'second' });
    expect(second.slug).not.toBe(first.slug);
    const listed = await app.get(`${NOTES}?assigned_object_id=${site.id}`);
    expect(listed.body.results.map((n: Obj) => n.note)).toEqual(['Rack **A** is full', 'second']);
    expect((await app.get(`${NOTES}?assigned_object_type=dcim.site&q=rack`)).body.count).toBe(1);
    const brief = await app.get(`${NOTES}${first.id}/?brief=1`);
    expect(Object.keys(brief.body)).toEqual(['id', 'display', 'url', 'assigned_object', 'note', 'user', 'slug']);
  });

  test('notes attach to objects of any model, and only to existing ones', async () => {
    const vrf = await made('/api/ipam/vrfs/', { name: `VRF ${++seq}` });
    const note = await made('/api/extras/notes/', { assigned_object_type: 'ipam.vrf', assigned_object_id: vrf.id, note: 'x' });
    expect(note.assigned_object).toMatchObject({ id: vrf.id });
    const missing = await app.post('/api/extras/notes/', { assigned_object_type: 'ipam.vrf', assigned_object_id: '3f6d2b7e-9a41-4c1e-8f0a-2d5b6c7e8f90', note: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ assigned_object_id: ['Related object not found using the provided ID: 3f6d2b7e-9a41-4c1e-8f0a-2d5b6c7e8f90'] });
    const unknownType = await app.post('/api/extras/notes/', { assigned_object_type: 'dcim.nothing', assigned_object_id: vrf.id, note: 'x' });
    expect(unknownType.body).toEqual({ assigned_object_type: ['Invalid content type: dcim.nothing'] });
    const noObject = await app.post('/api/extras/notes/', { note: 'x' });
    expect(noObject.status).toBe(400);
    expect(Object.keys(noObject.body).sort()).toEqual(['assigned_object_id', 'assigned_object_type']);
  });
});

describe('/notes/ under an object', () => {
  test('POST attaches a note to the object, GET lists them paginated; unknown objects are 404', async () => {
    const site = await made('/api/dcim/sites/', { name: `Annotated ${++seq}`, status: 'active' });
    expect(site.notes_url).toBe(`${site.url}notes/`);
    const other = await made('/api/dcim/sites/', { name: `Other ${seq}`, status: 'active' });
    await made('/api/extras/notes/', { assigned_object_type: 'dcim.site', assigned_object_id: other.id, note: 'elsewhere' });
    const posted = await app.post(`/api/dcim/sites/${site.id}/notes/`, { note: 'first', assigned_object_id: other.id });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ note: 'first', assigned_object_type: 'dcim.site', assigned_object_id: site.id, user: { id: app.adminId } });
    expect((await app.post(`/api/dcim/sites/${site.id}/notes/`, { note: 'second' })).status).toBe(201);
    const listed = await app.get(`/api/dcim/sites/${site.id}/notes/?limit=1`);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ count: 2, previous: null });
    expect(listed.body.results.map((n: Obj) => n.note)).toEqual(['first']);
    expect(listed.body.next).toMatch(new RegExp(`/api/dcim/sites/${site.id}/notes/\\?limit=1&offset=1$`));
    expect((await app.get(`/api/extras/notes/${posted.body.id}/`)).body.assigned_object).toMatchObject({ id: site.id });
    expect((await app.post(`/api/dcim/sites/${site.id}/notes/`, {})).body).toEqual({ note: ['This field is required.'] });
    const unknown = '3f6d2b7e-9a41-4c1e-8f0a-2d5b6c7e8f90';
    expect((await app.get(`/api/dcim/sites/${unknown}/notes/`)).status).toBe(404);
    expect((await app.post(`/api/dcim/sites/${unknown}/notes/`, { note: 'x' })).status).toBe(404);
    const readOnly = await app.createToken(app.adminId, { writeEnabled: false });
    expect((await app.post(`/api/dcim/sites/${site.id}/notes/`, { note: 'x' }, readOnly)).status).toBe(403);
    expect((await app.get(`/api/dcim/sites/${site.id}/notes/`, readOnly)).body.count).toBe(2);
  });
});

describe('custom links', () => {
  const LINKS = '/api/extras/custom-links/';

  test('representation, plain button class, required new_window, unique name, filters', async () => {
    const link = await made(LINKS, { name: 'Docs', content_type: 'dcim.site', text: 'Docs', target_url: 'https://docs.example/{{ obj.slug }}', new_window: true, button_class: 'primary' });
    expect(Object.keys(link)).toEqual([
      'id', 'display', 'url', 'target_url', 'name', 'content_type', 'text', 'weight', 'group_name', 'button_class', 'new_window', 'created', 'last_updated', 'notes_url',
    ]);
    expect(link).toMatchObject({ display: 'Docs', weight: 100, group_name: '', button_class: 'primary', new_window: true });
    expect((await app.post(LINKS, { name: 'no-window', content_type: 'dcim.site', text: 'x', target_url: 'x' })).body).toEqual({ new_window: ['This field is required.'] });
    const twice = await app.post(LINKS, { name: 'Docs', content_type: 'dcim.site', text: 'x', target_url: 'x', new_window: false });
    expect(twice.status).toBe(400);
    expect((await app.post(LINKS, { name: 'bad', content_type: 'dcim.site', text: 'x', target_url: 'x', new_window: false, button_class: 'pink' })).status).toBe(400);
    expect((await app.get(`${LINKS}?content_type=dcim.site&button_class=primary&new_window=true`)).body.count).toBe(1);
    expect((await app.get(`${LINKS}?content_type=dcim.device`)).body.count).toBe(0);
  });
});

describe('export templates', () => {
  const TEMPLATES = '/api/extras/export-templates/';

  test('stored as sent; unique per content type and name', async () => {
    const t = await made(TEMPLATES, { content_type: 'dcim.site', name: 'CSV', template_code: '{% for s in queryset %}{{ s.name }}{% endfor %}', file_extension: '.csv' });
    expect(Object.keys(t)).toEqual([
      'id', 'display', 'url', 'content_type', 'owner_content_type', 'owner_object_id', 'owner', 'name', 'description', 'template_code', 'mime_type',
      'file_extension', 'created', 'last_updated', 'notes_url',
    ]);
    expect(t).toMatchObject({ display: 'dcim | site: CSV', owner: null, mime_type: '', file_extension: '.csv' });
    const twice = await app.post(TEMPLATES, { content_type: 'dcim.site', name: 'CSV', template_code: 'x' });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ __all__: ['An ExportTemplate with this name and content type already exists.'] });
    await made(TEMPLATES, { content_type: 'dcim.device', name: 'CSV', template_code: 'x' });
    expect((await app.get(`${TEMPLATES}?name=CSV`)).body.count).toBe(2);
    expect((await app.post(TEMPLATES, { content_type: 'dcim.site', name: 'no code' })).body).toEqual({ template_code: ['This field is required.'] });
  });
});

describe('statuses', () => {
  test('a new status is accepted at once by the models it names, and only by them', async () => {
    const status = await made('/api/extras/statuses/', { name: `Burn-in ${++seq}`, content_types: ['dcim.site', 'dcim.device'] });
    expect(status.content_types).toEqual(['dcim.device', 'dcim.site']);
    const site = await made('/api/dcim/sites/', { name: `Burning ${seq}`, status: status.slug });
    expect(site.status).toEqual({ value: status.slug, label: status.name });
    const prefix = await app.post('/api/ipam/prefixes/', { prefix: '10.77.0.0/16', status: status.slug });
    expect(prefix.status).toBe(400);
    expect(prefix.body).toEqual({ status: [`Object with slug=${status.slug} does not exist.`] });
    // Widening the content types takes effect on the next request.
    expect((await app.patch(`/api/extras/statuses/${status.id}/`, { content_types: ['dcim.site', 'dcim.device', 'ipam.prefix'] })).status).toBe(200);
    expect((await app.post('/api/ipam/prefixes/', { prefix: '10.77.0.0/16', status: status.slug })).status).toBe(201);
    // In use: deleting it is refused.
    expect((await app.delete(`/api/extras/statuses/${status.id}/`)).status).toBe(409);
  });

  test('content_types are required and must name status-capable models', async () => {
    expect((await app.post('/api/extras/statuses/', { name: 'Nowhere' })).body).toEqual({ content_types: ['This field is required.'] });
    expect((await app.post('/api/extras/statuses/', { name: 'Tenants', content_types: ['tenancy.tenant'] })).status).toBe(400);
  });
});

describe('content types', () => {
  const TYPES = '/api/extras/content-types/';

  test('every model, integer ids, ordered by app label and model, read-only', async () => {
    const list = await app.get(`${TYPES}?limit=0`);
    expect(list.status).toBe(200);
    const labels = list.body.results.map((c: Obj) => `${c.app_label}.${c.model}`);
    expect(labels).toEqual(expect.arrayContaining(['dcim.device', 'extras.note', 'ipam.prefix', 'auth.group', 'contenttypes.contenttype']));
    const pairs = list.body.results.map((c: Obj) => [c.app_label, c.model]);
    const byAppThenModel = (a: string[], b: string[]) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : 1);
    expect(pairs).toEqual([...pairs].sort(byAppThenModel));
    const deviceType = list.body.results.find((c: Obj) => c.app_label === 'dcim' && c.model === 'devicetype');
    expect(deviceType).toEqual({ id: expect.any(Number), display: 'dcim | device type', url: expect.stringMatching(new RegExp(`${TYPES}${deviceType.id}/$`)), app_label: 'dcim', model: 'devicetype' });
    expect((await app.get(`${TYPES}${deviceType.id}/`)).body).toEqual(deviceType);
    expect((await app.get(`${TYPES}?app_label=dcim&model=devicetype`)).body.results).toEqual([deviceType]);
    expect((await app.get(`${TYPES}?q=devicety`)).body.count).toBe(1);
    expect((await app.get(`${TYPES}?id=${deviceType.id}`)).body.count).toBe(1);
    expect((await app.post(TYPES, { app_label: 'x', model: 'y' })).status).toBe(405);
    expect((await app.delete(`${TYPES}${deviceType.id}/`)).status).toBe(405);
    expect((await app.get(`${TYPES}999999/`)).status).toBe(404);
  });

  test('a restarted server keeps the ids', async () => {
    const before = (await app.get('/api/extras/content-types/?limit=0')).body.results;
    const { syncContentTypes } = await import('../../models/extras');
    await syncContentTypes(app.server.db, app.server.registry);
    expect((await app.get('/api/extras/content-types/?limit=0')).body.results).toEqual(before);
  });
});

describe('/api/status/', () => {
  test('versions, applications and plugins under hyphenated keys, for authenticated users only', async () => {
    const res = await app.get('/api/status/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(
      ['celery-workers-running', 'django-version', 'installed-apps', 'nautobot-version', 'netinv-version', 'node-version', 'plugins', 'python-version', 'rq-workers-running'].sort(),
    );
    expect(res.body['nautobot-version']).toBe('1.6.32');
    expect(res.body['installed-apps']).toHaveProperty(['netinv.extras']);
    expect(Object.keys(res.body['installed-apps'])).toEqual([...Object.keys(res.body['installed-apps'])].sort());
    expect((await app.get('/api/status/', null)).status).toBe(403);
  });
});
