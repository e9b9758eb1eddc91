/**
 * The special rules of the first models, as the model catalogue gives them: statuses per content
 * type, tags, tenancy and region trees, sites and their relations.
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

const created = async (res: { status: number; body: any }) => {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any>;
};
const names = (res: { body: { results: Array<{ name: string }> } }) => res.body.results.map((r) => r.name);

describe('extras.status', () => {
  test('built-in statuses exist for sites, offered by OPTIONS ordered by name', async () => {
    const res = await app.get('/api/extras/statuses/?content_types=dcim.site&limit=0');
    expect(res.status).toBe(200);
    expect(res.body.results.map((s: { slug: string }) => s.slug).sort()).toEqual(['active', 'decommissioning', 'planned', 'retired', 'staging']);
    const options = await app.options('/api/dcim/sites/');
    const choices = options.body.actions.POST.status.choices as Array<{ value: string; display: string }>;
    expect(choices.map((c) => c.display)).toEqual([...choices.map((c) => c.display)].sort());
    expect(choices).toContainEqual({ value: 'active', display: 'Active' });
  });

  test('a status not enabled for the model is refused; slugs are matched case-insensitively', async () => {
    const tenants = await app.post('/api/extras/statuses/', { name: 'Tenant only', content_types: ['tenancy.tenant'] });
    expect(tenants.status).toBe(400);
    expect(tenants.body).toEqual({ content_types: ['Invalid content type: tenancy.tenant'] });
    const none = await app.post('/api/extras/statuses/', { name: 'Unassigned', content_types: [] });
    expect(none.body).toEqual({ content_types: ['This list may not be empty.'] });
    const res = await app.post('/api/dcim/sites/', { name: 'S-status', status: 'no-such-status' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: ['Object with slug=no-such-status does not exist.'] });
    const asDict = await app.post('/api/dcim/sites/', { name: 'S-status', status: { value: 'active' } });
    expect(asDict.body).toEqual({ status: ["Object with slug={'value': 'active'} does not exist."] });
    const upper = await created(await app.post('/api/dcim/sites/', { name: 'S-status', status: 'ACTIVE' }));
    expect(upper.status).toEqual({ value: 'active', label: 'Active' });
  });

  test('a status in use cannot be deleted', async () => {
    const status = await created(await app.post('/api/extras/statuses/', { name: 'Busy', content_types: ['dcim.site'] }));
    await created(await app.post('/api/dcim/sites/', { name: 'S-busy', status: 'busy' }));
    const res = await app.delete(`/api/extras/statuses/${status.id}/`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/^Unable to delete object\. 1 dependent objects were found: S-busy \(/);
  });
});

describe('extras.tag', () => {
  test('tags on objects: nested brief, filter by slug, AND on repeats', async () => {
    const red = await created(await app.post('/api/extras/tags/', { name: 'Red', slug: 'red', content_types: ['dcim.site'] }));
    await created(await app.post('/api/extras/tags/', { name: 'Blue', slug: 'blue', content_types: ['dcim.site'] }));
    const both = await created(await app.post('/api/dcim/sites/', { name: 'S-both', status: 'active', tags: [red.id, { slug: 'blue' }] }));
    await created(await app.post('/api/dcim/sites/', { name: 'S-red', status: 'active', tags: [{ name: 'Red' }] }));
    expect(both.tags.map((t: { slug: string }) => t.slug).sort()).toEqual(['blue', 'red']);
    expect(both.tags[0]).toEqual(expect.objectContaining({ id: expect.any(String), url: expect.any(String), display: expect.any(String), slug: expect.any(String) }));
    expect(names(await app.get('/api/dcim/sites/?tag=red'))).toEqual(['S-both', 'S-red']);
    expect(names(await app.get('/api/dcim/sites/?tag=red&tag=blue'))).toEqual(['S-both']);
    const tag = await app.get(`/api/extras/tags/${red.id}/`);
    expect(tag.body.tagged_items).toBe(2);
  });

  test('a tag created without a slug gets one from its name; OPTIONS no longer requires it', async () => {
    const tag = await created(await app.post('/api/extras/tags/', { name: 'My Tag', content_types: ['dcim.site'] }));
    expect(tag.slug).toBe('my-tag');
    const blank = await created(await app.post('/api/extras/tags/', { name: 'My Tag 2', slug: '', content_types: ['dcim.site'] }));
    expect(blank.slug).toBe('my-tag-2');
    const options = await app.options('/api/extras/tags/');
    expect(options.body.actions.POST.slug).toMatchObject({ required: false, read_only: false });
    expect(options.body.actions.POST.name).toMatchObject({ required: true });
  });

  test('a tag not enabled for the model, or an unknown tag, is refused', async () => {
    await created(await app.post('/api/extras/tags/?api_version=1.3', { name: 'Tenants', slug: 'tenants', content_types: ['tenancy.tenant'] }));
    const res = await app.post('/api/dcim/sites/', { name: 'S-tagged', status: 'active', tags: [{ slug: 'tenants' }] });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['tags']);
    const unknown = await app.post('/api/dcim/sites/', { name: 'S-tagged', status: 'active', tags: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ tags: ['Related object not found using the provided ID: 00000000-0000-4000-8000-000000000000'] });
  });

  test('a content type still used by tagged objects cannot be removed', async () => {
    const tag = await created(await app.post('/api/extras/tags/?api_version=1.3', { name: 'Used', slug: 'used', content_types: ['dcim.site', 'tenancy.tenant'] }));
    await created(await app.post('/api/dcim/sites/', { name: 'S-used', status: 'active', tags: [tag.id] }));
    const res = await app.patch(`/api/extras/tags/${tag.id}/?api_version=1.3`, { content_types: ['tenancy.tenant'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ content_types: ['Unable to remove dcim.site. Dependent objects were found.'] });
  });

  test('PATCH tags replaces the set; [] clears it', async () => {
    const site = await created(await app.post('/api/dcim/sites/', { name: 'S-retag', status: 'active', tags: [{ slug: 'red' }] }));
    let res = await app.patch(`/api/dcim/sites/${site.id}/`, { tags: [{ slug: 'blue' }] });
    expect(res.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['blue']);
    res = await app.patch(`/api/dcim/sites/${site.id}/`, { tags: [] });
    expect(res.body.tags).toEqual([]);
    res = await app.get(`/api/dcim/sites/${site.id}/`);
    expect(res.body.tags).toEqual([]);
  });
});

describe('trees: regions and tenant groups', () => {
  test('depth, depth-first order, cumulative counts, descendant filters, cascade of children', async () => {
    const europe = await created(await app.post('/api/dcim/regions/', { name: 'Europe' }));
    const nl = await created(await app.post('/api/dcim/regions/', { name: 'Netherlands', parent: { slug: 'europe' } }));
    const ams = await created(await app.post('/api/dcim/regions/', { name: 'Amsterdam', parent: nl.id }));
    await created(await app.post('/api/dcim/regions/', { name: 'Asia' }));
    expect(ams._depth).toBe(2);
    expect(ams.parent).toEqual({ id: nl.id, display: 'Netherlands', url: nl.url, name: 'Netherlands', slug: 'netherlands', _depth: 1 });

    await created(await app.post('/api/dcim/sites/', { name: 'AMS1', status: 'active', region: ams.id }));
    await created(await app.post('/api/dcim/sites/', { name: 'NL-X', status: 'active', region: nl.id }));
    const list = await app.get('/api/dcim/regions/?limit=0');
    expect(names(list)).toEqual(['Asia', 'Europe', 'Netherlands', 'Amsterdam']);
    const counts = Object.fromEntries(list.body.results.map((r: { name: string; site_count: number }) => [r.name, r.site_count]));
    expect(counts).toEqual({ Asia: 0, Europe: 2, Netherlands: 2, Amsterdam: 1 });

    expect(names(await app.get('/api/dcim/sites/?region=europe'))).toEqual(['AMS1', 'NL-X']);
    expect(names(await app.get(`/api/dcim/sites/?region_id=${nl.id}`))).toEqual(['AMS1', 'NL-X']);
    expect(names(await app.get('/api/dcim/sites/?region=amsterdam'))).toEqual(['AMS1']);
    const bad = await app.get('/api/dcim/sites/?region=atlantis');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ region: ['Select a valid choice. atlantis is not one of the available choices.'] });

    // Moving a subtree updates the depth of every descendant.
    const moved = await app.patch(`/api/dcim/regions/${nl.id}/`, { parent: null });
    expect(moved.body._depth).toBe(0);
    expect((await app.get(`/api/dcim/regions/${ams.id}/`)).body._depth).toBe(1);
    expect(names(await app.get('/api/dcim/sites/?region=europe'))).toEqual([]);

    // Deleting a region deletes its children and clears the region of their sites.
    expect((await app.delete(`/api/dcim/regions/${nl.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/regions/${ams.id}/`)).status).toBe(404);
    const orphan = await app.get('/api/dcim/sites/?name=AMS1');
    expect(orphan.body.results[0].region).toBeNull();
    expect((await app.get(`/api/dcim/regions/${europe.id}/`)).body.site_count).toBe(0);
  });

  test('tenant groups nest; tenant_group filters include descendants', async () => {
    const top = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'Customers' }));
    const sub = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'Retail', parent: top.id }));
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'Shop', group: sub.id }));
    await created(await app.post('/api/dcim/sites/', { name: 'S-shop', status: 'active', tenant: tenant.id }));
    expect(names(await app.get('/api/tenancy/tenants/?group=customers'))).toEqual(['Shop']);
    expect(names(await app.get('/api/dcim/sites/?tenant_group=customers'))).toEqual(['S-shop']);
    expect((await app.get(`/api/tenancy/tenant-groups/${top.id}/`)).body.tenant_count).toBe(1);
  });
});

describe('dcim.site', () => {
  test('full representation in catalogue order', async () => {
    const site = await created(await app.post('/api/dcim/sites/', {
      name: 'Order', status: 'planned', asn: 4294967295, time_zone: 'Europe/Amsterdam', latitude: 52.5, longitude: '-4.25',
    }));
    expect(Object.keys(site)).toEqual([
      'id', 'display', 'url', 'name', 'slug', 'status', 'region', 'tenant', 'facility', 'asn', 'time_zone', 'description',
      'physical_address', 'shipping_address', 'latitude', 'longitude', 'contact_name', 'contact_phone', 'contact_email',
      'comments', 'device_count', 'rack_count', 'virtualmachine_count', 'created', 'last_updated', 'tags', 'notes_url', 'custom_fields', 'computed_fields', 'relationships',
    ].filter((k) => k in site));
    expect(site).toMatchObject({ slug: 'order', asn: 4294967295, time_zone: 'Europe/Amsterdam', latitude: '52.500000', longitude: '-4.250000' });
  });

  test('field rules: ASN range, time zone, coordinates, e-mail', async () => {
    const res = await app.post('/api/dcim/sites/', {
      name: 'Rules', status: 'active', asn: 4294967296, time_zone: 'Mars/Olympus', latitude: 'north', contact_email: 'not-mail',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      asn: ['Ensure this value is less than or equal to 4294967295.'],
      time_zone: ['A valid timezone is required.'],
      latitude: ['A valid number is required.'],
      contact_email: ['Enter a valid email address.'],
    });
  });

  test('names sort naturally', async () => {
    for (const name of ['nat10', 'nat9', 'nat1']) await created(await app.post('/api/dcim/sites/', { name, status: 'active' }));
    expect(names(await app.get('/api/dcim/sites/?name__isw=nat'))).toEqual(['nat1', 'nat9', 'nat10']);
  });

  test('a tenant with sites is protected: 409 and nothing deleted', async () => {
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'Protected' }));
    const site = await created(await app.post('/api/dcim/sites/', { name: 'S-protected', status: 'active', tenant: { name: 'Protected' } }));
    const res = await app.delete(`/api/tenancy/tenants/${tenant.id}/`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: S-protected (${site.id})` });
    expect((await app.get(`/api/tenancy/tenants/${tenant.id}/`)).status).toBe(200);
    const bulk = await app.delete('/api/tenancy/tenants/', [{ id: tenant.id }]);
    expect(bulk.status).toBe(409);
  });

  test('unique name: 400 with the field error, also for concurrent creates', async () => {
    await created(await app.post('/api/dcim/sites/', { name: 'Unique', status: 'active' }));
    const dup = await app.post('/api/dcim/sites/', { name: 'Unique', status: 'active' });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ name: ['site with this name already exists.'] });

    const race = await Promise.all(Array.from({ length: 6 }, () => app.post('/api/dcim/sites/', { name: 'Raced', slug: 'raced', status: 'active' })));
    const statuses = race.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 400, 400, 400, 400, 400]);
    for (const r of race.filter((x) => x.status === 400)) expect(Object.keys(r.body).sort()).toEqual(expect.arrayContaining([expect.stringMatching(/^(name|slug)$/)]));
    expect((await app.get('/api/dcim/sites/?name=Raced')).body.count).toBe(1);
  });
});
