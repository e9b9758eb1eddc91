/**
 * Field kinds and options beyond plain columns, against throw-away models: computed keys (own
 * columns, an application's provider, opt-in and opt-out parameters), objects reached through
 * foreign keys, MAC addresses, counts through a path, filters and search through relations,
 * limited choices, text restricted to choices and lists of choices, and deletes of rows that
 * point at each other.
 */
import {
  BaseModel, ComputedField, defineApp, defineChoices, Field, ForeignKey, MACAddressField, Model, MultipleChoiceField, NaturalKey, RelatedCount,
  RelatedVia, type ComputedValueProvider, type Json,
} from '../../framework';
import { fixtureApi, type FixtureApi } from '../helpers/fixture-api';

const Grades = defineChoices({ gold: 'Gold', silver: 'Silver' });
const Amenities = defineChoices({ power: 'Power', cooling: 'Cooling', 'fire-suppression': 'Fire suppression' });

@Model({ path: 'halls', display: 'name', brief: ['name'], ordering: ['name'] })
class Hall extends BaseModel {
  @Field.String({ maxLength: 20, unique: true })
  name!: string;

  @Field.Boolean({ default: true })
  public_access!: boolean;

  /** Text restricted to choices: written and described as a choice, filtered as text. */
  @Field.String({ maxLength: 10, blank: true, choices: Grades })
  grade!: string;

  @MultipleChoiceField(Amenities, { blank: true })
  amenities!: string[];

  /** Counted through the racks standing in the hall. */
  @RelatedCount(() => Port, 'rack.hall')
  port_count!: number;
}

@Model({
  path: 'racks',
  display: 'name',
  brief: ['name'],
  ordering: ['_name'],
  search: ['name', 'hall.name'],
  briefOnWrites: true,
  filters: { mac: { path: 'ports.mac' }, hall_public: { path: 'hall.public_access' } },
})
class Rack extends BaseModel {
  @Field.String({ maxLength: 20 })
  name!: string;

  /** Sorts by length, then text: an arbitrary key function. */
  @NaturalKey('name', (name) => `${String(name.length).padStart(3, '0')}${name}`)
  _name!: string;

  @ForeignKey(() => Hall, { nullable: true, onDelete: 'set_null', related: 'racks', limit: { public_access: true }, naturalFilter: false })
  hall!: Hall | null;

  @Field.String({ maxLength: 20, blank: true })
  code!: string;

  @ComputedField({ from: ['name', 'code'], compute: (v) => ({ label: `${String(v.name)}/${String(v.code)}` }) })
  summary!: Json;

  @ComputedField({ optOut: 'exclude' })
  inventory!: Json;

  @ComputedField({ optIn: 'include', provider: 'audit' })
  audit!: Json;

  @Field.JSON({ object: true, objectMessage: 'Give an object.' })
  notes!: unknown;
}

@Model({ path: 'ports', display: 'name', brief: ['rack', 'name'], ordering: ['name'] })
class Port extends BaseModel {
  @ForeignKey(() => Rack, { onDelete: 'cascade', related: 'ports', single: true })
  rack!: Rack;

  @RelatedVia(() => Hall, 'rack.hall')
  hall!: Hall | null;

  @Field.String({ maxLength: 20 })
  name!: string;

  @MACAddressField()
  mac!: string | null;

  @ForeignKey(() => Port, { nullable: true, onDelete: 'set_null', related: 'peers' })
  peer!: Port | null;

  @ForeignKey(() => Port, { nullable: true, onDelete: 'cascade', related: 'children' })
  parent!: Port | null;
}

/** An application providing the `audit` key: every object's id, as it saw it. */
const audit: ComputedValueProvider = {
  async load(_field, ids) {
    calls += 1;
    return new Map(ids.map((id) => [id, { seen: String(id) }]));
  },
};
let calls = 0;

let api: FixtureApi;
beforeAll(async () => {
  api = await fixtureApi([defineApp('site', [Hall, Rack, Port]), defineApp('auditing', [], { provides: { audit } })]);
});
afterAll(async () => {
  await api?.close();
});

const ok = async (res: { status: number; body: unknown }, status = 201) => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any>;
};
const names = (res: { body: any }) => res.body.results.map((r: { name: string }) => r.name);

describe('computed keys', () => {
  test('from own columns; from a provider; `{}` without one', async () => {
    const rack = await ok(await api.post('/api/site/racks/', { name: 'R1', code: 'A', summary: 'ignored' }));
    expect(rack.summary).toEqual({ label: 'R1/A' });
    expect(rack.inventory).toEqual({});
    // Write responses always carry opt-in keys.
    expect(rack.audit).toEqual({ seen: rack.id });
    expect(Object.keys(rack)).toEqual(['id', 'display', 'url', 'name', 'hall', 'code', 'summary', 'inventory', 'audit', 'notes']);
    const changed = await ok(await api.patch(`/api/site/racks/${rack.id}/`, { code: 'B' }), 200);
    expect(changed.summary).toEqual({ label: 'R1/B' });
  });

  test('opt-in on GET: a single value is searched as text, repeated values must match', async () => {
    const rack = await ok(await api.post('/api/site/racks/', { name: 'R2' }));
    const before = calls;
    expect('audit' in (await api.get(`/api/site/racks/${rack.id}/`)).body).toBe(false);
    expect(calls).toBe(before);
    expect((await api.get(`/api/site/racks/${rack.id}/?include=audit,relationships`)).body.audit).toEqual({ seen: rack.id });
    expect((await api.get(`/api/site/racks/${rack.id}/?include=x&include=audit`)).body.audit).toEqual({ seen: rack.id });
    expect('audit' in (await api.get(`/api/site/racks/${rack.id}/?include=x&include=audit,y`)).body).toBe(false);
    const list = await api.get(`/api/site/racks/?include=audit&name=R2`);
    expect(list.body.results[0].audit).toEqual({ seen: rack.id });
  });

  test('opt-out: the last value of the parameter is searched; any model ignores it as a filter', async () => {
    const rack = await ok(await api.post('/api/site/racks/', { name: 'R3' }));
    expect('inventory' in (await api.get(`/api/site/racks/${rack.id}/?exclude=a,inventory`)).body).toBe(false);
    expect((await api.get(`/api/site/racks/${rack.id}/?exclude=inventory&exclude=a`)).body.inventory).toEqual({});
    expect((await api.get(`/api/site/racks/?exclude=inventory&name=R3`)).body.results[0].inventory).toBeUndefined();
    const ports = await api.get('/api/site/ports/?exclude=inventory');
    expect(ports.status).toBe(200);
    expect('inventory' in (await api.get(`/api/site/racks/${rack.id}/?brief=1`)).body).toBe(false);
  });

  test('OPTIONS lists computed keys as read-only', async () => {
    const res = await api.options('/api/site/racks/');
    expect(res.body.actions.POST.summary).toMatchObject({ read_only: true, required: false });
    expect(res.body.actions.POST.audit).toMatchObject({ read_only: true });
  });
});

describe('relations', () => {
  test('an object through foreign keys; counts through a path; limited choices', async () => {
    const hall = await ok(await api.post('/api/site/halls/', { name: 'H1' }));
    const closed = await ok(await api.post('/api/site/halls/', { name: 'Closed', public_access: false }));
    const refused = await api.post('/api/site/racks/', { name: 'R-closed', hall: closed.id });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ hall: [`hall instance with id UUID('${closed.id}') does not exist.`] });
    const rack = await ok(await api.post('/api/site/racks/', { name: 'R-hall', hall: { name: 'H1' } }));
    const port = await ok(await api.post('/api/site/ports/', { rack: rack.id, name: 'p1', hall: closed.id }));
    expect(port.hall).toEqual({ id: hall.id, display: 'H1', url: hall.url, name: 'H1' });
    await ok(await api.post('/api/site/ports/', { rack: rack.id, name: 'p2' }));
    expect((await api.get(`/api/site/halls/${hall.id}/`)).body.port_count).toBe(2);
    expect((await api.get(`/api/site/halls/${closed.id}/`)).body.port_count).toBe(0);
    const orphan = await ok(await api.post('/api/site/racks/', { name: 'R-none' }));
    const loose = await ok(await api.post('/api/site/ports/', { rack: orphan.id, name: 'p3' }));
    expect(loose.hall).toBeNull();
    const options = await api.options('/api/site/ports/');
    expect(options.body.actions.POST.hall).toMatchObject({ type: 'nested object', read_only: true });
  });

  test('filters: natural filter off, single-value relation filter, fields of related rows, search through a key', async () => {
    const hall = await ok(await api.post('/api/site/halls/', { name: 'Search hall' }));
    const a = await ok(await api.post('/api/site/racks/', { name: 'SA', hall: hall.id }));
    const b = await ok(await api.post('/api/site/racks/', { name: 'SB' }));
    await ok(await api.post('/api/site/ports/', { rack: a.id, name: 'sp', mac: 'aa-bb-cc-00-00-01' }));
    await ok(await api.post('/api/site/ports/', { rack: b.id, name: 'sp', mac: 'AABB.CC00.0002' }));
    expect((await api.get('/api/site/racks/?hall=Search hall')).body).toEqual({ hall: ['Unknown filter field'] });
    expect(names(await api.get(`/api/site/racks/?hall_id=${hall.id}`))).toEqual(['SA']);
    expect(names(await api.get(`/api/site/racks/?hall_public=true&name__isw=S`))).toEqual(['SA']);
    expect(names(await api.get('/api/site/racks/?mac=aa:bb:cc:00:00:02'))).toEqual(['SB']);
    expect(names(await api.get('/api/site/racks/?mac__iew=00:01'))).toEqual(['SA']);
    expect(names(await api.get('/api/site/racks/?name__isw=S&mac__n=AA:BB:CC:00:00:01'))).toEqual(['SB']);
    expect(names(await api.get('/api/site/racks/?q=search h'))).toEqual(['SA']);
    const ports = await api.get(`/api/site/ports/?rack=${a.id}&rack=${b.id}`);
    expect(ports.body.results.map((p: { rack: { id: string } }) => p.rack.id)).toEqual([b.id]);
    expect((await api.get('/api/site/ports/?rack=SA')).body.results).toHaveLength(1);
    // A natural key that several rows share stands for all of them.
    await ok(await api.post('/api/site/racks/', { name: 'SA' }));
    const shared = await ok(await api.post('/api/site/ports/', { rack: b.id, name: 'sp2' }));
    expect((await api.get('/api/site/ports/?rack=SA')).body.count).toBe(1);
    expect(shared.mac).toBeNull();
  });

  test('custom natural key; brief on writes; JSON objects only', async () => {
    for (const name of ['ccc', 'a', 'bb']) await ok(await api.post('/api/site/racks/', { name: `k${name}` }));
    expect(names(await api.get('/api/site/racks/?name__isw=k'))).toEqual(['ka', 'kbb', 'kccc']);
    const brief = await ok(await api.post('/api/site/racks/?brief=1', { name: 'kb' }));
    expect(brief).toEqual({ id: brief.id, display: 'kb', url: brief.url, name: 'kb' });
    const notObject = await api.post('/api/site/racks/', { name: 'kj', notes: [1] });
    expect(notObject.body).toEqual({ notes: ['Give an object.'] });
    expect((await ok(await api.post('/api/site/racks/', { name: 'kj', notes: { a: 1 } }))).notes).toEqual({ a: 1 });
  });

  test('rows deleted together may point at each other', async () => {
    const rack = await ok(await api.post('/api/site/racks/', { name: 'Doomed' }));
    const p1 = await ok(await api.post('/api/site/ports/', { rack: rack.id, name: 'd1' }));
    const p2 = await ok(await api.post('/api/site/ports/', { rack: rack.id, name: 'd2', peer: p1.id }));
    await ok(await api.patch(`/api/site/ports/${p1.id}/`, { peer: p2.id }), 200);
    const child = await ok(await api.post('/api/site/ports/', { rack: rack.id, name: 'd0', parent: p2.id }));
    expect((await api.delete(`/api/site/racks/${rack.id}/`)).status).toBe(204);
    for (const p of [p1, p2, child]) expect((await api.get(`/api/site/ports/${p.id}/`)).status).toBe(404);
  });
});

describe('choices', () => {
  test('text restricted to choices: a written value must be one; OPTIONS lists them; filters match text', async () => {
    const gold = await ok(await api.post('/api/site/halls/', { name: 'Gold hall', grade: 'gold' }));
    expect(gold.grade).toBe('gold');
    expect((await ok(await api.post('/api/site/halls/', { name: 'No grade' }))).grade).toBe('');
    const refused = await api.post('/api/site/halls/', { name: 'Tin hall', grade: 'tin' });
    expect(refused.body).toEqual({ grade: ['"tin" is not a valid choice.', 'Valid choices are: gold, silver.'] });
    const options = await api.options('/api/site/halls/');
    expect(options.body.actions.POST.grade).toEqual({
      type: 'choice', required: false, read_only: false, label: 'Grade', max_length: 10,
      choices: [{ value: 'gold', display: 'Gold' }, { value: 'silver', display: 'Silver' }],
    });
    expect(names(await api.get('/api/site/halls/?grade__ic=OL'))).toEqual(['Gold hall']);
    expect(names(await api.get('/api/site/halls/?grade=tin'))).toEqual([]);
    const field = api.registry.forClass(Hall).field('grade')!;
    // The schema context serves related models only: a string needs none.
    expect(field.kind.schema?.(field, 'write', {} as never)).toEqual({ type: 'string', enum: ['gold', 'silver', ''], maxLength: 10 });
  });

  test('a list of choices: a bare list on read and write; a filter selects the lists holding every value', async () => {
    const both = await ok(await api.post('/api/site/halls/', { name: 'Cool hall', amenities: ['power', 'cooling', 'power'] }));
    expect(both.amenities).toEqual(['power', 'cooling']);
    await ok(await api.post('/api/site/halls/', { name: 'Powered hall', amenities: ['power'] }));
    expect((await ok(await api.post('/api/site/halls/', { name: 'Bare hall' }))).amenities).toEqual([]);
    expect((await api.post('/api/site/halls/', { name: 'Wet hall', amenities: ['water'] })).body).toEqual({ amenities: ['"water" is not a valid choice.'] });
    expect((await api.post('/api/site/halls/', { name: 'Odd hall', amenities: 'power' })).body).toEqual({ amenities: ['Expected a list of items but got type "str".'] });
    expect(names(await api.get('/api/site/halls/?amenities=power'))).toEqual(['Cool hall', 'Powered hall']);
    expect(names(await api.get('/api/site/halls/?amenities=power&amenities=cooling'))).toEqual(['Cool hall']);
    expect(names(await api.get('/api/site/halls/?amenities=fire-suppression'))).toEqual([]);
    const options = await api.options('/api/site/halls/');
    expect(options.body.actions.POST.amenities).toEqual({
      type: 'multiple choice', required: false, read_only: false, label: 'Amenities',
      choices: [{ value: 'power', display: 'Power' }, { value: 'cooling', display: 'Cooling' }, { value: 'fire-suppression', display: 'Fire suppression' }],
    });
  });
});
