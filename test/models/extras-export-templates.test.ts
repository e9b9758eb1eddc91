/**
 * Export templates rendered through the REST API (`GET /api/extras/export-templates/<id>/render/`):
 * the template over its content type's filtered list, as the caller may see it, answered as a file.
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

type Obj = Record<string, any>;
const ET = '/api/extras/export-templates/';
const SITES = '/api/dcim/sites/';

async function created(res: { status: number; body: any }): Promise<Obj> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const template = async (body: Obj) => created(await app.post(ET, { content_type: 'dcim.site', ...body }));
const renderUrl = (t: Obj, query = '') => `${ET}${t.id}/render/${query}`;

const CSV = [
  'name,status,region,tenant',
  '{% for site in queryset -%}',
  '{{ site.name }},{{ site.status.value }},{{ site.region.name if site.region else "" }},{{ site.tenant.name | default("", true) if site.tenant else "" }}',
  '{% endfor %}',
].join('\n');

let csv: Obj;
let eu: Obj;
beforeAll(async () => {
  eu = await created(await app.post('/api/dcim/regions/', { name: 'EU' }));
  const us = await created(await app.post('/api/dcim/regions/', { name: 'US' }));
  const acme = await created(await app.post('/api/tenancy/tenants/', { name: 'Acme' }));
  await created(await app.post(SITES, [
    { name: 'ams1', status: 'active', region: eu.id, tenant: acme.id },
    { name: 'fra1', status: 'planned', region: eu.id },
    { name: 'nyc1', status: 'active', region: us.id },
  ]));
  csv = await template({ name: 'CSV', template_code: CSV, mime_type: 'text/csv', file_extension: 'csv' });
});

describe('render', () => {
  test('a CSV of the sites, in list order, with the file headers', async () => {
    const res = await app.get(renderUrl(csv));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="nautobot_sites.csv"');
    expect(res.text).toBe('name,status,region,tenant\nams1,active,EU,Acme\nfra1,planned,EU,\nnyc1,active,US,\n');
  });

  test("the list endpoint's filters choose the objects", async () => {
    const res = await app.get(renderUrl(csv, '?status=active'));
    expect(res.status).toBe(200);
    expect(res.text).toBe('name,status,region,tenant\nams1,active,EU,Acme\nnyc1,active,US,\n');
    expect((await app.get(renderUrl(csv, `?region_id=${eu.id}&status=planned`))).text).toBe('name,status,region,tenant\nfra1,planned,EU,\n');
    expect((await app.get(renderUrl(csv, '?name=none'))).text).toBe('name,status,region,tenant\n');
  });

  test('queryset holds the full REST representation of every page', async () => {
    const t = await template({ name: 'Keys', template_code: '{{ queryset | length }} {{ queryset[0].url }} {{ queryset[0].status }} {{ "custom_fields" in queryset[0] }}' });
    const res = await app.get(renderUrl(t, '?limit=1'));
    expect(res.text).toMatch(/^3 http:\/\/[^ ]+\/api\/dcim\/sites\/[0-9a-f-]{36}\/ Active True$/);
  });

  test('plain text by default, no extension without file_extension; CRLF becomes LF', async () => {
    const t = await template({ name: 'Names', template_code: '{% for s in queryset %}{{ s.name }}\r\n{% endfor %}' });
    const res = await app.get(renderUrl(t));
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="nautobot_sites"');
    expect(res.text).toBe('ams1\nfra1\nnyc1\n');
  });

  test('a restricted user renders only the objects they may view', async () => {
    const id = await app.createUser('eu-viewer');
    const key = await app.createToken(id);
    await created(await app.post('/api/users/permissions/', { name: 'eu sites', users: [id], object_types: ['dcim.site'], actions: ['view'], constraints: { region__slug: 'eu' } }));
    // The template itself needs view permission too.
    expect((await app.get(renderUrl(csv), key)).status).toBe(403);
    await created(await app.post('/api/users/permissions/', { name: 'templates', users: [id], object_types: ['extras.exporttemplate'], actions: ['view'] }));
    const res = await app.get(renderUrl(csv), key);
    expect(res.status).toBe(200);
    expect(res.text).toBe('name,status,region,tenant\nams1,active,EU,Acme\nfra1,planned,EU,\n');
    expect((await app.get(renderUrl(csv, '?status=active'), key)).text).toBe('name,status,region,tenant\nams1,active,EU,Acme\n');
    // Without view permission on the content type's model: refused.
    const other = await template({ content_type: 'tenancy.tenant', name: 'Tenants', template_code: '{% for t in queryset %}{{ t.name }}{% endfor %}' });
    expect((await app.get(renderUrl(other), key)).status).toBe(403);
    expect((await app.get(renderUrl(other))).text).toBe('Acme');
  });

  test('a template error is a 400 naming the template, never a 500', async () => {
    const syntax = await template({ name: 'Syntax', template_code: '{% for s in queryset %}{{ s.name }}' });
    const res = await app.get(renderUrl(syntax));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ template_code: ["There was an error rendering the selected export template (Syntax): missing '{% endfor %}'"] });
    for (const code of ['{{ queryset[0].name.missing.x }}', "{{ ''.__class__ }}", "{% include '/etc/passwd' %}", '{{ range(10**9) }}', "{{ queryset.constructor.constructor('return process')() }}"]) {
      const t = await template({ name: `bad ${code}`, template_code: code });
      const bad = await app.get(renderUrl(t));
      expect(bad.status).toBe(400);
      expect(bad.body.template_code[0]).toMatch(/^There was an error rendering the selected export template/);
    }
  });

  test('an unknown filter of the model is a 400 as on the list; ?export stays unknown on lists', async () => {
    const res = await app.get(renderUrl(csv, '?nosuchfilter=1'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual((await app.get(`${SITES}?nosuchfilter=1`)).body);
    expect(res.body).toEqual({ nosuchfilter: ['Unknown filter field'] });
    expect((await app.get(`${SITES}?export=CSV`)).status).toBe(400);
  });

  test('an unknown template is a 404; writing to render is not allowed', async () => {
    expect((await app.get(`${ET}00000000-0000-0000-0000-000000000000/render/`)).status).toBe(404);
    expect((await app.post(renderUrl(csv), {})).status).toBe(405);
  });
});
