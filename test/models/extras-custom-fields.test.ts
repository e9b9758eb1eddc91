/**
 * Custom fields: the definitions and their choices (API 1.2/1.3 by name, 1.4+ by slug), values
 * on objects for every type (read, write, default, validation, filters with and without lookup),
 * defaults back-filled and values removed with the definitions, and the cost of a page.
 * Runs on every database (NETINV_TEST_DATABASE_URL).
 */
import { booleanKind, dateKind, integerKind, jsonKind, multipleChoiceKind, textKind } from '../../framework';
import { SUFFIXES } from '../../framework/filterset/suffixes';
import { appForThisFile } from '../helpers/harness';

const app = appForThisFile();

type Obj = Record<string, any>;
const CF = '/api/extras/custom-fields/';
const CHOICES = '/api/extras/custom-field-choices/';
const SITES = '/api/dcim/sites/';
const V14 = 'api_version=1.4';

async function created(res: { status: number; body: any }): Promise<Obj> {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}
let counter = 0;
async function site(extra: Obj = {}, query = ''): Promise<Obj> {
  counter += 1;
  return created(await app.post(`${SITES}${query ? `?${query}` : ''}`, { name: `cf site ${counter}`, status: 'active', ...extra }));
}
async function field(body: Obj, query = ''): Promise<Obj> {
  return created(await app.post(`${CF}${query ? `?${query}` : ''}`, body));
}
async function names(query: string): Promise<string[]> {
  const res = await app.get(`${SITES}?limit=0&${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.results.map((s: Obj) => s.name).sort();
}

describe('definitions', () => {
  test('API 1.2: name written and shown after label; label defaults to the name; slug from the label', async () => {
    const f = await field({ name: 'legacy_owner', type: 'text', content_types: ['tenancy.tenant'] });
    expect(Object.keys(f)).toEqual([
      'id', 'display', 'url', 'content_types', 'type', 'label', 'name', 'slug', 'description', 'required', 'filter_logic', 'default',
      'weight', 'validation_minimum', 'validation_maximum', 'validation_regex', 'created', 'last_updated', 'notes_url',
    ]);
    expect(f).toMatchObject({
      display: 'legacy_owner', label: 'legacy_owner', name: 'legacy_owner', slug: 'legacy_owner',
      type: { value: 'text', label: 'Text' }, filter_logic: { value: 'loose', label: 'Loose' },
      required: false, default: null, weight: 100, validation_minimum: null, validation_maximum: null, validation_regex: '',
    });
    const missing = await app.post(CF, { type: 'text', content_types: ['tenancy.tenant'] });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ name: ['This field is required.'] });
  });

  test('API 1.4: no name; label required; slug from the label with underscores; name copied from the slug', async () => {
    const f = await field({ label: 'Cost-Center Code', type: 'integer', content_types: ['tenancy.tenant'] }, V14);
    expect('name' in f).toBe(false);
    expect(f.slug).toBe('cost_center_code');
    const old = await app.get(`${CF}${f.id}/`);
    expect(old.body.name).toBe('cost_center_code');
    const brief = await app.get(`${CF}${f.id}/?brief=1&${V14}`);
    expect(brief.body).toEqual({ id: f.id, display: 'Cost-Center Code', url: f.url, name: 'cost_center_code' });
    const noLabel = await app.post(`${CF}?${V14}`, { type: 'text', content_types: ['tenancy.tenant'] });
    expect(noLabel.status).toBe(400);
    expect(noLabel.body).toEqual({ label: ['This field is required.'] });
  });

  test('name, slug and type cannot change', async () => {
    const f = await field({ name: 'immutable', type: 'text', content_types: ['tenancy.tenant'] });
    for (const [body, key, message] of [
      [{ name: 'other' }, 'name', 'Name cannot be changed once created'],
      [{ slug: 'other' }, 'slug', 'Slug cannot be changed once created'],
      [{ type: 'integer' }, 'type', 'Type cannot be changed once created'],
    ] as const) {
      const res = await app.patch(`${CF}${f.id}/`, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ [key]: [message] });
    }
    expect((await app.patch(`${CF}${f.id}/`, { label: 'Renamed', description: 'ok' })).status).toBe(200);
  });

  test.each([
    [{ type: 'text', validation_minimum: 1 }, { validation_minimum: ['A minimum value may be set only for numeric fields'] }],
    [{ type: 'date', validation_maximum: 1 }, { validation_maximum: ['A maximum value may be set only for numeric fields'] }],
    [{ type: 'integer', validation_regex: '^x' }, { validation_regex: ['Regular expression validation is supported only for text, URL and select fields'] }],
    [{ type: 'text', validation_regex: '(?=x)' }, { validation_regex: ['(?=x) is not a valid regular expression.'] }],
    [{ type: 'integer', default: 'many' }, { default: ['Invalid default value "many": Value must be an integer.'] }],
    [{ type: 'integer', default: 3, validation_minimum: 5 }, { default: ['Invalid default value "3": Value must be at least 5'] }],
    [{ type: 'select', default: 'gold' }, { default: ['The specified default value (gold) is not listed as an available choice.'] }],
    [{ type: 'colour' }, { type: ['colour is not a valid choice.', 'Valid choices are: text, integer, boolean, date, url, select, multi-select, json, markdown.'] }],
    [{ type: 'text', content_types: ['users.token'] }, { content_types: ['Invalid content type: users.token'] }],
  ])('definition rules: %j', async (body, errors) => {
    counter += 1;
    const res = await app.post(CF, { name: `bad_${counter}`, content_types: ['tenancy.tenant'], ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
  });

  test('filters of the catalogue only; ordering by weight then name', async () => {
    await field({ name: 'zz_heavy', type: 'boolean', content_types: ['tenancy.tenantgroup'], weight: 1, required: false, filter_logic: 'exact' });
    await field({ name: 'aa_light', type: 'boolean', content_types: ['tenancy.tenantgroup', 'dcim.region'], weight: 900, required: true, default: false });
    const byType = await app.get(`${CF}?content_types=tenancy.tenantgroup`);
    expect(byType.body.results.map((f: Obj) => f.name)).toEqual(['zz_heavy', 'aa_light']);
    expect((await app.get(`${CF}?content_types=tenancy.tenantgroup&content_types=dcim.region`)).body.count).toBe(1);
    expect((await app.get(`${CF}?required=true&content_types=tenancy.tenantgroup`)).body.count).toBe(1);
    expect((await app.get(`${CF}?filter_logic=exact&content_types=tenancy.tenantgroup`)).body.count).toBe(1);
    expect((await app.get(`${CF}?name__ic=heav`)).body.count).toBe(1);
    expect((await app.get(`${CF}?q=light`)).body.count).toBe(1);
    expect((await app.get(`${CF}?weight__lt=2`)).body.count).toBe(1);
    for (const unknown of ['label=x', 'type=text', 'slug=x', 'default=1']) {
      expect((await app.get(`${CF}?${unknown}`)).status).toBe(400);
    }
  });
});

describe('values on objects, per type', () => {
  // One field per type on sites; each row: type, extra definition, a valid value (and how it
  // reads back), an invalid value and its reason, a filter matching the valid value.
  const CASES = [
    { type: 'text', extra: { validation_regex: '^[a-z]+' }, good: 'noc team', bad: 'NOC', reason: "Value must match regex '^[a-z]+'", filter: 'TEAM' },
    { type: 'integer', extra: { validation_minimum: 1, validation_maximum: 100 }, good: 42, bad: '42', reason: 'Value must be an integer.', filter: '42' },
    { type: 'boolean', extra: {}, good: true, bad: 'yes', reason: 'Value must be true or false.', filter: 'true' },
    { type: 'date', extra: {}, good: '2025-01-31', bad: '2025-1-31', reason: 'Date values must be in the format YYYY-MM-DD.', filter: '2025-01-31' },
    { type: 'url', extra: {}, good: 'https://noc.example/x', bad: 12, reason: 'Value must be a string', filter: 'noc.example' },
    { type: 'select', extra: {}, good: 'gold', bad: 'tin', reason: 'Invalid choice (tin). Available choices are: gold, silver, bronze', filter: 'gold' },
    { type: 'multi-select', extra: {}, good: ['bgp', 'ospf'], bad: ['bgp', 'rip'], reason: "Invalid choice(s) (['bgp', 'rip']). Available choices are: bgp, ospf, isis", filter: 'ospf' },
    { type: 'json', extra: {}, good: { a: [1, 2] }, bad: undefined, reason: '', filter: 'a' },
    { type: 'markdown', extra: {}, good: '**bold**', bad: ['x'], reason: 'Value must be a string', filter: 'bold' },
  ] as const;
  const CHOICE_VALUES: Record<string, string[]> = { select: ['gold', 'silver', 'bronze'], 'multi-select': ['bgp', 'ospf', 'isis'] };
  const nameOf = (type: string) => `t_${type.replace('-', '_')}`;

  beforeAll(async () => {
    for (const c of CASES) {
      const f = await field({ name: nameOf(c.type), type: c.type, content_types: ['dcim.site'], ...c.extra });
      for (const [i, value] of (CHOICE_VALUES[c.type] ?? []).entries()) {
        await created(await app.post(CHOICES, { field: f.id, value, weight: i * 10 }));
      }
    }
  });

  test.each(CASES.map((c) => [c.type, c] as const))('%s: written, read back, filtered', async (type, c) => {
    const name = nameOf(type);
    const s = await site({ custom_fields: { [name]: c.good } });
    expect(s.custom_fields[name]).toEqual(c.good);
    expect((await app.get(`${SITES}${s.id}/`)).body.custom_fields[name]).toEqual(c.good);
    expect(await names(`cf_${name}=${encodeURIComponent(c.filter)}`)).toContain(s.name);
    // Every other site holds no value: `null` matches them.
    expect(await names(`cf_${name}=null`)).not.toContain(s.name);
  });

  for (const c of CASES) {
    const refusable = c.bad !== undefined;
    (refusable ? test : test.skip)(`${c.type}: an invalid value is refused${refusable ? '' : ' (skipped: any JSON value is valid)'}`, async () => {
      const name = nameOf(c.type);
      const bad = await app.post(SITES, { name: `bad ${c.type}`, status: 'active', custom_fields: { [name]: c.bad } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ __all__: [`Invalid value for custom field '${name}': ${c.reason}`] });
    });
  }

  test('every type takes a default, applied on create and back-filled', async () => {
    const existing = await created(await app.post('/api/ipam/vrfs/', { name: 'defaults before', rd: '65010:1' }));
    const expected: Record<string, unknown> = {};
    for (const c of CASES) {
      const name = `d_${nameOf(c.type)}`;
      const choices = CHOICE_VALUES[c.type];
      // A selection's default must be one of its choices, which exist only once the field does.
      const f = await field({ name, type: c.type, content_types: ['ipam.vrf'], ...(choices ? {} : { default: c.good }) });
      if (choices) {
        for (const value of choices) await created(await app.post(CHOICES, { field: f.id, value }));
        expect((await app.patch(`${CF}${f.id}/`, { default: c.good })).status).toBe(200);
      }
      expected[name] = c.good;
    }
    const vrf = await created(await app.post('/api/ipam/vrfs/', { name: 'defaults after', rd: '65010:2' }));
    expect(vrf.custom_fields).toEqual(expected);
    // Fields created with their default back-filled the existing VRF; selections got theirs later.
    const before = (await app.get(`/api/ipam/vrfs/${existing.id}/`)).body.custom_fields;
    for (const c of CASES) expect(before[`d_${nameOf(c.type)}`]).toEqual(CHOICE_VALUES[c.type] ? null : c.good);
  });

  test('integers: bounds; booleans: 0 and 1 stored as booleans; empty values; all keys present, null when unset', async () => {
    const low = await app.post(SITES, { name: 'low', status: 'active', custom_fields: { t_integer: 0 } });
    expect(low.body).toEqual({ __all__: ["Invalid value for custom field 't_integer': Value must be at least 1"] });
    const high = await app.post(SITES, { name: 'high', status: 'active', custom_fields: { t_integer: 101 } });
    expect(high.body).toEqual({ __all__: ["Invalid value for custom field 't_integer': Value must not exceed 100"] });
    const flag = await site({ custom_fields: { t_boolean: 0, t_text: '', t_multi_select: [] } });
    expect(flag.custom_fields).toMatchObject({ t_boolean: false, t_text: '', t_multi_select: [], t_json: null });
    expect(Object.keys(flag.custom_fields).sort()).toEqual(CASES.map((c) => nameOf(c.type)).sort());
    expect(await names('cf_t_boolean=false')).toEqual([flag.name]);
    expect(await names('cf_t_boolean=False')).toEqual([flag.name]);
  });

  test('boolean filter values are read as Nautobot\'s NullBooleanSelect reads them: anything else filters nothing', async () => {
    const yes = await site({ custom_fields: { t_boolean: true } });
    const no = await site({ custom_fields: { t_boolean: false } });
    const all = await names('');
    for (const value of ['true', 'True', '2']) expect(await names(`cf_t_boolean=${value}`)).toContain(yes.name);
    for (const value of ['false', 'False', '3']) expect(await names(`cf_t_boolean=${value}`)).toEqual(expect.arrayContaining([no.name]));
    expect(await names('cf_t_boolean=false')).not.toContain(yes.name);
    // `0`, `1` and `yes` are no boolean to Nautobot: the filter is ignored (it matched `false` before).
    for (const value of ['0', '1', 'yes']) expect(await names(`cf_t_boolean=${value}`)).toEqual(all);
  });

  test('PATCH merges; null clears; unknown keys are ignored and never stored', async () => {
    const s = await site({ custom_fields: { t_text: 'abc', t_integer: 5 } });
    const patched = await app.patch(`${SITES}${s.id}/`, { custom_fields: { t_integer: 6, nonsense: 1, t_text: null } });
    expect(patched.status).toBe(200);
    expect(patched.body.custom_fields).toMatchObject({ t_text: null, t_integer: 6 });
    expect('nonsense' in patched.body.custom_fields).toBe(false);
    const put = await app.put(`${SITES}${s.id}/`, { name: s.name, status: 'active' });
    expect(put.body.custom_fields).toMatchObject({ t_integer: 6 });
    const notDict = await app.patch(`${SITES}${s.id}/`, { custom_fields: ['x'] });
    expect(notDict.body).toEqual({ custom_fields: ['Expected a dictionary of items but got type "list".'] });
  });

  test('keys: names at 1.2/1.3, slugs at 1.4+; the other key is unknown and ignored', async () => {
    await field({ label: 'Rack Unit', slug: 'rack_unit_slug', type: 'integer', content_types: ['dcim.site'] }, V14);
    // The name was copied from the slug; a 1.2 field whose slug differs from its name:
    await field({ name: 'legacy_name', label: 'Legacy Label', type: 'text', content_types: ['dcim.site'] });
    const s = await site({ custom_fields: { legacy_label: 'by slug', legacy_name: 'by name' } }, V14);
    expect(s.custom_fields.legacy_label).toBe('by slug');
    expect('legacy_name' in s.custom_fields).toBe(false);
    const old = await app.get(`${SITES}${s.id}/?api_version=1.3`);
    expect(old.body.custom_fields.legacy_name).toBe('by slug');
    expect('legacy_label' in old.body.custom_fields).toBe(false);
    expect(await names(`cf_legacy_name=${encodeURIComponent('by slug')}`)).toEqual([s.name]);
  });
});

describe('defaults and required fields', () => {
  test('defaults apply on create and are back-filled into existing objects in the same request', async () => {
    const before = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'Group before' }));
    const f = await field({ name: 'tier', type: 'text', content_types: ['tenancy.tenantgroup'], default: 'bronze' });
    expect((await app.get(`/api/tenancy/tenant-groups/${before.id}/`)).body.custom_fields.tier).toBe('bronze');
    const after = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'Group after' }));
    expect(after.custom_fields.tier).toBe('bronze');
    const given = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'Group given', custom_fields: { tier: 'gold' } }));
    expect(given.custom_fields.tier).toBe('gold');
    expect((await app.get(`/api/tenancy/tenant-groups/?cf_tier=bronze&limit=0`)).body.count).toBeGreaterThanOrEqual(2);
    // Changing the default back-fills nothing; adding a content type back-fills it.
    await app.patch(`${CF}${f.id}/`, { default: 'silver' });
    expect((await app.get(`/api/tenancy/tenant-groups/${before.id}/`)).body.custom_fields.tier).toBe('bronze');
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'Backfilled tenant' }));
    await app.patch(`${CF}${f.id}/`, { content_types: ['tenancy.tenantgroup', 'tenancy.tenant'] });
    expect((await app.get(`/api/tenancy/tenants/${tenant.id}/`)).body.custom_fields.tier).toBe('silver');
    // Removing a content type removes the values; so does deleting the field.
    await app.patch(`${CF}${f.id}/`, { content_types: ['tenancy.tenant'] });
    expect('tier' in (await app.get(`/api/tenancy/tenant-groups/${given.id}/`)).body.custom_fields).toBe(false);
    await app.patch(`${CF}${f.id}/`, { content_types: ['tenancy.tenant', 'tenancy.tenantgroup'] });
    expect((await app.get(`/api/tenancy/tenant-groups/${given.id}/`)).body.custom_fields.tier).toBe('silver');
    expect((await app.delete(`${CF}${f.id}/`)).status).toBe(204);
    expect('tier' in (await app.get(`/api/tenancy/tenants/${tenant.id}/`)).body.custom_fields).toBe(false);
    // A new field of the same name does not see the old values.
    await field({ name: 'tier', type: 'text', content_types: ['tenancy.tenant'] });
    expect((await app.get(`/api/tenancy/tenants/${tenant.id}/`)).body.custom_fields.tier).toBeNull();
  });

  test('required fields: missing, empty, and any later write of an object without a value', async () => {
    const role = await created(await app.post('/api/ipam/roles/', { name: 'Role before required' }));
    await field({ name: 'approval', type: 'text', content_types: ['ipam.role'], required: true });
    const missing = await app.post('/api/ipam/roles/', { name: 'No approval' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ __all__: ["Missing required custom field 'approval'."] });
    const empty = await app.post('/api/ipam/roles/', { name: 'Empty approval', custom_fields: { approval: '' } });
    expect(empty.body).toEqual({ __all__: ["Invalid value for custom field 'approval': Required field cannot be empty."] });
    expect((await app.post('/api/ipam/roles/', { name: 'Approved', custom_fields: { approval: 'yes' } })).status).toBe(201);
    const stale = await app.patch(`/api/ipam/roles/${role.id}/`, { description: 'x' });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ __all__: ["Missing required custom field 'approval'."] });
    // A required field with a default fills itself in.
    await field({ name: 'reviewed', type: 'boolean', content_types: ['ipam.role'], required: true, default: false });
    const role2 = await created(await app.post('/api/ipam/roles/', { name: 'Defaulted', custom_fields: { approval: 'y' } }));
    expect(role2.custom_fields).toEqual({ approval: 'y', reviewed: false });
  });
});

describe('filters', () => {
  beforeAll(async () => {
    await field({ name: 'f_loose', type: 'text', content_types: ['ipam.rir'] });
    await field({ name: 'f_exact', type: 'text', content_types: ['ipam.rir'], filter_logic: 'exact' });
    await field({ name: 'f_off', type: 'text', content_types: ['ipam.rir'], filter_logic: 'disabled' });
    await field({ name: 'f_int', type: 'integer', content_types: ['ipam.rir'] });
    await field({ name: 'f_date', type: 'date', content_types: ['ipam.rir'] });
    await field({ name: 'f_json', type: 'json', content_types: ['ipam.rir'] });
    const rows: Array<[string, Obj]> = [
      ['rir-a', { f_loose: 'Alpha North', f_exact: 'Alpha', f_int: 5, f_date: '2024-01-15', f_json: { k: 'deep' } }],
      ['rir-b', { f_loose: 'beta south', f_exact: 'alpha', f_int: 50, f_date: '2024-12-01' }],
      ['rir-c', { f_loose: '100%_sure', f_int: -3 }],
      ['rir-d', {}],
    ];
    for (const [name, cf] of rows) await created(await app.post('/api/ipam/rirs/', { name, custom_fields: cf }));
  });
  const rirs = async (query: string): Promise<string[] | Obj> => {
    const res = await app.get(`/api/ipam/rirs/?limit=0&${query}`);
    return res.status === 200 ? res.body.results.map((r: Obj) => r.name).sort() : { status: res.status, body: res.body };
  };

  test.each([
    ['cf_f_loose=alpha', ['rir-a']],
    ['cf_f_loose=SOUTH', ['rir-b']],
    ['cf_f_loose=%25_', ['rir-c']],
    ['cf_f_loose=a&cf_f_loose=zzz', []],
    ['cf_f_exact=alpha', ['rir-b']],
    ['cf_f_exact=Alph', []],
    ['cf_f_int=5', ['rir-a']],
    ['cf_f_int=-3', ['rir-c']],
    ['cf_f_int=null', ['rir-d']],
    ['cf_f_date=2024-12-01', ['rir-b']],
    ['cf_f_json=deep', ['rir-a']],
  ])('%s', async (query, expected) => {
    expect(await rirs(query)).toEqual(expected);
  });

  test.each([
    ['cf_f_loose__ic=NORTH', ['rir-a']],
    ['cf_f_loose__nic=north', ['rir-b', 'rir-c', 'rir-d']],
    ['cf_f_loose__isw=alp&cf_f_loose__isw=bet', ['rir-a', 'rir-b']],
    ['cf_f_loose__iew=SOUTH', ['rir-b']],
    ['cf_f_loose__ie=alpha%20north', ['rir-a']],
    ['cf_f_loose__re=^[a-z]', ['rir-b']],
    ['cf_f_loose__ire=^[a-z]', ['rir-a', 'rir-b']],
    ['cf_f_loose__nre=^[a-z]', ['rir-a', 'rir-c', 'rir-d']],
    ['cf_f_exact__n=alpha', ['rir-a', 'rir-c', 'rir-d']],
    ['cf_f_int__gte=5', ['rir-a', 'rir-b']],
    ['cf_f_int__lt=5', ['rir-c']],
    ['cf_f_int__n=5', ['rir-b', 'rir-c', 'rir-d']],
    ['cf_f_date__gt=2024-06-01', ['rir-b']],
    ['cf_f_date__lte=2024-06-01', ['rir-a']],
  ])('lookups at every API version: %s', async (query, expected) => {
    // "Since 1.4" in the catalogue is the Nautobot release that added them, not an API version.
    expect(await rirs(`${query}&${V14}`)).toEqual(expected);
    expect(await rirs(query)).toEqual(expected);
    expect(await rirs(`${query}&api_version=1.2`)).toEqual(expected);
  });

  test('lookups need a type that has them; disabled fields have no filter; bad values are 400', async () => {
    expect(await rirs(`cf_f_json__ic=a&${V14}`)).toEqual({ status: 400, body: { cf_f_json__ic: ['Unknown filter field'] } });
    expect(await rirs('cf_f_off=x')).toEqual({ status: 400, body: { cf_f_off: ['Unknown filter field'] } });
    expect(await rirs('cf_f_int=many')).toEqual({ status: 400, body: { cf_f_int: ['Enter a whole number.'] } });
    expect(await rirs('cf_f_date=tomorrow')).toEqual({ status: 400, body: { cf_f_date: ['Enter a valid date.'] } });
    expect((await rirs(`cf_f_loose__re=(&${V14}`) as Obj).status).toBe(400);
  });

  test('the base filter takes the last value when repeated', async () => {
    expect(await rirs('cf_f_int=5&cf_f_int=50')).toEqual(['rir-b']);
  });
});

describe('choices', () => {
  let sel: Obj;
  let multi: Obj;
  beforeAll(async () => {
    sel = await field({ name: 'c_single', type: 'select', content_types: ['ipam.vlangroup'], validation_regex: '^[a-z-]+$' });
    multi = await field({ name: 'c_multi', type: 'multi-select', content_types: ['ipam.vlangroup'] });
  });

  test('representation, nested field, ordering by weight then value', async () => {
    const b = await created(await app.post(CHOICES, { field: sel.id, value: 'beta', weight: 10 }));
    await created(await app.post(CHOICES, { field: { name: 'c_single' }, value: 'alpha', weight: 10 }));
    await created(await app.post(CHOICES, { field: sel.id, value: 'zulu', weight: 1 }));
    expect(Object.keys(b)).toEqual(['id', 'display', 'url', 'field', 'value', 'weight', 'created', 'last_updated']);
    expect(b.field).toEqual({ id: sel.id, display: 'c_single', url: sel.url, name: 'c_single' });
    expect(b.display).toBe('beta');
    const list = await app.get(`${CHOICES}?field=c_single`);
    expect(list.body.results.map((c: Obj) => c.value)).toEqual(['zulu', 'alpha', 'beta']);
    expect((await app.get(`${CHOICES}?field_id=${sel.id}&value=beta`)).body.count).toBe(1);
    const brief = await app.get(`${CHOICES}${b.id}/?brief=1`);
    expect(brief.body).toEqual((await app.get(`${CHOICES}${b.id}/`)).body);
  });

  test('rules: selection fields only, the field regex, unique per field', async () => {
    const text = await field({ name: 'c_text', type: 'text', content_types: ['ipam.vlangroup'] });
    expect((await app.post(CHOICES, { field: text.id, value: 'x' })).body).toEqual({ field: ['Custom field choices can only be assigned to selection fields.'] });
    expect((await app.post(CHOICES, { field: sel.id, value: 'Upper' })).body).toEqual({ value: ['Value must match regex ^[a-z-]+$ got Upper.'] });
    expect((await app.post(CHOICES, { field: sel.id, value: 'beta' })).body).toEqual({ non_field_errors: ['The fields field, value must make a unique set.'] });
  });

  test('a choice in use or used as default cannot be deleted; renaming rewrites stored values', async () => {
    const used = await created(await app.post(CHOICES, { field: sel.id, value: 'used' }));
    const m1 = await created(await app.post(CHOICES, { field: multi.id, value: 'one' }));
    await created(await app.post(CHOICES, { field: multi.id, value: 'two' }));
    const group = await created(await app.post('/api/ipam/vlan-groups/', { name: 'Choice group', custom_fields: { c_single: 'used', c_multi: ['one', 'two'] } }));
    const blocked = await app.delete(`${CHOICES}${used.id}/`);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: used (${used.id})` });
    expect((await app.delete(`${CHOICES}${m1.id}/`)).status).toBe(409);

    expect((await app.patch(`${CHOICES}${used.id}/`, { value: 'renamed' })).status).toBe(200);
    expect((await app.patch(`${CHOICES}${m1.id}/`, { value: 'uno' })).status).toBe(200);
    const after = await app.get(`/api/ipam/vlan-groups/${group.id}/`);
    expect(after.body.custom_fields).toMatchObject({ c_single: 'renamed', c_multi: ['uno', 'two'] });
    expect((await app.get('/api/ipam/vlan-groups/?cf_c_multi=uno')).body.count).toBe(1);
    expect((await app.get('/api/ipam/vlan-groups/?cf_c_multi=one')).body.count).toBe(0);

    await app.patch(`/api/ipam/vlan-groups/${group.id}/`, { custom_fields: { c_single: null } });
    expect((await app.delete(`${CHOICES}${used.id}/`)).status).toBe(204);
    const defaulted = await created(await app.post(CHOICES, { field: sel.id, value: 'fallback' }));
    await app.patch(`${CF}${sel.id}/`, { default: 'fallback' });
    expect((await app.delete(`${CHOICES}${defaulted.id}/`)).status).toBe(409);
    // Deleting the field takes its choices along, whatever uses them.
    expect((await app.delete(`${CF}${multi.id}/`)).status).toBe(204);
    expect((await app.get(`${CHOICES}?field_id=${multi.id}`)).status).toBe(400);
  });
});

describe('OPTIONS and cost', () => {
  test('OPTIONS lists the custom fields of the model under custom_fields', async () => {
    await field({ name: 'o_pick', label: 'Pick', type: 'select', content_types: ['ipam.routetarget'], required: true, description: 'choose' });
    const pick = await field({ name: 'o_count', type: 'integer', content_types: ['ipam.routetarget'], validation_minimum: 0, weight: 1 });
    const choices = await app.get(`${CF}?name=o_pick`);
    await created(await app.post(CHOICES, { field: choices.body.results[0].id, value: 'p1' }));
    const res = await app.options('/api/ipam/route-targets/');
    expect(res.body.actions.POST.custom_fields).toEqual({
      type: 'field', required: false, read_only: false, label: 'Custom fields',
      children: {
        o_count: { type: 'integer', required: false, read_only: false, label: 'o_count', min_value: 0 },
        o_pick: { type: 'choice', required: true, read_only: false, label: 'Pick', help_text: 'choose', choices: [{ value: 'p1', display: 'p1' }] },
      },
    });
    expect(pick.weight).toBe(1);
  });

  test('definitions load once per request: a page costs the same whatever its size', async () => {
    await field({ name: 'cost_a', type: 'text', content_types: ['ipam.vlan'], default: 'a' });
    await field({ name: 'cost_b', type: 'select', content_types: ['ipam.vlan'] });
    for (let vid = 1; vid <= 12; vid++) await created(await app.post('/api/ipam/vlans/', { vid, name: `cost ${vid}`, status: 'active' }));
    const cost = async (limit: number) => {
      await app.get(`/api/ipam/vlans/?limit=${limit}&cf_cost_a=a`); // the configuration caches are warm, as on a server between requests
      const start = app.queries();
      const res = await app.get(`/api/ipam/vlans/?limit=${limit}&cf_cost_a=a`);
      expect(res.body.results).toHaveLength(limit);
      return app.queries() - start;
    };
    expect(await cost(2)).toBe(await cost(12));
  });
});

describe('one path: each type is a field kind, filtered, described and typed as a column of that kind', () => {
  const PROVIDERS = '/api/circuits/providers/';
  const TEXT = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 're', 'nre', 'ire', 'nire'];
  const ORDER = ['n', 'lt', 'lte', 'gt', 'gte'];
  /**
   * Per type: its kind, the `cf_<name>__<suffix>` lookups Nautobot 1.6 gives it, its OPTIONS type,
   * the OpenAPI schema of its plain filter, its GraphQL type, and a value its filters parse.
   */
  const TYPES = [
    { type: 'text', kind: textKind, suffixes: TEXT, info: 'string', plain: { type: 'string' }, graphql: 'String', value: 'x' },
    { type: 'url', kind: textKind, suffixes: TEXT, info: 'url', plain: { type: 'string' }, graphql: 'String', value: 'x' },
    { type: 'select', kind: textKind, suffixes: TEXT, info: 'choice', plain: { type: 'string' }, graphql: 'String', value: 'x' },
    { type: 'markdown', kind: textKind, suffixes: [], info: 'string', plain: { type: 'string' }, graphql: 'String', value: 'x' },
    { type: 'integer', kind: integerKind, suffixes: ORDER, info: 'integer', plain: { type: 'integer' }, graphql: 'Int', value: '1' },
    { type: 'date', kind: dateKind, suffixes: ORDER, info: 'date', plain: { type: 'string', format: 'date' }, graphql: 'Date', value: '2024-01-01' },
    { type: 'boolean', kind: booleanKind, suffixes: [], info: 'boolean', plain: { type: 'boolean' }, graphql: 'Boolean', value: 'true' },
    { type: 'multi-select', kind: multipleChoiceKind, suffixes: [], info: 'multiple choice', plain: { type: 'string' }, graphql: '[String]', value: 'x' },
    { type: 'json', kind: jsonKind, suffixes: [], info: 'field', plain: { type: 'string' }, graphql: 'GenericScalar', value: 'x' },
  ] as const;
  const nameOf = (type: string) => `k_${type.replace('-', '_')}`;
  type Param = { name: string; schema: unknown };
  let doc: { paths: Record<string, { get: { parameters: Param[] } }> };
  const params = (path: string) => doc.paths[path].get.parameters;
  const param = (path: string, name: string) => params(path).find((p) => p.name === name);
  /** The suffixes of the filters the OpenAPI document lists under `base` on `path`. */
  const listed = (path: string, base: string) => params(path).map((p) => p.name).filter((n) => n.startsWith(`${base}__`)).map((n) => n.slice(base.length + 2)).sort();

  beforeAll(async () => {
    for (const t of TYPES) await field({ name: nameOf(t.type), type: t.type, content_types: ['circuits.provider'] });
    doc = JSON.parse((await app.get('/api/swagger.json?api_version=1.6')).text);
  });

  test.each(TYPES.map((t) => [t.type, t] as const))('%s: the lookups of its kind, and no other', async (type, t) => {
    const name = nameOf(type);
    // The kind declares them (a markdown field narrows its text kind's to the plain filter, as Nautobot does).
    const declared = t.kind.lookups ? [...t.kind.lookups({} as never)].filter((s) => s !== '') : [];
    expect(type === 'markdown' ? [] : declared.sort()).toEqual([...t.suffixes].sort());
    // The server accepts exactly those: every suffix any filter knows is tried.
    const accepted: string[] = [];
    for (const suffix of Object.keys(SUFFIXES).filter((s) => s !== '')) {
      const res = await app.get(`${PROVIDERS}?cf_${name}__${suffix}=${encodeURIComponent(t.value)}`);
      if (res.status === 200) accepted.push(suffix);
      else expect(res.body).toEqual({ [`cf_${name}__${suffix}`]: ['Unknown filter field'] });
    }
    expect(accepted.sort()).toEqual([...t.suffixes].sort());
    expect(listed('/circuits/providers/', `cf_${name}`)).toEqual([...t.suffixes].sort());
    expect(param('/circuits/providers/', `cf_${name}`)?.schema).toEqual(t.plain);
  });

  test('lookups and their OpenAPI schemas are those of columns of the same kinds', () => {
    // Text: a provider's account number; integers: its ASN; dates: a circuit's install date.
    expect(listed('/circuits/providers/', 'account')).toEqual([...TEXT].sort());
    expect(listed('/circuits/providers/', 'asn')).toEqual([...ORDER].sort());
    expect(listed('/circuits/circuits/', 'install_date')).toEqual([...ORDER].sort());
    for (const suffix of TEXT) {
      expect(param('/circuits/providers/', `cf_k_text__${suffix}`)?.schema).toEqual(param('/circuits/providers/', `account__${suffix}`)?.schema);
    }
    for (const suffix of ORDER) {
      expect(param('/circuits/providers/', `cf_k_integer__${suffix}`)?.schema).toEqual({ type: 'array', items: { type: 'integer' } });
      expect(param('/circuits/providers/', `cf_k_integer__${suffix}`)?.schema).toEqual(param('/circuits/providers/', `asn__${suffix}`)?.schema);
      expect(param('/circuits/providers/', `cf_k_date__${suffix}`)?.schema).toEqual({ type: 'array', items: { type: 'string', format: 'date' } });
      expect(param('/circuits/providers/', `cf_k_date__${suffix}`)?.schema).toEqual(param('/circuits/circuits/', `install_date__${suffix}`)?.schema);
    }
    // A boolean's plain filter: one value, as a VRF's enforce_unique.
    expect(param('/circuits/providers/', 'cf_k_boolean')?.schema).toEqual(param('/ipam/vrfs/', 'enforce_unique')?.schema);
  });

  test('OPTIONS describes each as a column of its kind', async () => {
    const children = (await app.options(PROVIDERS)).body.actions.POST.custom_fields.children;
    const types = Object.fromEntries(TYPES.map((t) => [t.type, children[nameOf(t.type)].type]));
    expect(types).toEqual(Object.fromEntries(TYPES.map((t) => [t.type, t.info])));
    const columns = (await app.options(PROVIDERS)).body.actions.POST;
    expect([columns.comments.type, columns.portal_url.type, columns.asn.type]).toEqual([types.text, types.url, types.integer]);
    expect((await app.options('/api/circuits/circuits/')).body.actions.POST.install_date.type).toBe(types.date);
    expect((await app.options('/api/ipam/vrfs/')).body.actions.POST.enforce_unique.type).toBe(types.boolean);
  });

  test('GraphQL types each as its kind', async () => {
    const sdl = (await app.get('/api/graphql/schema.graphql')).text;
    const provider = /\ntype ProviderType \{\n([\s\S]*?)\n\}/.exec(sdl)?.[1] ?? '';
    for (const t of TYPES) expect(provider).toContain(`  cf_${nameOf(t.type)}: ${t.graphql}\n`);
  });

  test('regular expressions are checked as for columns', async () => {
    const res = await app.get(`${PROVIDERS}?cf_k_text__re=(`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ cf_k_text__re: ['Invalid regular expression: missing closing parenthesis.'] });
    expect((await app.get(`${PROVIDERS}?account__re=(`)).body).toEqual({ account__re: ['Invalid regular expression: missing closing parenthesis.'] });
  });
});
