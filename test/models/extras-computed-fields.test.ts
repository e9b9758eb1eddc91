/**
 * Computed fields: the definitions, and their values on objects (`include=computed_fields`, write
 * responses): templates rendered against the object's data, fallbacks, ordering, cost of a page.
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

type Obj = Record<string, any>;
const CF = '/api/extras/computed-fields/';
const SITES = '/api/dcim/sites/';

async function created(res: { status: number; body: any }): Promise<Obj> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
const computed = async (body: Obj) => created(await app.post(CF, body));

describe('definitions', () => {
  test('representation, slug from the label, brief form, uniqueness per content type', async () => {
    const c = await computed({ content_type: 'tenancy.tenant', label: 'Display Name', template: '{{ obj.name }}' });
    expect(Object.keys(c)).toEqual([
      'id', 'display', 'url', 'slug', 'label', 'description', 'content_type', 'template', 'fallback_value', 'weight', 'created', 'last_updated', 'notes_url',
    ]);
    expect(c).toMatchObject({ display: 'Display Name', slug: 'display_name', content_type: 'tenancy.tenant', fallback_value: '', weight: 100 });
    const brief = await app.get(`${CF}${c.id}/?brief=1`);
    expect(brief.body).toEqual({ id: c.id, display: 'Display Name', url: c.url, content_type: 'tenancy.tenant', label: 'Display Name' });
    const twice = await app.post(CF, { content_type: 'tenancy.tenant', label: 'Display Name', template: 'x' });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ non_field_errors: ['The fields content_type, label must make a unique set.'] });
    const elsewhere = await computed({ content_type: 'dcim.region', label: 'Display Name', template: 'x' });
    expect(elsewhere.slug).toBe('display_name-2');
    expect((await app.post(CF, { content_type: 'users.user', label: 'x', template: 'x' })).body).toEqual({ content_type: ['Invalid content type: users.user'] });
    expect((await app.post(CF, { content_type: 'dcim.site', label: 'x' })).body).toEqual({ template: ['This field is required.'] });
    const long = await app.post(CF, { content_type: 'dcim.site', label: 'long', template: 'x'.repeat(501) });
    expect(long.body).toEqual({ template: ['Ensure this field has no more than 500 characters.'] });
  });

  test('filters of the catalogue', async () => {
    expect((await app.get(`${CF}?content_type=dcim.region`)).body.count).toBe(1);
    expect((await app.get(`${CF}?content_type__n=dcim.region&slug__isw=display`)).body.count).toBe(1);
    expect((await app.get(`${CF}?template__ic=obj.name`)).body.count).toBe(1);
    expect((await app.get(`${CF}?q=display`)).body.count).toBe(2);
    expect((await app.get(`${CF}?label=x`)).status).toBe(400);
  });
});

describe('values on objects', () => {
  let site: Obj;
  beforeAll(async () => {
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'Acme' }));
    await created(await app.post('/api/extras/custom-fields/', { name: 'owner_team', label: 'Owner', type: 'text', content_types: ['dcim.site'] }));
    await computed({ content_type: 'dcim.site', label: 'Summary', weight: 10, template: '{{ obj.name | upper }} ({{ obj.status }}) for {{ obj.tenant }}' });
    await computed({ content_type: 'dcim.site', label: 'Owner', weight: 20, template: '{{ obj.cf.owner_team | default("nobody") }}' });
    // A missing attribute renders empty, as in Jinja; reading through one is an error.
    await computed({ content_type: 'dcim.site', label: 'Region', weight: 25, template: '[{{ obj.region.name }}]' });
    await computed({ content_type: 'dcim.site', label: 'Broken', weight: 30, template: '{{ obj.nothing.name }}', fallback_value: 'no region' });
    await computed({ content_type: 'dcim.site', label: 'Syntax', weight: 30, template: '{{ obj.name', fallback_value: 'bad template' });
    await computed({ content_type: 'dcim.site', label: 'Asn', weight: 5, template: '{% if obj.asn %}AS{{ obj.asn }}{% else %}none{% endif %}' });
    site = await created(await app.post(SITES, { name: 'ams01', status: 'planned', tenant: tenant.id, asn: 65001, custom_fields: { owner_team: 'noc' } }));
  });

  test('rendered against the object, as strings, by weight then slug; fallbacks on errors', async () => {
    const expected = { asn: 'AS65001', summary: 'AMS01 (Planned) for Acme', owner: 'noc', region: '[]', broken: 'no region', syntax: 'bad template' };
    expect(site.computed_fields).toEqual(expected);
    expect(Object.keys(site.computed_fields)).toEqual(['asn', 'summary', 'owner', 'region', 'broken', 'syntax']);
    const detail = await app.get(`${SITES}${site.id}/?include=computed_fields`);
    expect(detail.body.computed_fields).toEqual(expected);
    expect('relationships' in detail.body).toBe(false);
    // obj.cf is keyed by name whatever the API version shows.
    const v14 = await app.get(`${SITES}${site.id}/?include=computed_fields&api_version=1.4`);
    expect(v14.body.computed_fields.owner).toBe('noc');
    const bare = await created(await app.post(SITES, { name: 'bare', status: 'active' }));
    expect(bare.computed_fields).toMatchObject({ asn: 'none', summary: 'BARE (Active) for None', owner: 'nobody' });
  });

  test('absent unless included; an empty object on models without computed fields; never brief', async () => {
    expect('computed_fields' in (await app.get(`${SITES}${site.id}/`)).body).toBe(false);
    const list = await app.get(`${SITES}?include=computed_fields&name=ams01`);
    expect(list.body.results[0].computed_fields.summary).toBe('AMS01 (Planned) for Acme');
    const group = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'No computed' }));
    expect(group.computed_fields).toEqual({});
    expect('computed_fields' in (await app.get(`${SITES}${site.id}/?brief=1&include=computed_fields`)).body).toBe(false);
  });

  test('changes to definitions show on the next request', async () => {
    const extra = await computed({ content_type: 'dcim.site', label: 'Later', template: '{{ obj.slug }}' });
    expect((await app.get(`${SITES}${site.id}/?include=computed_fields`)).body.computed_fields.later).toBe('ams01');
    await app.delete(`${CF}${extra.id}/`);
    expect('later' in (await app.get(`${SITES}${site.id}/?include=computed_fields`)).body.computed_fields).toBe(false);
  });

  test('a page costs the same number of queries whatever its size', async () => {
    for (let i = 0; i < 10; i++) await created(await app.post(SITES, { name: `cost ${i}`, status: 'active' }));
    const cost = async (limit: number) => {
      await app.get(`${SITES}?limit=${limit}&include=computed_fields`); // the configuration caches are warm, as on a server between requests
      const start = app.queries();
      const res = await app.get(`${SITES}?limit=${limit}&include=computed_fields`);
      expect(res.body.results).toHaveLength(limit);
      return app.queries() - start;
    };
    expect(await cost(2)).toBe(await cost(10));
  });
});
