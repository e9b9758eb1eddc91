/**
 * Relationships: definitions and their rules, associations and their validation, the
 * `relationships` block on objects for every type and direction, writes through that block
 * (PATCH semantics, errors, required sides, atomicity), cleanup on delete, `cr_` filters and the
 * cost of a page. Runs on every database (NETINV_TEST_DATABASE_URL).
 */
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

type Obj = Record<string, any>;
const REL = '/api/extras/relationships/';
const ASSOC = '/api/extras/relationship-associations/';
const SITES = '/api/dcim/sites/';
const VRFS = '/api/ipam/vrfs/';
const ROLES = '/api/ipam/roles/';
const MISSING = '00000000-0000-4000-8000-00000000abcd';

async function created(res: { status: number; body: any }): Promise<Obj> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
let n = 0;
const next = () => ++n;
const site = async (name?: string, extra: Obj = {}) => created(await app.post(SITES, { name: name ?? `Site ${next()}`, status: 'active', ...extra }));
const vrf = async (name?: string, extra: Obj = {}) => {
  const i = next();
  return created(await app.post(VRFS, { name: name ?? `vrf${i}`, rd: `65000:${i}`, ...extra }));
};
const relationship = async (body: Obj) => created(await app.post(REL, body));
const associate = async (rel: Obj, source: Obj, destination: Obj) =>
  created(
    await app.post(ASSOC, {
      relationship: rel.id,
      source_type: rel.source_type,
      source_id: source.id,
      destination_type: rel.destination_type,
      destination_id: destination.id,
    }),
  );
const block = async (path: string, id: string) => (await app.get(`${path}${id}/?include=relationships`)).body.relationships;
const ids = (side: Obj | undefined) => (side?.objects ?? []).map((o: Obj) => o.id);

describe('definitions', () => {
  test('representation: plain strings for type and required_on; slug with underscores; display', async () => {
    const r = await relationship({ name: 'Site to VRF', source_type: 'dcim.site', destination_type: 'ipam.vrf', type: 'one-to-one' });
    expect(Object.keys(r)).toEqual([
      'id', 'display', 'url', 'name', 'slug', 'description', 'type', 'required_on', 'source_type', 'source_label', 'source_hidden',
      'source_filter', 'destination_type', 'destination_label', 'destination_hidden', 'destination_filter', 'created', 'last_updated', 'notes_url',
    ]);
    expect(r).toMatchObject({ display: 'Site to VRF', slug: 'site_to_vrf', type: 'one-to-one', required_on: '', source_filter: null });
    const underscored = await relationship({ name: 'vrf_peers_x', source_type: 'ipam.vrf', destination_type: 'ipam.vrf' });
    expect(underscored).toMatchObject({ display: 'vrf peers x', type: 'many-to-many', slug: 'vrf_peers_x' });
    const brief = await app.get(`${REL}${r.id}/?brief=1`);
    expect(brief.body).toEqual({ id: r.id, display: 'Site to VRF', url: r.url, name: 'Site to VRF', slug: 'site_to_vrf' });
    const options = await app.options(REL);
    expect(options.body.actions.POST.source_type.choices).toContainEqual({ value: 'dcim.site', display: 'dcim | site' });
    expect(options.body.actions.POST.source_type.choices).not.toContainEqual({ value: 'users.token', display: 'users | token' });
  });

  test.each([
    [{ type: 'symmetric-many-to-many', source_type: 'dcim.site', destination_type: 'ipam.vrf' }, { destination_type: ['Must match source_type for a symmetric relationship'] }],
    [{ type: 'symmetric-one-to-one', source_type: 'dcim.site', destination_type: 'dcim.site', source_label: 'a', destination_label: 'b' }, { destination_label: ['Must match source_label for a symmetric relationship'] }],
    [{ type: 'symmetric-one-to-one', source_type: 'dcim.site', destination_type: 'dcim.site', destination_hidden: true }, { destination_hidden: ['Must match source_hidden for a symmetric relationship'] }],
    [{ type: 'symmetric-many-to-many', source_type: 'dcim.site', destination_type: 'dcim.site', required_on: 'source' }, { required_on: ['Symmetric relationships cannot be marked as required.'] }],
    [{ source_type: 'dcim.site', destination_type: 'ipam.vrf', source_filter: ['active'] }, { source_filter: ['Filter for dcim.Site must be a dictionary'] }],
    [{ source_type: 'dcim.site', destination_type: 'ipam.vrf', source_filter: { bogus: 1, status: ['active'] } }, { source_filter: ["'bogus' is not a valid filter parameter for dcim.Site object"] }],
    [{ source_type: 'dcim.site', destination_type: 'ipam.vrf', destination_filter: { rd: 'x', tenant: 'nowhere' } }, { destination_filter: ["'tenant': Select a valid choice. nowhere is not one of the available choices."] }],
    [{ source_type: 'users.token', destination_type: 'ipam.vrf' }, { source_type: ['Invalid content type: users.token'] }],
    [{ source_type: 'dcim.site', destination_type: 'ipam.vrf', type: 'one-to-few' }, { type: ['"one-to-few" is not a valid choice.', 'Valid choices are: one-to-one, symmetric-one-to-one, one-to-many, many-to-many, symmetric-many-to-many.'] }],
  ])('rules: %j', async (body, errors) => {
    const res = await app.post(REL, { name: `Rule ${next()}`, ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
  });

  test('a symmetric side given alone is copied to the other', async () => {
    const r = await relationship({ name: 'Copied', type: 'symmetric-one-to-one', source_type: 'ipam.role', destination_type: 'ipam.role', destination_label: 'twin', source_filter: { q: 'x' } });
    expect(r).toMatchObject({ source_label: 'twin', destination_label: 'twin', source_filter: { q: 'x' }, destination_filter: { q: 'x' } });
  });

  test('type and side types cannot change while associations exist', async () => {
    const r = await relationship({ name: 'Frozen', source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    expect((await app.patch(`${REL}${r.id}/`, { type: 'one-to-many' })).status).toBe(200);
    await associate(r, await site(), await vrf());
    const res = await app.patch(`${REL}${r.id}/`, { type: 'many-to-many' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ __all__: ['Not supported to change the type of the relationship when some associations are present in the database, delete all associations first before modifying the type.'] });
    expect((await app.patch(`${REL}${r.id}/`, { destination_type: 'dcim.site' })).body).toEqual({
      __all__: ['Not supported to change the type of the destination object when some associations are present in the database, delete all associations first before modifying the destination type.'],
    });
    expect((await app.patch(`${REL}${r.id}/`, { description: 'fine' })).status).toBe(200);
  });

  test('filters: type, source/destination type (OR), q; unknown ones are 400', async () => {
    const res = await app.get(`${REL}?type=symmetric-one-to-one`);
    expect(res.body.results.every((r: Obj) => r.type === 'symmetric-one-to-one')).toBe(true);
    const both = await app.get(`${REL}?source_type=ipam.role&source_type=ipam.vrf`);
    expect(both.body.results.map((r: Obj) => r.source_type).sort()).toEqual(['ipam.role', 'ipam.vrf']);
    expect((await app.get(`${REL}?q=frozen`)).body.count).toBe(1);
    expect((await app.get(`${REL}?source_label=x`)).status).toBe(400);
  });
});

describe('associations', () => {
  let oneToOne: Obj;
  let oneToMany: Obj;
  let symOne: Obj;
  let symMany: Obj;
  let filtered: Obj;
  beforeAll(async () => {
    oneToOne = await relationship({ name: 'Primary VRF', type: 'one-to-one', source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    oneToMany = await relationship({ name: 'VRF owner', type: 'one-to-many', source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    symOne = await relationship({ name: 'Twin', type: 'symmetric-one-to-one', source_type: 'dcim.site', destination_type: 'dcim.site' });
    symMany = await relationship({ name: 'Peering', type: 'symmetric-many-to-many', source_type: 'dcim.site', destination_type: 'dcim.site' });
    filtered = await relationship({ name: 'Planned only', source_type: 'dcim.site', destination_type: 'ipam.vrf', source_filter: { status: ['planned'] } });
  });

  test('representation, display and brief form', async () => {
    const s = await site('AMS01');
    const v = await vrf('red', { rd: '65000:9999' });
    const a = await associate(oneToOne, s, v);
    expect(Object.keys(a)).toEqual(['id', 'display', 'url', 'relationship', 'source_type', 'source_id', 'destination_type', 'destination_id']);
    expect(a.display).toBe('AMS01 -> red (65000:9999) - Primary VRF');
    expect(a.relationship).toEqual({ id: oneToOne.id, display: 'Primary VRF', url: oneToOne.url, name: 'Primary VRF', slug: 'primary_vrf' });
    const brief = await app.get(`${ASSOC}${a.id}/?brief=1`);
    expect(brief.body).toEqual({ id: a.id, display: a.display, url: a.url, relationship: oneToOne.id, source_id: s.id, destination_id: v.id });
    const peer = await associate(symMany, s, await site('AMS02'));
    expect(peer.display).toBe('AMS01 <-> AMS02 - Peering');
    const dangling = await created(await app.post(ASSOC, { relationship: symMany.id, source_type: 'dcim.site', source_id: s.id, destination_type: 'dcim.site', destination_id: MISSING }));
    expect(dangling.display).toBe('AMS01 <-> unknown - Peering');
  });

  test('validation', async () => {
    const [s1, s2, s3] = [await site('Val 1'), await site('Val 2'), await site('Val 3')];
    const [v1, v2] = [await vrf('val-a'), await vrf('val-b')];
    const post = (rel: Obj, a: Obj, b: Obj, over: Obj = {}) =>
      app.post(ASSOC, { relationship: rel.id, source_type: rel.source_type, source_id: a.id, destination_type: rel.destination_type, destination_id: b.id, ...over });
    expect((await post(oneToOne, s1, v1, { source_type: 'ipam.vrf' })).body).toEqual({ source_type: ['source_type has a different value than defined in Primary VRF'] });
    expect((await post(symMany, s1, s1)).body).toEqual({ destination_id: ['An object cannot form a RelationshipAssociation with itself'] });
    await created(await post(oneToOne, s1, v1));
    expect((await post(oneToOne, s2, v1)).body).toEqual({ destination: [`Unable to create more than one Primary VRF association to ${v1.display} (destination)`] });
    expect((await post(oneToOne, s1, v2)).body).toEqual({ source: ['Unable to create more than one Primary VRF association from Val 1 (source)'] });
    expect((await post(oneToOne, s1, v1)).body).toEqual({ non_field_errors: ['The fields relationship, source_type, source_id, destination_type, destination_id must make a unique set.'] });
    await created(await post(oneToMany, s1, v1));
    await created(await post(oneToMany, s1, v2));
    expect((await post(oneToMany, s2, v2)).body).toEqual({ destination: [`Unable to create more than one VRF owner association to ${v2.display} (destination)`] });
    await created(await post(symMany, s1, s2));
    expect((await post(symMany, s2, s1)).body).toEqual({ __all__: ['A Peering association already exists between Val 2 and Val 1'] });
    await created(await post(symOne, s1, s2));
    expect((await post(symOne, s3, s1)).body).toEqual({ destination: ['Unable to create more than one Twin association involving Val 1 (peer)'] });
    expect((await post(symOne, s2, s3)).body).toEqual({ source: ['Unable to create more than one Twin association involving Val 2 (peer)'] });
    expect((await post(filtered, s1, v1)).body).toEqual({ source: ['Val 1 violates Planned only source_filter restriction'] });
    await created(await post(filtered, await site('Val planned', { status: 'planned' }), v1));
    expect((await post(filtered, { id: MISSING }, v1)).status).toBe(201);
  });

  test('filters: relationship by slug, ends, peer_id either end', async () => {
    const [a, b, c] = [await site('Pf 1'), await site('Pf 2'), await site('Pf 3')];
    await associate(symMany, a, b);
    await associate(symMany, c, a);
    expect((await app.get(`${ASSOC}?peer_id=${a.id}`)).body.count).toBe(2);
    expect((await app.get(`${ASSOC}?peer_id=${b.id}&peer_id=${c.id}`)).body.count).toBe(2);
    expect((await app.get(`${ASSOC}?relationship=peering&source_id=${c.id}`)).body.count).toBe(1);
    expect((await app.get(`${ASSOC}?relationship=nope`)).status).toBe(400);
    expect((await app.get(`${ASSOC}?destination_type=ipam.vrf&relationship=primary_vrf`)).body.count).toBeGreaterThan(0);
  });
});

describe('the relationships block', () => {
  test('every type and direction: side keys, labels, object types and nested peers', async () => {
    const tag = next();
    const rels = {
      o2o: await relationship({ name: `o2o ${tag}`, type: 'one-to-one', source_type: 'ipam.role', destination_type: 'ipam.vrf' }),
      o2m: await relationship({ name: `o2m ${tag}`, type: 'one-to-many', source_type: 'ipam.role', destination_type: 'ipam.vrf' }),
      m2m: await relationship({ name: `m2m ${tag}`, type: 'many-to-many', source_type: 'ipam.role', destination_type: 'ipam.vrf', source_label: 'Networks', destination_label: 'Owners' }),
      so2o: await relationship({ name: `so2o ${tag}`, type: 'symmetric-one-to-one', source_type: 'ipam.role', destination_type: 'ipam.role' }),
      sm2m: await relationship({ name: `sm2m ${tag}`, type: 'symmetric-many-to-many', source_type: 'ipam.role', destination_type: 'ipam.role', source_label: 'siblings' }),
    };
    const role = await created(await app.post(ROLES, { name: `Block role ${tag}` }));
    const role2 = await created(await app.post(ROLES, { name: `Block role b ${tag}` }));
    const [v1, v2] = [await vrf(), await vrf()];
    await associate(rels.o2o, role, v1);
    await associate(rels.o2m, role, v1);
    await associate(rels.o2m, role, v2);
    await associate(rels.m2m, role, v2);
    await associate(rels.so2o, role2, role);
    await associate(rels.sm2m, role, role2);

    const fromRole = await block(ROLES, role.id);
    expect(Object.keys(fromRole)).toEqual([rels.m2m.slug, rels.o2m.slug, rels.o2o.slug, rels.sm2m.slug, rels.so2o.slug]);
    const r = (rel: Obj) => ({ id: rel.id, url: rel.url, name: rel.name, type: rel.type });
    expect(fromRole[rels.o2o.slug]).toEqual({ ...r(rels.o2o), destination: { label: 'VRF', object_type: 'ipam.vrf', objects: [expect.objectContaining({ id: v1.id, display: v1.display, name: v1.name, rd: v1.rd })] } });
    expect(Object.keys(fromRole[rels.o2o.slug].destination.objects[0])).toEqual(['id', 'display', 'url', 'name', 'rd']);
    expect(fromRole[rels.o2m.slug].destination).toMatchObject({ label: 'VRFs', object_type: 'ipam.vrf' });
    expect(ids(fromRole[rels.o2m.slug].destination).sort()).toEqual([v1.id, v2.id].sort());
    expect(fromRole[rels.m2m.slug].destination.label).toBe('Networks');
    expect(fromRole[rels.so2o.slug]).toEqual({ ...r(rels.so2o), peer: { label: 'role', object_type: 'ipam.role', objects: [expect.objectContaining({ id: role2.id })] } });
    expect(fromRole[rels.sm2m.slug].peer).toMatchObject({ label: 'siblings', object_type: 'ipam.role' });
    expect(ids(fromRole[rels.sm2m.slug].peer)).toEqual([role2.id]);

    const fromVrf = await block(VRFS, v1.id);
    expect(fromVrf[rels.o2o.slug].source).toEqual({ label: 'role', object_type: 'ipam.role', objects: [expect.objectContaining({ id: role.id })] });
    expect(fromVrf[rels.o2m.slug].source.label).toBe('role');
    expect(fromVrf[rels.m2m.slug].source).toEqual({ label: 'Owners', object_type: 'ipam.role', objects: [] });
    expect(ids((await block(ROLES, role2.id))[rels.so2o.slug].peer)).toEqual([role.id]);
    const plain = await relationship({ name: `plain ${tag}`, source_type: 'ipam.role', destination_type: 'ipam.vrf' });
    expect((await block(VRFS, v1.id))[plain.slug].source.label).toBe('roles');
  });

  test('a non-symmetric relationship between objects of one model shows both sides, destination first', async () => {
    const r = await relationship({ name: `Upstream ${next()}`, source_type: 'dcim.site', destination_type: 'dcim.site', source_label: 'downstream', destination_label: 'upstream' });
    const [a, b] = [await site(), await site()];
    await associate(r, a, b);
    const ofA = (await block(SITES, a.id))[r.slug];
    expect(Object.keys(ofA)).toEqual(['id', 'url', 'name', 'type', 'destination', 'source']);
    expect(ofA.destination).toMatchObject({ label: 'downstream', objects: [expect.objectContaining({ id: b.id })] });
    expect(ofA.source).toMatchObject({ label: 'upstream', objects: [] });
    expect(ids((await block(SITES, b.id))[r.slug].source)).toEqual([a.id]);
  });

  test('a side filter the object fails hides that side; hidden sides are still listed', async () => {
    const r = await relationship({ name: `Only planned ${next()}`, source_type: 'dcim.site', destination_type: 'ipam.vrf', source_filter: { status: 'planned' }, source_hidden: true });
    const planned = await site(undefined, { status: 'planned' });
    const active = await site();
    expect((await block(SITES, planned.id))[r.slug].destination.objects).toEqual([]);
    expect((await block(SITES, active.id))[r.slug]).toBeUndefined();
  });

  test('include on list and detail; never in the brief form; always in write responses', async () => {
    const s = await site();
    const detail = await app.get(`${SITES}${s.id}/`);
    expect('relationships' in detail.body).toBe(false);
    const list = await app.get(`${SITES}?id=${s.id}&include=relationships`);
    expect(list.body.results[0].relationships).toEqual(await block(SITES, s.id));
    expect('relationships' in (await app.get(`${SITES}?id=${s.id}&brief=1&include=relationships`)).body.results[0]).toBe(false);
    const patched = await app.patch(`${SITES}${s.id}/`, { description: 'x' });
    expect(patched.body.relationships).toEqual(await block(SITES, s.id));
    const bulk = await app.patch(SITES, [{ id: s.id, description: 'y' }]);
    expect(bulk.body[0].relationships).toEqual(await block(SITES, s.id));
  });
});

describe('writing relationships on objects', () => {
  let toVrf: Obj;
  let owner: Obj;
  let peers: Obj;
  let single: Obj;
  beforeAll(async () => {
    toVrf = await relationship({ name: 'Site VRFs', type: 'many-to-many', source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    owner = await relationship({ name: 'Site owner', type: 'one-to-many', source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    peers = await relationship({ name: 'Site peers', type: 'symmetric-many-to-many', source_type: 'dcim.site', destination_type: 'dcim.site' });
    single = await relationship({ name: 'Site main VRF', type: 'one-to-one', source_type: 'dcim.site', destination_type: 'ipam.vrf' });
  });

  test('POST and PATCH: omitted slug or side unchanged, a given side replaced, [] clears; items by id or attributes', async () => {
    const [v1, v2, v3] = [await vrf('w-one'), await vrf('w-two'), await vrf('w-three')];
    const other = await site('Write peer');
    const s = await created(
      await app.post(SITES, {
        name: 'Writer',
        status: 'active',
        relationships: {
          site_vrfs: { destination: { objects: [v1.id, { name: 'w-two' }] } },
          site_peers: { peer: { objects: [{ name: 'Write peer' }] } },
        },
      }),
    );
    expect(ids(s.relationships.site_vrfs.destination).sort()).toEqual([v1.id, v2.id].sort());
    expect(ids(s.relationships.site_peers.peer)).toEqual([other.id]);
    const kept = await app.patch(`${SITES}${s.id}/`, { relationships: { site_peers: {} } });
    expect(ids(kept.body.relationships.site_vrfs.destination).sort()).toEqual([v1.id, v2.id].sort());
    expect(ids(kept.body.relationships.site_peers.peer)).toEqual([other.id]);
    const replaced = await app.patch(`${SITES}${s.id}/`, { relationships: { site_vrfs: { destination: { objects: [v2.id, v3.id] } } } });
    expect(ids(replaced.body.relationships.site_vrfs.destination).sort()).toEqual([v2.id, v3.id].sort());
    expect(ids(replaced.body.relationships.site_peers.peer)).toEqual([other.id]);
    const fromPeer = await app.patch(`${SITES}${other.id}/`, { relationships: { site_peers: { peer: { objects: [] } } } });
    expect(fromPeer.body.relationships.site_peers.peer.objects).toEqual([]);
    expect((await block(SITES, s.id)).site_peers.peer.objects).toEqual([]);
    // From the destination side of a one-to-many: the single source.
    const fromVrf = await app.patch(`${VRFS}${v3.id}/`, { relationships: { site_owner: { source: { objects: [s.id] } } } });
    expect(ids(fromVrf.body.relationships.site_owner.source)).toEqual([s.id]);
    expect(ids((await block(SITES, s.id)).site_owner.destination)).toEqual([v3.id]);
    const assocs = await app.get(`${ASSOC}?relationship=site_vrfs&source_id=${s.id}`);
    expect(assocs.body.count).toBe(2);
  });

  test.each([
    [{ relationships: ['x'] }, { relationships: ['Expected a dictionary of items but got type "list".'] }],
    [{ relationships: { nonexistent: {} } }, { relationships: ['"nonexistent" is not a relationship on dcim.Site'] }],
    [{ relationships: { site_vrfs: { source: { objects: [] } } } }, { relationships: ['"source" is not a valid side for "Site VRFs" on dcim.Site'] }],
    [{ relationships: { site_vrfs: { destination: {} } } }, { relationships: ['"objects" must be specified under ["site_vrfs"]["destination"] when present'] }],
    [{ relationships: { site_vrfs: { destination: { objects: 'x' } } } }, { relationships: ['"objects" must be a list, not a single value'] }],
    [{ relationships: { site_main_vrf: { destination: { objects: ['a', 'b'] } } } }, { relationships: ['For "Site main VRF", "destination" objects must include at most a single object'] }],
    [{ relationships: { site_vrfs: { destination: { objects: [{ name: 'no such vrf' }] } } } }, { relationships: ["Related object not found using the provided attributes: {'name': 'no such vrf'}"] }],
    [{ relationships: { site_vrfs: { destination: { objects: [MISSING] } } } }, { relationships: [`Related object not found using the provided ID: ${MISSING}`] }],
  ])('400: %j', async (body, errors) => {
    const res = await app.post(SITES, { name: `Bad write ${next()}`, status: 'active', ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
  });

  test('a one-side from the destination takes at most one object', async () => {
    const v = await vrf();
    const res = await app.patch(`${VRFS}${v.id}/`, { relationships: { site_owner: { source: { objects: [(await site()).id, (await site()).id] } } } });
    expect(res.body).toEqual({ relationships: ['For "Site owner", "source" objects must include at most a single object'] });
  });

  test('a cardinality violation is a 400 on create and on update, and the whole write is rolled back', async () => {
    const v = await vrf();
    await site('Holder', { relationships: { site_main_vrf: { destination: { objects: [v.id] } } } });
    const message = `{'destination': ['Unable to create more than one Site main VRF association to ${v.display} (destination)']}`;
    const before = (await app.get(`${SITES}?limit=0`)).body.count;
    const create = await app.post(SITES, { name: 'Taker', status: 'active', relationships: { site_main_vrf: { destination: { objects: [v.id] } } } });
    expect(create.status).toBe(400);
    expect(create.body).toEqual({ relationships: [message] });
    expect((await app.get(`${SITES}?limit=0`)).body.count).toBe(before);
    const other = await site('Updater');
    const update = await app.patch(`${SITES}${other.id}/`, { description: 'changed', relationships: { site_main_vrf: { destination: { objects: [v.id] } } } });
    expect(update.status).toBe(400);
    expect(update.body).toEqual({ relationships: [message] });
    expect((await app.get(`${SITES}${other.id}/`)).body.description).toBe('');
  });

  test('required_on: needed on create; checked on updates; a hint when no peer exists at all', async () => {
    const r = await relationship({ name: 'RIR needs group', source_type: 'ipam.rir', destination_type: 'tenancy.tenantgroup', required_on: 'source' });
    const missing = await app.post('/api/ipam/rirs/', { name: 'Unattached' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      relationships: {
        rir_needs_group: [
          'You need to specify ["relationships"]["rir_needs_group"]["destination"]["objects"].',
          'RIRs require a tenant group, but no tenant groups exist yet. Create a tenant group by posting to /api/tenancy/tenant-groups/',
        ],
      },
    });
    const group = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'Needed group' }));
    const empty = await app.post('/api/ipam/rirs/', { name: 'Empty', relationships: { rir_needs_group: { destination: { objects: [] } } } });
    expect(empty.body).toEqual({ relationships: { rir_needs_group: ['You need to specify ["relationships"]["rir_needs_group"]["destination"]["objects"].'] } });
    const rir = await created(await app.post('/api/ipam/rirs/', { name: 'Attached', relationships: { rir_needs_group: { destination: { objects: [group.id] } } } }));
    expect((await app.patch(`/api/ipam/rirs/${rir.id}/`, { description: 'x' })).status).toBe(200);
    const cleared = await app.patch(`/api/ipam/rirs/${rir.id}/`, { relationships: { rir_needs_group: { destination: { objects: [] } } } });
    expect(cleared.status).toBe(400);
    // The destination side is not required.
    expect((await app.patch(`/api/tenancy/tenant-groups/${group.id}/`, { description: 'fine' })).status).toBe(200);
    await app.delete(`${REL}${r.id}/`);
    expect((await app.post('/api/ipam/rirs/', { name: 'Free again' })).status).toBe(201);
  });
});

describe('deletion', () => {
  test('deleting an object removes its associations at either end; deleting a relationship removes all of them', async () => {
    const r = await relationship({ name: `Cleanup ${next()}`, source_type: 'dcim.site', destination_type: 'dcim.site' });
    const r2 = await relationship({ name: `Cleanup vrf ${next()}`, source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    const [a, b, c] = [await site(), await site(), await site()];
    await associate(r, a, b);
    await associate(r, c, a);
    await associate(r, b, c);
    await associate(r2, a, await vrf());
    expect((await app.delete(`${SITES}${a.id}/`)).status).toBe(204);
    const left = await app.get(`${ASSOC}?relationship=${r.slug}`);
    expect(left.body.results.map((x: Obj) => [x.source_id, x.destination_id])).toEqual([[b.id, c.id]]);
    expect((await app.get(`${ASSOC}?relationship=${r2.slug}`)).body.count).toBe(0);
    expect((await app.delete(`${REL}${r.id}/`)).status).toBe(204);
    expect((await app.get(`${ASSOC}?source_id=${b.id}`)).body.count).toBe(0);
    expect((await block(SITES, b.id))[r.slug]).toBeUndefined();
  });
});

describe('cr_ filters', () => {
  test('destination, source and peer sides; hidden sides have none; unknown ids are 400', async () => {
    const r = await relationship({ name: `Filter rel ${next()}`, source_type: 'dcim.site', destination_type: 'ipam.vrf' });
    const sym = await relationship({ name: `Filter peers ${next()}`, type: 'symmetric-many-to-many', source_type: 'dcim.site', destination_type: 'dcim.site' });
    const hidden = await relationship({ name: `Filter hidden ${next()}`, source_type: 'dcim.site', destination_type: 'ipam.vrf', source_hidden: true });
    const [a, b, c] = [await site(), await site(), await site()];
    const [v1, v2] = [await vrf(), await vrf()];
    await associate(r, a, v1);
    await associate(r, b, v2);
    await associate(sym, a, b);
    await associate(sym, c, a);
    const sites = async (q: string) => {
      const res = await app.get(`${SITES}?limit=0&${q}`);
      return res.status === 200 ? res.body.results.map((s: Obj) => s.id).sort() : res;
    };
    expect(await sites(`cr_${r.slug}__destination=${v1.id}`)).toEqual([a.id]);
    expect(await sites(`cr_${r.slug}__destination=${v1.id}&cr_${r.slug}__destination=${v2.id}`)).toEqual([a.id, b.id].sort());
    expect(await sites(`cr_${sym.slug}__peer=${a.id}`)).toEqual([b.id, c.id].sort());
    expect(await sites(`cr_${sym.slug}__peer=${c.id}`)).toEqual([a.id]);
    const vrfsOf = await app.get(`${VRFS}?cr_${r.slug}__source=${b.id}`);
    expect(vrfsOf.body.results.map((v: Obj) => v.id)).toEqual([v2.id]);
    const bad = (await sites(`cr_${r.slug}__destination=${MISSING}`)) as { status: number; body: Obj };
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ [`cr_${r.slug}__destination`]: [`Select a valid choice. ${MISSING} is not one of the available choices.`] });
    expect(((await sites(`cr_${r.slug}__source=${v1.id}`)) as { status: number }).status).toBe(400);
    expect(((await sites(`cr_${hidden.slug}__destination=${v1.id}`)) as { status: number }).status).toBe(400);
    expect((await app.get(`${VRFS}?cr_${hidden.slug}__source=${a.id}`)).status).toBe(200);
  });
});

describe('cost', () => {
  test('include=relationships costs the same number of queries for any page size', async () => {
    const r = await relationship({ name: `Cost rel ${next()}`, source_type: 'tenancy.tenant', destination_type: 'ipam.vrf' });
    const sym = await relationship({ name: `Cost peers ${next()}`, type: 'symmetric-many-to-many', source_type: 'tenancy.tenant', destination_type: 'tenancy.tenant', source_filter: { q: 'Cost' } });
    const tenants: Obj[] = [];
    for (let i = 0; i < 12; i++) tenants.push(await created(await app.post('/api/tenancy/tenants/', { name: `Cost tenant ${i}` })));
    for (const [i, t] of tenants.entries()) {
      await associate(r, t, await vrf());
      if (i > 0) await associate(sym, t, tenants[i - 1]);
    }
    const cost = async (limit: number) => {
      await app.get(`/api/tenancy/tenants/?q=Cost&limit=${limit}&include=relationships,computed_fields`); // the configuration caches are warm, as on a server between requests
      const start = app.queries();
      const res = await app.get(`/api/tenancy/tenants/?q=Cost&limit=${limit}&include=relationships,computed_fields`);
      expect(res.body.results).toHaveLength(limit);
      expect(res.body.results.every((t: Obj) => t.relationships[r.slug].destination.objects.length === 1)).toBe(true);
      return app.queries() - start;
    };
    expect(await cost(3)).toBe(await cost(12));
  });
});
