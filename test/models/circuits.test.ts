/**
 * The special rules of the circuits application, as the model catalogue gives them: providers,
 * provider networks, circuit types, circuits and their A and Z terminations.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';

const app = appForThisFile();

/** The path of an object's `url`, for requests. */
const at = (obj: Obj, suffix = ''): string => `${new URL(obj.url as string).pathname}${suffix}`;

let seq = 0;
async function fixtures(): Promise<{ provider: Obj; type: Obj; site: Obj }> {
  seq += 1;
  const provider = await created(await app.post('/api/circuits/providers/', { name: `Carrier ${seq}` }));
  const type = await created(await app.post('/api/circuits/circuit-types/', { name: `Transit ${seq}` }));
  const site = await created(await app.post('/api/dcim/sites/', { name: `AMS${seq}`, status: 'active' }));
  return { provider, type, site };
}

async function circuit(f: { provider: Obj; type: Obj }, cid: string, body: Obj = {}): Promise<Obj> {
  return created(await app.post('/api/circuits/circuits/', { cid, provider: f.provider.id, type: f.type.id, status: 'active', ...body }));
}

describe('circuits.provider', () => {
  test('slug from the name, circuit count, ASN range and the site filter through terminations', async () => {
    const f = await fixtures();
    expect(f.provider).toMatchObject({ slug: `carrier-${seq}`, asn: null, account: '', portal_url: '', circuit_count: 0 });
    const c = await circuit(f, 'P-1');
    await created(await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id }));
    expect((await app.get(at(f.provider))).body.circuit_count).toBe(1);
    const bySite = await app.get(`/api/circuits/providers/?site=${f.site.slug}`);
    expect(bySite.body.results.map((p: Obj) => p.id)).toEqual([f.provider.id]);
    const bad = await app.post('/api/circuits/providers/', { name: 'Too big', asn: 4294967296 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ asn: ['Ensure this value is less than or equal to 4294967295.'] });
    const protectedDelete = await app.delete(at(f.provider));
    expect(protectedDelete.status).toBe(409);
  });
});

describe('circuits.circuit', () => {
  test('cid unique per provider', async () => {
    const f = await fixtures();
    await circuit(f, 'DUP-1');
    const dup = await app.post('/api/circuits/circuits/', { cid: 'DUP-1', provider: f.provider.id, type: f.type.id, status: 'active' });
    expect(dup.status).toBe(400);
    expect(dup.body).toEqual({ non_field_errors: ['The fields provider, cid must make a unique set.'] });
    const other = await fixtures();
    await circuit({ provider: other.provider, type: f.type }, 'DUP-1');
  });

  test('termination_a and termination_z mirror the terminations in their short form', async () => {
    const f = await fixtures();
    const c = await circuit(f, 'T-1');
    expect(c.termination_a).toBeNull();
    expect(c.termination_z).toBeNull();
    const a = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id, port_speed: 1000, xconnect_id: 'XC-9' }));
    const network = await created(await app.post('/api/circuits/provider-networks/', { provider: f.provider.id, name: 'Backbone' }));
    const z = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'Z', provider_network: network.id }));
    const detail = (await app.get(at(c))).body;
    expect(Object.keys(detail.termination_a)).toEqual(['id', 'display', 'url', 'site', 'location', 'provider_network', 'connected_endpoint', 'port_speed', 'upstream_speed', 'xconnect_id', 'created', 'last_updated', 'notes_url']);
    expect(detail.termination_a).toMatchObject({
      id: a.id,
      display: `Termination A: ${f.site.name}`,
      url: a.url,
      site: { id: f.site.id, name: f.site.name, slug: f.site.slug },
      location: null,
      provider_network: null,
      connected_endpoint: null,
      port_speed: 1000,
      upstream_speed: null,
      xconnect_id: 'XC-9',
      notes_url: `${a.url}notes/`,
    });
    expect(detail.termination_z).toMatchObject({ id: z.id, display: `Termination Z: ${network.name}`, site: null, provider_network: { id: network.id, name: 'Backbone' } });
    const listed = (await app.get(`/api/circuits/circuits/?id=${c.id}`)).body.results[0];
    expect(listed.termination_a.id).toBe(a.id);
    expect(listed.termination_z.id).toBe(z.id);
    // Brief circuits carry no terminations.
    expect(Object.keys((await app.get(at(c, '?brief=1'))).body)).toEqual(['id', 'display', 'url', 'cid']);
    expect((await app.delete(at(a))).status).toBe(204);
    const after = (await app.get(at(c))).body;
    expect(after.termination_a).toBeNull();
    expect(after.termination_z.id).toBe(z.id);
  });

  test('q searches the terminations; deleting a circuit deletes its terminations', async () => {
    const f = await fixtures();
    const c = await circuit(f, 'Q-1');
    const t = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id, pp_info: 'Panel 7 port 3' }));
    const found = await app.get('/api/circuits/circuits/?q=panel 7');
    expect(found.body.results.map((r: Obj) => r.id)).toEqual([c.id]);
    expect((await app.get(`/api/circuits/circuits/?site_id=${f.site.id}`)).body.results.map((r: Obj) => r.id)).toEqual([c.id]);
    expect((await app.delete(at(c))).status).toBe(204);
    expect((await app.get(at(t))).status).toBe(404);
  });
});

describe('circuits.circuittermination', () => {
  test('a site or a provider network, exactly one', async () => {
    const f = await fixtures();
    const c = await circuit(f, 'X-1');
    const network = await created(await app.post('/api/circuits/provider-networks/', { provider: f.provider.id, name: 'Cloud' }));
    const neither = await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A' });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ __all__: ['A circuit termination must attach to either a site or a provider network.'] });
    const both = await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id, provider_network: network.id });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ __all__: ['A circuit termination cannot attach to both a site and a provider network.'] });
    expect((await app.get(`/api/circuits/circuit-terminations/?circuit_id=${c.id}`)).body.count).toBe(0);
  });

  test('term_side is a plain A or Z, once per circuit; the site is protected', async () => {
    const f = await fixtures();
    const c = await circuit(f, 'S-1');
    const a = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id }));
    expect(a.term_side).toBe('A');
    expect(a.display).toBe(`Termination A: ${f.site.name}`);
    expect(Object.keys((await app.get(at(a, '?brief=1'))).body)).toEqual(['id', 'display', 'url', 'circuit', 'term_side', 'cable']);
    const again = await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ non_field_errors: ['The fields circuit, term_side must make a unique set.'] });
    const wrong = await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'C', site: f.site.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ term_side: ['"C" is not a valid choice.', 'Valid choices are: A, Z.'] });
    expect((await app.get('/api/circuits/circuit-terminations/?term_side=A&circuit_id=' + c.id)).body.count).toBe(1);
    expect((await app.get('/api/circuits/circuit-terminations/?term_side=Z&circuit_id=' + c.id)).body.count).toBe(0);
    const site = await app.delete(at(f.site));
    expect(site.status).toBe(409);
    expect((await app.get(at(a))).status).toBe(200);
  });

  test('a location only with a site it belongs to, of a type that may hold terminations; location filters include descendants', async () => {
    const f = await fixtures();
    const c = await circuit(f, 'L-1');
    const other = await created(await app.post('/api/dcim/sites/', { name: `Other ${seq}`, status: 'active' }));
    const campus = await created(await app.post('/api/dcim/location-types/', { name: `Campus ${seq}`, content_types: ['circuits.circuittermination'] }));
    const room = await created(await app.post('/api/dcim/location-types/', { name: `Room ${seq}`, parent: campus.id, content_types: [] }));
    const hq = await created(await app.post('/api/dcim/locations/', { name: `HQ ${seq}`, location_type: campus.id, site: f.site.id, status: 'active' }));
    const closet = await created(await app.post('/api/dcim/locations/', { name: `Closet ${seq}`, location_type: room.id, parent: hq.id, status: 'active' }));
    const network = await created(await app.post('/api/circuits/provider-networks/', { provider: f.provider.id, name: `Net ${seq}` }));
    const withNetwork = await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', provider_network: network.id, location: hq.id });
    expect(withNetwork.status).toBe(400);
    expect(withNetwork.body).toEqual({ __all__: ['A circuit termination cannot attach to both a location and a provider network.'] });
    const elsewhere = await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: other.id, location: hq.id });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({ location: [`Location "${hq.name}" does not belong to site "${other.name}".`] });
    const wrongType = await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id, location: closet.id });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toEqual({ location: [`Circuit terminations may not associate to locations of type "${room.name}".`] });
    const t = await created(await app.post('/api/circuits/circuit-terminations/', { circuit: c.id, term_side: 'A', site: f.site.id, location: hq.id }));
    expect(t.location).toMatchObject({ id: hq.id, name: hq.name });
    expect((await app.get(at(c))).body.termination_a.location).toMatchObject({ id: hq.id });
    for (const path of ['/api/circuits/circuits/', '/api/circuits/providers/']) {
      const ids = (await app.get(`${path}?location=${hq.slug}`)).body.results.map((r: Obj) => r.id);
      expect(ids).toEqual([path.includes('providers') ? f.provider.id : c.id]);
    }
    expect((await app.get(`/api/circuits/circuit-terminations/?location=${hq.slug}`)).body.results.map((r: Obj) => r.id)).toEqual([t.id]);
    expect((await app.delete(at(hq))).status).toBe(409);
  });
});
