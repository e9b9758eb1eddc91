/**
 * Specification "Filtering rules" and the reference's filter semantics (behaviour-lists.md §3) on
 * concrete models, asserting exact result sets: combination rules, negation and NULL, related
 * objects and trees, tags, strings with special and non-ASCII characters, numbers, dates,
 * booleans, search, strict and lenient unknown parameters, regular expressions and query counts.
 */
import { dialectUnderTest } from '../helpers/database';
import { startApp, type TestApp } from '../helpers/harness';
import { loadConfig } from '../../app/config';

type Row = Record<string, any>;

let app: TestApp;
let lenient: TestApp;
const ids: Record<string, string> = {};
const LONG = `${'a'.repeat(5000)}b`;

const created = async (res: { status: number; body: any }): Promise<Row> => {
  if (res.status !== 201) throw new Error(`expected 201, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Row;
};

/** Names (or another key) of every object the list returns for a query string. */
async function list(path: string, query: string, key = 'name'): Promise<string[]> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await app.get(`${path}${sep}${query}${query ? '&' : ''}limit=0`);
  if (res.status !== 200) throw new Error(`${path}?${query}: ${res.status} ${JSON.stringify(res.body)}`);
  expect(res.body.count).toBe(res.body.results.length);
  return (res.body.results as Row[]).map((r) => String(r[key])).sort();
}

const sites = (query: string) => list('/api/dcim/sites/', query);
const q = (value: string) => encodeURIComponent(value);

const SITE_NAMES = ['Alpha', 'Beta site', 'Gamma', 'Delta', 'Äpfel', 'École', 'Σίσυφος', 'Long'];
const ALL = [...SITE_NAMES].sort();
const except = (...names: string[]) => ALL.filter((n) => !names.includes(n));

beforeAll(async () => {
  app = await startApp();
  lenient = await startApp({ NETINV_STRICT_FILTERING: 'false' }, { databaseSuffix: 'lenient' });
  const post = async (path: string, body: Row) => created(await app.post(path, body));

  const europe = await post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
  const nl = await post('/api/dcim/regions/', { name: 'Netherlands', slug: 'nl', parent: europe.id });
  const ams = await post('/api/dcim/regions/', { name: 'Amsterdam', slug: 'ams', parent: nl.id });
  const asia = await post('/api/dcim/regions/', { name: 'Asia', slug: 'asia' });
  Object.assign(ids, { europe: europe.id, nl: nl.id, ams: ams.id, asia: asia.id });

  const corp = await post('/api/tenancy/tenant-groups/', { name: 'Corp', slug: 'corp' });
  const sub = await post('/api/tenancy/tenant-groups/', { name: 'Sub', slug: 'sub', parent: corp.id });
  const acme = await post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', group: corp.id });
  const beta = await post('/api/tenancy/tenants/', { name: 'Beta', slug: 'beta', group: sub.id });
  const gamma = await post('/api/tenancy/tenants/', { name: 'Gamma', slug: 'gamma' });
  Object.assign(ids, { corp: corp.id, sub: sub.id, acme: acme.id, beta: beta.id, gamma: gamma.id });

  const tag = (name: string) => post('/api/extras/tags/', { name, slug: name.toLowerCase(), content_types: ['dcim.site', 'tenancy.tenant'] });
  const gold = await tag('Gold');
  const core = await tag('Core');
  await tag('Silver');
  ids.gold = gold.id;

  const site = async (name: string, body: Row) => {
    const s = await post('/api/dcim/sites/', { name, status: 'active', ...body });
    ids[name] = s.id;
    return s;
  };
  await site('Alpha', { region: ams.id, tenant: acme.id, asn: 65001, tags: [gold.id, core.id], facility: 'F1', description: 'first' });
  await site('Beta site', { status: 'planned', region: nl.id, tenant: beta.id, asn: 65002, tags: [gold.id], description: '100% sure' });
  await site('Gamma', { region: asia.id, asn: null, tags: [core.id], description: 'under_score' });
  await site('Delta', { status: 'retired', tenant: gamma.id, asn: 65003, description: `quote ' and " and \\ back`, time_zone: 'Europe/Amsterdam' });
  await site('Äpfel', { description: 'Ünïcode ÄÉΣ' });
  await site('École', { description: 'école' });
  await site('Σίσυφος', { description: 'σίσυφος' });
  await site('Long', { comments: LONG });
});

afterAll(async () => {
  await app?.close();
  await lenient?.close();
});

describe('combination of parameters', () => {
  test('different parameters AND', async () => {
    expect(await sites('status=active&tenant=acme')).toEqual(['Alpha']);
    expect(await sites('asn__gt=65001&asn__lt=65003')).toEqual(['Beta site']);
  });

  test('a repeated parameter ORs its values', async () => {
    expect(await sites('name=Alpha&name=Gamma')).toEqual(['Alpha', 'Gamma']);
    expect(await sites('status=planned&status=retired')).toEqual(['Beta site', 'Delta']);
    expect(await sites(`id=${ids.Alpha}&id=${ids.Delta}`)).toEqual(['Alpha', 'Delta']);
    expect(await sites('tenant=acme&tenant=beta')).toEqual(['Alpha', 'Beta site']);
  });

  test('a repeated negated parameter excludes every value', async () => {
    expect(await sites('name__n=Alpha&name__n=Gamma')).toEqual(except('Alpha', 'Gamma'));
    expect(await sites('description__nic=first&description__nic=sure')).toEqual(except('Alpha', 'Beta site'));
  });

  test('an empty value does not filter', async () => {
    expect(await sites('name=&asn=')).toEqual(ALL);
  });

  test('single-valued filters keep the last value', async () => {
    expect(await sites('q=Alpha&q=Gamma')).toEqual(['Gamma']);
  });
});

describe('negation keeps rows whose value is empty', () => {
  test('foreign keys: rows without a region or tenant stay', async () => {
    expect(await sites('region__n=asia')).toEqual(except('Gamma'));
    expect(await sites('tenant__n=acme')).toEqual(except('Alpha'));
    expect(await sites(`tenant_id__n=${ids.acme}`)).toEqual(except('Alpha'));
  });

  test('numbers: rows without an ASN stay for __n, not for comparisons', async () => {
    expect(await sites('asn__n=65001')).toEqual(except('Alpha'));
    expect(await sites('asn__lt=65002')).toEqual(['Alpha']);
    expect(await sites('asn__lte=65002')).toEqual(['Alpha', 'Beta site']);
    expect(await sites('asn__gte=65002')).toEqual(['Beta site', 'Delta']);
    expect(await sites('asn=65003')).toEqual(['Delta']);
  });
});

describe('related objects', () => {
  test('<fk>=null selects empty relations, alone or ORed with values', async () => {
    expect(await sites('tenant=null')).toEqual(except('Alpha', 'Beta site', 'Delta'));
    expect(await sites('tenant_id=null')).toEqual(except('Alpha', 'Beta site', 'Delta'));
    expect(await sites('tenant=null&tenant=acme')).toEqual(except('Beta site', 'Delta'));
  });

  test('by slug, by UUID, mixed', async () => {
    expect(await sites(`tenant=${ids.acme}&tenant=beta`)).toEqual(['Alpha', 'Beta site']);
    expect(await sites(`tenant_id=${ids.gamma}`)).toEqual(['Delta']);
  });

  test('tree filters include descendants', async () => {
    expect(await sites('region=europe')).toEqual(['Alpha', 'Beta site']);
    expect(await sites(`region_id=${ids.nl}`)).toEqual(['Alpha', 'Beta site']);
    expect(await sites('region=ams&region=asia')).toEqual(['Alpha', 'Gamma']);
    expect(await sites('tenant_group=corp')).toEqual(['Alpha', 'Beta site']);
    expect(await sites('tenant_group=sub')).toEqual(['Beta site']);
    expect(await list('/api/tenancy/tenants/', 'group=corp')).toEqual(['Acme', 'Beta']);
    expect(await list('/api/tenancy/tenants/', 'group__n=corp')).toEqual(['Gamma']);
  });

  test('regions: parent, children and sites', async () => {
    expect(await list('/api/dcim/regions/', 'parent=europe')).toEqual(['Netherlands']);
    expect(await list('/api/dcim/regions/', 'parent=null')).toEqual(['Asia', 'Europe']);
    expect(await list('/api/dcim/regions/', 'has_children=true')).toEqual(['Europe', 'Netherlands']);
    expect(await list('/api/dcim/regions/', 'has_children=False')).toEqual(['Amsterdam', 'Asia']);
    expect(await list('/api/dcim/regions/', 'sites=alpha')).toEqual(['Amsterdam']);
    expect(await list('/api/dcim/regions/', 'has_sites=true')).toEqual(['Amsterdam', 'Asia', 'Netherlands']);
  });

  test('unknown related values are a 400 with the exact message', async () => {
    const res = await app.get('/api/dcim/sites/?region=nowhere&tenant_id=abc&status=nosuch');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      region: ['Select a valid choice. nowhere is not one of the available choices.'],
      tenant_id: ['“abc” is not a valid UUID.'],
      status: ['Select a valid choice. nosuch is not one of the available choices.'],
    });
    const unknownId = '6f0c0000-0000-4000-8000-000000000000';
    expect((await app.get(`/api/dcim/sites/?region_id=${unknownId}`)).body).toEqual({
      region_id: [`Select a valid choice. ${unknownId} is not one of the available choices.`],
    });
  });

  test('status by slug only, with __n', async () => {
    expect(await sites('status=active')).toEqual(except('Beta site', 'Delta'));
    expect(await sites('status__n=active')).toEqual(['Beta site', 'Delta']);
    const active = (await app.get('/api/extras/statuses/?slug=active')).body.results[0].id as string;
    expect((await app.get(`/api/dcim/sites/?status=${active}`)).body).toEqual({ status: [`Select a valid choice. ${active} is not one of the available choices.`] });
  });
});

describe('tags', () => {
  test('tag=<slug>; repeated tags AND; tag__n excludes every tag', async () => {
    expect(await sites('tag=gold')).toEqual(['Alpha', 'Beta site']);
    expect(await sites('tag=gold&tag=core')).toEqual(['Alpha']);
    expect(await sites('tag__n=gold')).toEqual(except('Alpha', 'Beta site'));
    expect(await sites('tag__n=gold&tag__n=core')).toEqual(except('Alpha', 'Beta site', 'Gamma'));
    expect(await sites('tag=silver')).toEqual([]);
  });

  test('tags are matched by slug only: a UUID or an unknown slug is a 400', async () => {
    expect((await app.get(`/api/dcim/sites/?tag=${ids.gold}`)).body).toEqual({ tag: [`Select a valid choice. ${ids.gold} is not one of the available choices.`] });
    expect((await app.get('/api/dcim/sites/?tag=nosuchtag')).body).toEqual({ tag: ['Select a valid choice. nosuchtag is not one of the available choices.'] });
  });

  test('tags list: content types AND, lookups', async () => {
    expect(await list('/api/extras/tags/', 'content_types=dcim.site&content_types=tenancy.tenant')).toEqual(['Core', 'Gold', 'Silver']);
    expect(await list('/api/extras/tags/', 'name__isw=G&name__n=Silver')).toEqual(['Gold']);
    expect(await list('/api/extras/tags/', 'slug__re=^(gold|core)$')).toEqual(['Core', 'Gold']);
  });
});

describe('statuses', () => {
  test('content types AND; names and slugs by lookup', async () => {
    expect(await list('/api/extras/statuses/', 'content_types=dcim.site', 'slug')).toEqual(['active', 'decommissioning', 'planned', 'retired', 'staging']);
    expect(await list('/api/extras/statuses/', 'content_types=dcim.site&content_types=tenancy.tenant', 'slug')).toEqual([]);
    const all = await list('/api/extras/statuses/', '', 'slug');
    expect(await list('/api/extras/statuses/', 'content_types__n=dcim.site', 'slug')).toEqual(all.filter((s) => !['active', 'decommissioning', 'planned', 'retired', 'staging'].includes(s)));
    expect(await list('/api/extras/statuses/', 'name__ie=ACTIVE', 'slug')).toEqual(['active']);
    expect(await list('/api/extras/statuses/', 'slug__iew=TIRED', 'slug')).toEqual(['retired']);
    expect((await app.get('/api/extras/statuses/?content_types=nope.nope')).body).toEqual({
      content_types: ['Select a valid choice. nope.nope is not one of the available choices.'],
    });
  });
});

describe('strings', () => {
  test('every string lookup on one field', async () => {
    expect(await sites('description=first')).toEqual(['Alpha']);
    expect(await sites('description__n=first')).toEqual(except('Alpha'));
    expect(await sites('description__ic=IRS')).toEqual(['Alpha']);
    expect(await sites('description__nic=irs')).toEqual(except('Alpha'));
    expect(await sites('description__isw=FIR')).toEqual(['Alpha']);
    expect(await sites('description__nisw=fir')).toEqual(except('Alpha'));
    expect(await sites('description__iew=SCORE')).toEqual(['Gamma']);
    expect(await sites('description__niew=score')).toEqual(except('Gamma'));
    expect(await sites('description__ie=FIRST')).toEqual(['Alpha']);
    expect(await sites('description__nie=FIRST')).toEqual(except('Alpha'));
    expect(await sites(`description__re=${q('^f.rst$')}`)).toEqual(['Alpha']);
    expect(await sites(`description__nre=${q('^f')}`)).toEqual(except('Alpha'));
    expect(await sites(`description__ire=${q('^FIR')}`)).toEqual(['Alpha']);
    expect(await sites(`description__nire=${q('^FIR')}`)).toEqual(except('Alpha'));
  });

  test('%, _, quotes and backslashes match literally', async () => {
    expect(await sites(`description__ic=${q('%')}`)).toEqual(['Beta site']);
    expect(await sites(`description__ic=${q('_')}`)).toEqual(['Gamma']);
    expect(await sites(`description__isw=${q('100%')}`)).toEqual(['Beta site']);
    expect(await sites(`description__ic=${q("'")}`)).toEqual(['Delta']);
    expect(await sites(`description__ic=${q('"')}`)).toEqual(['Delta']);
    expect(await sites(`description__ic=${q('\\')}`)).toEqual(['Delta']);
    expect(await sites(`description=${q(`quote ' and " and \\ back`)}`)).toEqual(['Delta']);
    expect(await sites(`description__ie=${q(`QUOTE ' AND " AND \\ BACK`)}`)).toEqual(['Delta']);
    expect(await sites(`description__iew=${q('\\ back')}`)).toEqual(['Delta']);
    expect(await sites(`description__re=${q('\\\\ back$')}`)).toEqual(['Delta']);
    expect(await sites(`description__re=${q('^100% s')}`)).toEqual(['Beta site']);
    expect(await sites(`description__ic=${q('!')}`)).toEqual([]);
    expect(await sites(`description__ic=${q('r_s')}`)).toEqual(['Gamma']);
    expect(await sites(`description__ic=${q('r%s')}`)).toEqual([]);
    expect(await sites(`description__ic=${q('0_ s')}`)).toEqual([]);
  });

  test('exact matching is case-sensitive and does not ignore trailing spaces', async () => {
    expect(await sites('name=Alpha')).toEqual(['Alpha']);
    expect(await sites('name=alpha')).toEqual([]);
    expect(await sites(`name=${q('Alpha ')}`)).toEqual([]);
    expect(await sites(`name__ie=${q('alpha ')}`)).toEqual([]);
    expect(await sites(`name__n=${q('Alpha ')}`)).toEqual(ALL);
    expect(await sites('name=%C3%A4pfel')).toEqual([]);
    expect(await sites(`name=${q('Äpfel')}`)).toEqual(['Äpfel']);
  });

  test('i-lookups fold the case of non-ASCII letters alike on every database', async () => {
    expect(await sites(`name__ic=${q('äPF')}`)).toEqual(['Äpfel']);
    expect(await sites(`name__ie=${q('ÄPFEL')}`)).toEqual(['Äpfel']);
    expect(await sites(`name__isw=${q('éCOL')}`)).toEqual(['École']);
    expect(await sites(`name__iew=${q('COLE')}`)).toEqual(['École']);
    expect(await sites(`name__isw=${q('ΣΊ')}`)).toEqual(['Σίσυφος']);
    expect(await sites(`name__ic=${q('ΣΥΦ')}`)).toEqual(['Σίσυφος']);
    expect(await sites(`description__ic=${q('ünïcode äéσ')}`)).toEqual(['Äpfel']);
    expect(await sites(`description__ie=${q('ÉCOLE')}`)).toEqual(['École']);
    expect(await sites(`name__nie=${q('äpfel')}`)).toEqual(except('Äpfel'));
    expect(await sites(`name__ire=${q('^äpfel$')}`)).toEqual(['Äpfel']);
    expect(await sites(`name__ire=${q('^ÉCOLE$')}`)).toEqual(['École']);
    expect(await sites(`name__ire=${q('^σίσυφοσ$')}`)).toEqual(['Σίσυφος']);
    expect(await sites(`name__re=${q('^äpfel$')}`)).toEqual([]);
    expect(await sites(`description__ic=${q('ÄÉΣ')}`)).toEqual(['Äpfel']);
  });

  test('time zones by value', async () => {
    expect(await sites(`time_zone=${q('Europe/Amsterdam')}`)).toEqual(['Delta']);
    expect(await sites(`time_zone__n=${q('Europe/Amsterdam')}`)).toEqual(except('Delta'));
  });
});

describe('search (q)', () => {
  test('q searches the declared fields and the id; integers match ASN exactly', async () => {
    expect(await sites('q=FIRST')).toEqual(['Alpha']);
    expect(await sites('q=F1')).toEqual(['Alpha']);
    expect(await sites('q=65002')).toEqual(['Beta site']);
    expect(await sites(`q=${ids.Gamma}`)).toEqual(['Gamma']);
    expect(await sites(`q=${q('%')}`)).toEqual(['Beta site']);
    expect(await sites('q=')).toEqual(ALL);
    expect(await list('/api/dcim/regions/', 'q=ams')).toEqual(['Amsterdam']);
    expect(await list('/api/tenancy/tenants/', 'q=acm')).toEqual(['Acme']);
  });
});

describe('dates and timestamps', () => {
  test('created with its lookups; no other lookups', async () => {
    const alpha = (await app.get(`/api/dcim/sites/${ids.Alpha}/`)).body as Row;
    const day = alpha.created as string;
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86400000).toISOString().slice(0, 10);
    expect(await sites(`created=${day}`)).toEqual(ALL);
    expect(await sites(`created__gte=${day}&created__lte=${day}`)).toEqual(ALL);
    expect(await sites(`created__gte=${next}`)).toEqual([]);
    expect(await sites('created__lte=2000-01-01')).toEqual([]);
    expect((await app.get('/api/dcim/sites/?created=2024-13-01')).body).toEqual({ created: ['Enter a valid date.'] });
    expect((await app.get('/api/dcim/sites/?created__lt=2024-01-01')).body).toEqual({ created__lt: ['Unknown filter field'] });
  });

  test('last_updated with its lookups', async () => {
    const delta = (await app.get(`/api/dcim/sites/${ids.Delta}/`)).body as Row;
    expect(await sites(`last_updated=${q(delta.last_updated)}`)).toContain('Delta');
    expect(await sites(`last_updated__gte=${q('2000-01-01T00:00:00Z')}`)).toEqual(ALL);
    expect(await sites(`last_updated__lte=${q('2000-01-01T00:00:00Z')}`)).toEqual([]);
    expect((await app.get('/api/dcim/sites/?last_updated__gte=soon')).body).toEqual({ last_updated__gte: ['Enter a valid date/time.'] });
  });
});

describe('users and tokens', () => {
  beforeAll(async () => {
    await created(await app.post('/api/users/users/', { username: 'ann', password: 'correct horse', email: 'ann@example.net', first_name: 'Ann' }));
    await created(await app.post('/api/users/users/', { username: 'bob', password: 'correct horse', is_active: false, is_staff: true }));
  });
  const users = (query: string) => list('/api/users/users/', query, 'username');

  test('booleans: true/True/false/False; any other value does not filter', async () => {
    expect(await users('is_active=false')).toEqual(['bob']);
    expect(await users('is_active=False')).toEqual(['bob']);
    expect(await users('is_active=true')).toEqual(['admin', 'ann']);
    expect(await users('is_active=True')).toEqual(['admin', 'ann']);
    expect(await users('is_staff=true')).toEqual(['bob']);
    for (const ignored of ['1', '0', 'yes', 'TRUE', 'maybe']) expect(await users(`is_active=${ignored}`)).toEqual(['admin', 'ann', 'bob']);
  });

  test('user strings and q', async () => {
    expect(await users('username__isw=A')).toEqual(['admin', 'ann']);
    expect(await users('email__iew=EXAMPLE.NET')).toEqual(['ann']);
    expect(await users('first_name=Ann')).toEqual(['ann']);
    expect(await users('q=bo')).toEqual(['bob']);
  });

  test('tokens: booleans, timestamps with negation keeping null, key and q', async () => {
    await created(await app.post('/api/users/tokens/', { description: 'ci runner', write_enabled: false, key: 'ab'.repeat(20) }));
    await created(await app.post('/api/users/tokens/', { description: 'expiring', expires: '2030-01-01T00:00:00Z' }));
    const tokens = (query: string) => list('/api/users/tokens/', query, 'description');
    expect(await tokens('write_enabled=false')).toEqual(['ci runner']);
    expect(await tokens(`expires__lt=${q('2031-01-01T00:00:00Z')}`)).toEqual(['expiring']);
    expect(await tokens(`expires=${q('2030-01-01T00:00:00Z')}`)).toEqual(['expiring']);
    expect(await tokens(`expires__n=${q('2030-01-01T00:00:00Z')}`)).toEqual(['', 'ci runner']);
    expect(await tokens(`key__isw=ABAB`)).toEqual(['ci runner']);
    expect(await tokens('q=RUNNER')).toEqual(['ci runner']);
    expect(await tokens(`created__gt=${q('2000-01-01T00:00:00Z')}`)).toEqual(['', 'ci runner', 'expiring']);
    expect((await app.get('/api/users/tokens/?expires=never')).body).toEqual({ expires: ['Enter a valid date/time.'] });
  });
});

describe('strict and lenient filtering', () => {
  test('unknown parameters and lookups are named in one 400 with the value errors', async () => {
    const res = await app.get('/api/dcim/sites/?ice_cream_flavor=x&name__bogus=1&region__isnull=true&region=nowhere');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      ice_cream_flavor: ['Unknown filter field'],
      name__bogus: ['Unknown filter field'],
      region__isnull: ['Unknown filter field'],
      region: ['Select a valid choice. nowhere is not one of the available choices.'],
    });
    expect((await app.get('/api/dcim/sites/?ordering=name')).body).toEqual({ ordering: ['Unknown filter field'] });
  });

  test('parameters named like object internals are unknown filters too', async () => {
    const res = await app.get('/api/dcim/sites/?__proto__=1&constructor=2&toString=3');
    expect(res.status).toBe(400);
    expect(res.text).toBe('{"__proto__":["Unknown filter field"],"constructor":["Unknown filter field"],"toString":["Unknown filter field"]}');
  });

  test('limit, offset, brief, api_version, include, exclude and format are not filters', async () => {
    const res = await app.get('/api/dcim/sites/?limit=2&offset=1&brief=1&api_version=1.3&include=relationships&exclude=config_context&format=json');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(ALL.length);
  });

  test('with strict filtering off unknown parameters are ignored; malformed values are still a 400', async () => {
    const res = await lenient.get('/api/dcim/sites/?ice_cream_flavor=x&name__bogus=1');
    expect(res.status).toBe(200);
    const bad = await lenient.get('/api/dcim/sites/?ice_cream_flavor=x&asn=abc&id=abc&region=nowhere&name__re=(');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      asn: ['Enter a whole number.'],
      id: ['Enter a valid UUID.'],
      region: ['Select a valid choice. nowhere is not one of the available choices.'],
      name__re: ['Invalid regular expression: missing closing parenthesis.'],
    });
  });
});

const NO_HANG_MS = 10_000;

describe('regular expressions', () => {
  const timed = async (path: string) => {
    const start = Date.now();
    const res = await app.get(path);
    return { res, ms: Date.now() - start };
  };

  test('an invalid pattern is a 400 on every database', async () => {
    for (const [pattern, reason] of [
      ['(', 'missing closing parenthesis'],
      ['a)', 'unbalanced parenthesis'],
      ['[a', 'missing closing ]'],
      ['*a', 'nothing to repeat'],
      ['(?=a)', 'only (?: ) groups are supported: no look-around, named groups or inline flags'],
      ['(a)\\1', 'unsupported escape \\1'],
    ]) {
      const res = await app.get(`/api/dcim/sites/?name__re=${q(pattern)}`);
      expect({ pattern, status: res.status, body: res.body }).toEqual({ pattern, status: 400, body: { name__re: [`Invalid regular expression: ${reason}.`] } });
    }
  });

  // A bound that tells "cancelled or linear" (the server cancels a regex query after 0.75 s) from
  // catastrophic backtracking (minutes), with room for a loaded machine: not a speed measurement.
  test('a catastrophic pattern against a long value never hangs the server', async () => {
    const { res, ms } = await timed(`/api/dcim/sites/?comments__re=${q('(a+)+$')}`);
    expect(ms).toBeLessThan(NO_HANG_MS);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['comments__re']);
    const nested = await timed(`/api/dcim/sites/?comments__ire=${q('^(a|aa)*$')}`);
    expect(nested.ms).toBeLessThan(NO_HANG_MS);
    expect(nested.res.status).toBe(400);
  });

  test('a heavy but valid pattern never hangs the server, nor answers wrongly', async () => {
    const { res, ms } = await timed(`/api/dcim/sites/?comments__re=${q('a*a*a*a*a*a*a*$')}`);
    expect(ms).toBeLessThan(NO_HANG_MS);
    if (dialectUnderTest() === 'mysql') {
      // PCRE2 gives up past its backtracking limit: refused rather than answered wrongly.
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { comments__re: ['The regular expression is too expensive to evaluate.'] } });
    } else {
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: Row) => r.name).sort()).toEqual(ALL);
    }
    const linear = await timed(`/api/dcim/sites/?comments__re=${q('^a{1,255}')}&comments__iew=AB`);
    expect(linear.ms).toBeLessThan(NO_HANG_MS);
    expect(linear.res.body.results.map((r: Row) => r.name)).toEqual(['Long']);
  });

  test('the same pattern means the same on every database', async () => {
    const values: Record<string, string> = {
      'R-1': 'line1\nline2',
      'R-2': 'ab12',
      'R-3': 'x.y',
      'R-4': 'tab\there',
      'R-5': '[br]-{c}',
      'R-6': 'ΟΔΟΣ οδος',
    };
    for (const [name, comments] of Object.entries(values)) await created(await app.post('/api/dcim/sites/', { name, status: 'active', comments }));
    const match = async (lookup: string, pattern: string) => list('/api/dcim/sites/', `name__isw=R-&comments__${lookup}=${q(pattern)}`);
    expect(await match('re', 'line1$')).toEqual([]);
    expect(await match('re', '^line2$')).toEqual([]);
    expect(await match('re', 'line2$')).toEqual(['R-1']);
    expect(await match('re', '1.line')).toEqual([]);
    expect(await match('re', '1\\sline')).toEqual(['R-1']);
    expect(await match('re', '^[a-z]+\\d{2}$')).toEqual(['R-2']);
    expect(await match('re', '\\w\\.\\w')).toEqual(['R-3']);
    expect(await match('re', 'x.y')).toEqual(['R-3']);
    expect(await match('re', '\\t')).toEqual(['R-4']);
    expect(await match('re', '\\[br\\]-\\{c\\}')).toEqual(['R-5']);
    expect(await match('re', '[\\]\\-]')).toEqual(['R-5']);
    expect(await match('re', '^(?:ab|x)')).toEqual(['R-2', 'R-3']);
    expect(await match('nre', '\\d')).toEqual(['R-3', 'R-4', 'R-5', 'R-6']);
    expect(await match('ire', 'οδοσ')).toEqual(['R-6']);
    expect(await match('ire', '^οδοσ οδοσ$')).toEqual(['R-6']);
    expect(await match('ire', 'AB\\d')).toEqual(['R-2']);
    expect(await match('nire', 'AB|TAB')).toEqual(['R-1', 'R-3', 'R-5', 'R-6']);
  });
});

describe('query count', () => {
  test('a filtered list costs the same number of queries whatever the page size', async () => {
    const query = 'tag=gold&region=europe&status=active&status=planned&name__ic=a&asn__gte=1&description__re=.';
    const cost = async (limit: number) => {
      await app.get(`/api/dcim/sites/?${query}&limit=${limit}`); // the configuration caches are warm, as on a server between requests
      const before = app.queries();
      const res = await app.get(`/api/dcim/sites/?${query}&limit=${limit}`);
      expect(res.status).toBe(200);
      return app.queries() - before;
    };
    const one = await cost(1);
    const many = await cost(50);
    expect(many).toBe(one);
    // count + page; one lookup per related-object parameter (tag, region, status); nested objects
    // (tags of the page, per-request feature data: the token, custom field definitions); on
    // MySQL-family a warnings check after each regex-filtered statement.
    expect(many).toBeLessThanOrEqual(2 + 3 + 3 + (dialectUnderTest() === 'mysql' ? 2 : 0));
    const unfiltered = await (async () => {
      const before = app.queries();
      await app.get('/api/dcim/sites/?limit=50');
      return app.queries() - before;
    })();
    expect(unfiltered).toBeLessThanOrEqual(2 + 3);
  });
});

describe('tenant group filters', () => {
  test('tenant_group and tenant_group_id take a slug or an id and include descendants, on every model that has them', async () => {
    const { FACTORIES } = await import('../factories/all');
    const { contextFor } = await import('../factories');
    const { filterSetFor } = await import('../../framework/filterset/filterset');
    const parent = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'TG parent' }));
    const child = await created(await app.post('/api/tenancy/tenant-groups/', { name: 'TG child', parent: parent.id }));
    const tenant = await created(await app.post('/api/tenancy/tenants/', { name: 'TG tenant', group: child.id }));
    const models = app.server.registry.models.filter((m) => m.path && filterSetFor(m).filters.has('tenant_group_id') && m.field('tenant'));
    expect(models.length).toBeGreaterThan(5);
    const wrong: string[] = [];
    for (const model of models) {
      const id = await contextFor(app, FACTORIES).make(model.label, { tenant: tenant.id });
      for (const query of [`tenant_group=${parent.slug}`, `tenant_group=${parent.id}`, `tenant_group_id=${parent.id}`, `tenant_group_id=${parent.slug}`]) {
        const res = await app.get(`${model.listPath}?${query}&limit=0`);
        if (res.status !== 200 || !res.body.results.some((r: Row) => r.id === id)) wrong.push(`${model.label}?${query} → ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

test('NETINV_REGEX_TIMEOUT_MS sets the regex time limit: 750 ms by default, 10 ms to 10 minutes', () => {
  expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).regexTimeoutMs).toBe(750);
  expect(loadConfig({ DATABASE_URL: 'sqlite::memory:', NETINV_REGEX_TIMEOUT_MS: '15000' }).regexTimeoutMs).toBe(15000);
  expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:', NETINV_REGEX_TIMEOUT_MS: '5' })).toThrow('regexTimeoutMs must not be less than 10');
});
