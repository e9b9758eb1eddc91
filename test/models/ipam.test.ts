/**
 * IPAM: network storage and every network lookup (truth tables for IPv4 and IPv6 with mixed
 * families), the named filters of the catalogue, the model rules, and allocation of prefixes and
 * addresses, including concurrent allocations.
 */
import { appForThisFile } from '../helpers/harness';
import { created, type Obj } from '../helpers/responses';
import { FACTORIES } from '../factories/all';
import { contextFor } from '../factories';

const app = appForThisFile();

const P = '/api/ipam/prefixes/';
const IP = '/api/ipam/ip-addresses/';
const prefixesOf = async (query: string): Promise<string[]> => {
  const res = await app.get(`${P}?limit=0&${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.results.map((p: { prefix: string }) => p.prefix);
};
const addressesOf = async (query: string): Promise<string[]> => {
  const res = await app.get(`${IP}?limit=0&${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.results.map((p: { address: string }) => p.address);
};
const enc = encodeURIComponent;

describe('storage and representation', () => {
  test('host bits cleared on prefixes, kept on addresses; canonical text; family', async () => {
    const p = await created(await app.post(P, { prefix: '192.0.2.77/24', status: 'active' }));
    expect(p.prefix).toBe('192.0.2.0/24');
    expect(p.display).toBe('192.0.2.0/24');
    expect(p.family).toEqual({ value: 4, label: 'IPv4' });
    const v6 = await created(await app.post(P, { prefix: '2001:DB8:0:0::1/64', status: 'active' }));
    expect(v6.prefix).toBe('2001:db8::/64');
    expect(v6.family).toEqual({ value: 6, label: 'IPv6' });
    const ip = await created(await app.post(IP, { address: '192.0.2.77/24', status: 'active' }));
    expect(ip.address).toBe('192.0.2.77/24');
    const bare = await created(await app.post(IP, { address: '2001:db8::1', status: 'active' }));
    expect(bare.address).toBe('2001:db8::1/128');
    const brief = await app.get(`${P}${p.id}/?brief=1`);
    expect(brief.body).toEqual({ id: p.id, display: '192.0.2.0/24', url: p.url, family: 4, prefix: '192.0.2.0/24' });
  });

  test.each([
    [P, { prefix: '0.0.0.0/0', status: 'active' }, { prefix: ['Cannot create prefix with /0 mask.'] }],
    [P, { prefix: '10.0.0.300/24', status: 'active' }, { prefix: ['Invalid IP address format: 10.0.0.300/24'] }],
    [P, { prefix: '10.0.0.0/33', status: 'active' }, { prefix: ['Invalid IP address format: 10.0.0.0/33'] }],
    [IP, { address: '::/0', status: 'active' }, { address: ['Cannot create IP address with /0 mask.'] }],
    [IP, { address: 'banana', status: 'active' }, { address: ['Invalid IP address format: banana'] }],
    [IP, { address: '10.1.1.1/24', status: 'slaac' }, { status: ['Only IPv6 addresses can be assigned SLAAC status'] }],
    [IP, { address: '10.1.1.1/24', status: 'active', dns_name: 'bad name' }, { dns_name: ['Only alphanumeric characters, hyphens, periods, and underscores are allowed in DNS names'] }],
  ])('%s %j → 400', async (path, body, errors) => {
    const res = await app.post(path, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(errors);
  });

  test('prefixes order by VRF (global first), then family, network, length', async () => {
    const vrf = await created(await app.post('/api/ipam/vrfs/', { name: 'Order', rd: '65000:900' }));
    for (const prefix of ['198.51.100.0/24', '198.51.100.0/25', '198.51.0.0/16', '2001:db8:ff::/48']) {
      await created(await app.post(P, { prefix, status: 'active', description: 'order' }));
    }
    await created(await app.post(P, { prefix: '1.1.1.0/24', status: 'active', description: 'order', vrf: vrf.id }));
    expect(await prefixesOf('description=order')).toEqual(['198.51.0.0/16', '198.51.100.0/24', '198.51.100.0/25', '2001:db8:ff::/48', '1.1.1.0/24']);
  });
});

describe('network lookups', () => {
  const NETS = [
    '10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25', '10.2.0.0/16', '11.0.0.0/8',
    '2001:db8::/32', '2001:db8:1::/48', '2001:db8:1:2::/64', '2002::/16',
    // an IPv6 network whose leading bits read as 32.1.13.184 in IPv4: must never leak into IPv4 answers
    '2001:db8:20::/48',
  ];
  beforeAll(async () => {
    await created(await app.post(P, NETS.map((prefix) => ({ prefix, status: 'container', description: 'truth' }))));
    await created(await app.post(IP, [
      '10.1.2.1/24', '10.1.2.1/32', '10.1.2.200/25', '10.2.0.5/16', '11.1.1.1/8', '2001:db8:1::1/64', '2001:db8:1::1/128', '2002::9/16',
    ].map((address) => ({ address, status: 'active', description: 'truth' }))));
  });
  const truth = (q: string) => prefixesOf(`description=truth&${q}`);
  const truthIps = (q: string) => addressesOf(`description=truth&${q}`);

  test.each([
    ['prefix__net_equals', '10.1.0.0/16', ['10.1.0.0/16']],
    ['prefix__net_equals', '10.1.0.0/17', []],
    ['prefix__net_contained', '10.1.0.0/16', ['10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25']],
    ['prefix__net_contained_or_equal', '10.1.0.0/16', ['10.1.0.0/16', '10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25']],
    ['prefix__net_contains', '10.1.2.0/25', ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']],
    ['prefix__net_contains_or_equals', '10.1.2.0/25', ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.1.2.0/25']],
    ['prefix__net_contains_or_equals', '10.1.2.130', ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.1.2.128/25']],
    ['prefix__net_contained', '32.0.0.0/8', []],
    ['prefix__net_contained', '0.0.0.0/0', ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25', '10.2.0.0/16', '11.0.0.0/8']],
    ['prefix__net_contained', '::/0', ['2001:db8::/32', '2001:db8:1::/48', '2001:db8:1:2::/64', '2001:db8:20::/48', '2002::/16']],
    ['prefix__net_contained', '2001:db8::/32', ['2001:db8:1::/48', '2001:db8:1:2::/64', '2001:db8:20::/48']],
    ['prefix__net_contains', '2001:db8:1:2::/64', ['2001:db8::/32', '2001:db8:1::/48']],
    ['prefix__net_contains_or_equals', '2001:db8:1:2::/128', ['2001:db8::/32', '2001:db8:1::/48', '2001:db8:1:2::/64']],
    ['within', '10.0.0.0/8', ['10.1.0.0/16', '10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25', '10.2.0.0/16']],
    ['within_include', '10.1.2.0/24', ['10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25']],
    ['contains', '10.1.2.0/24', ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24']],
    ['contains', '2001:db8:1:2::7', ['2001:db8::/32', '2001:db8:1::/48', '2001:db8:1:2::/64']],
    ['prefix', '10.1.2.9/24', ['10.1.2.0/24']],
    ['within', 'not-a-network', []],
    ['mask_length', '25', ['10.1.2.0/25', '10.1.2.128/25']],
    ['mask_length__gte', '48', ['2001:db8:1::/48', '2001:db8:1:2::/64', '2001:db8:20::/48']],
    ['mask_length__lte', '8', ['10.0.0.0/8', '11.0.0.0/8']],
    ['family', '6', ['2001:db8::/32', '2001:db8:1::/48', '2001:db8:1:2::/64', '2001:db8:20::/48', '2002::/16']],
    ['prefix__startswith', '10.1.', ['10.1.0.0/16', '10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25']],
    ['prefix__iendswith', '::/48', ['2001:db8:1::/48', '2001:db8:20::/48']],
    ['prefix__regex', '^10\\.[12]\\.0', ['10.1.0.0/16', '10.2.0.0/16']],
    ['q', '10.1', ['10.0.0.0/8', '10.1.0.0/16', '10.1.2.0/24', '10.1.2.0/25', '10.1.2.128/25']],
    ['q', '2001:db8:1', ['2001:db8::/32', '2001:db8:1::/48', '2001:db8:1:2::/64']],
  ])('prefixes %s=%s', async (param, value, expected) => {
    expect(await truth(`${param}=${enc(value)}`)).toEqual(expected);
  });

  test('repeated net_ lookups OR their values', async () => {
    expect(await truth(`prefix__net_equals=${enc('10.1.0.0/16')}&prefix__net_equals=${enc('2002::/16')}`)).toEqual(['10.1.0.0/16', '2002::/16']);
  });

  test.each([
    ['parent', '10.1.2.0/24', ['10.1.2.1/24', '10.1.2.1/32', '10.1.2.200/25']],
    ['parent', '10.1.2.128/25', ['10.1.2.200/25']],
    ['parent', '2001:db8::/32', ['2001:db8:1::1/64', '2001:db8:1::1/128']],
    ['address', '10.1.2.1', ['10.1.2.1/24', '10.1.2.1/32']],
    ['address', '10.1.2.1/32', ['10.1.2.1/32']],
    ['mask_length', '16', ['10.2.0.5/16', '2002::9/16']],
    ['address__net_host', '2001:db8:1::1', ['2001:db8:1::1/64', '2001:db8:1::1/128']],
    ['address__net_host_contained', '10.0.0.0/8', ['10.1.2.1/24', '10.1.2.1/32', '10.1.2.200/25', '10.2.0.5/16']],
    ['address__net_in', '11.0.0.0/8', ['11.1.1.1/8']],
    ['family', '4', ['10.1.2.1/24', '10.1.2.1/32', '10.1.2.200/25', '10.2.0.5/16', '11.1.1.1/8']],
    ['address__istartswith', '2001:DB8:1::', ['2001:db8:1::1/64', '2001:db8:1::1/128']],
    ['q', '11', ['11.1.1.1/8']],
  ])('addresses %s=%s', async (param, value, expected) => {
    expect(await truthIps(`${param}=${enc(value)}`)).toEqual(expected);
  });

  test('net_in and address take several values', async () => {
    expect(await truthIps(`address__net_in=${enc('11.0.0.0/8')}&address__net_in=${enc('2002::/16')}`)).toEqual(['11.1.1.1/8', '2002::9/16']);
    expect(await truthIps(`address=${enc('10.2.0.5')}&address=${enc('2002::9/16')}`)).toEqual(['10.2.0.5/16', '2002::9/16']);
  });

  test('the family lookup on the network fields: prefix__family and address__family', async () => {
    const truth = await truthIps('');
    expect(await truthIps('address__family=6')).toEqual(truth.filter((a) => a.includes(':')));
    expect(await truthIps('address__family=4')).toEqual(truth.filter((a) => !a.includes(':')));
    await created(await app.post(P, { prefix: '2001:db8:f00::/48', status: 'active' }));
    const v6 = await prefixesOf('prefix__family=6');
    expect(v6).toContain('2001:db8:f00::/48');
    expect(v6.every((p) => p.includes(':'))).toBe(true);
    expect((await prefixesOf('prefix__family=4')).every((p) => !p.includes(':'))).toBe(true);
  });

  test.each([
    [P, 'prefix__family=5', { prefix__family: ['Must be 4 or 6.'] }],
    [P, 'prefix__net_contained=10.0.0.300/8', { 'prefix__net_contained': ['Invalid IP address format: 10.0.0.300/8'] }],
    [P, 'family=5', { family: ['Must be 4 or 6.'] }],
    [IP, 'address=nonsense', { address: ['Invalid IP address format: nonsense'] }],
    [P, 'mask_length=x', { mask_length: ['Enter a whole number.'] }],
    [P, 'prefix__net_bogus=10.0.0.0/8', { prefix__net_bogus: ['Unknown filter field'] }],
  ])('%s?%s → 400', async (path, query, body) => {
    const res = await app.get(`${path}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });
});

describe('model rules', () => {
  test('aggregates never overlap, in either direction', async () => {
    const rir = await created(await app.post('/api/ipam/rirs/', { name: 'RFC 1918', is_private: true }));
    await created(await app.post('/api/ipam/aggregates/', { prefix: '172.16.0.0/12', rir: rir.id }));
    let res = await app.post('/api/ipam/aggregates/', { prefix: '172.20.0.0/16', rir: rir.id });
    expect(res.body).toEqual({ prefix: ['Aggregates cannot overlap. 172.20.0.0/16 is already covered by an existing aggregate (172.16.0.0/12).'] });
    res = await app.post('/api/ipam/aggregates/', { prefix: '172.0.0.0/8', rir: { slug: 'rfc-1918' } });
    expect(res.body).toEqual({ prefix: ['Aggregates cannot overlap. 172.0.0.0/8 covers an existing aggregate (172.16.0.0/12).'] });
    const rirs = await app.get('/api/ipam/rirs/?slug=rfc-1918');
    expect(rirs.body.results[0].aggregate_count).toBe(1);
    expect((await app.delete(`/api/ipam/rirs/${rir.id}/`)).status).toBe(409);
  });

  test('duplicates are refused only inside a VRF enforcing unique space; shared roles may repeat', async () => {
    const strict = await created(await app.post('/api/ipam/vrfs/', { name: 'Strict', rd: '65000:1' }));
    const loose = await created(await app.post('/api/ipam/vrfs/', { name: 'Loose', enforce_unique: false }));
    expect(strict.display).toBe('Strict (65000:1)');
    expect(loose.display).toBe('Loose');
    await created(await app.post(P, { prefix: '100.64.0.0/24', status: 'active', vrf: strict.id }));
    const dup = await app.post(P, { prefix: '100.64.0.0/24', status: 'active', vrf: strict.id });
    expect(dup.body).toEqual({ prefix: ['Duplicate prefix found in VRF Strict (65000:1): 100.64.0.0/24'] });
    await created(await app.post(P, { prefix: '100.64.0.0/24', status: 'active', vrf: loose.id }));
    await created(await app.post(P, { prefix: '100.64.0.0/24', status: 'active' }));
    await created(await app.post(P, { prefix: '100.64.0.0/24', status: 'active' }));

    await created(await app.post(IP, { address: '100.64.0.1/24', status: 'active', vrf: strict.id }));
    const ipDup = await app.post(IP, { address: '100.64.0.1/32', status: 'active', vrf: strict.id });
    expect(ipDup.body).toEqual({ address: ['Duplicate IP address found in VRF Strict (65000:1): 100.64.0.1/32'] });
    await created(await app.post(IP, { address: '100.64.0.1/24', status: 'active', vrf: strict.id, role: 'vip' }));
    const vrf = await app.get(`/api/ipam/vrfs/${strict.id}/`);
    expect(vrf.body).toMatchObject({ prefix_count: 1, ipaddress_count: 2 });
  });

  test('VRF route targets are written by id and filter by name', async () => {
    const rt = await created(await app.post('/api/ipam/route-targets/', { name: '65000:77' }));
    const vrf = await created(await app.post('/api/ipam/vrfs/', { name: 'RT', import_targets: [rt.id] }));
    expect(vrf.import_targets).toEqual([{ id: rt.id, display: '65000:77', url: rt.url, name: '65000:77' }]);
    expect(vrf.export_targets).toEqual([]);
    const byName = await app.get('/api/ipam/vrfs/?import_target=65000:77');
    expect(byName.body.results.map((v: Obj) => v.id)).toEqual([vrf.id]);
    const notById = await app.post('/api/ipam/vrfs/', { name: 'RT2', import_targets: [{ name: '65000:77' }] });
    expect(notById.status).toBe(400);
  });

  test('present_in_vrf follows route targets; route targets filter by the VRFs using them', async () => {
    const rt = await created(await app.post('/api/ipam/route-targets/', { name: '65000:500' }));
    const hub = await created(await app.post('/api/ipam/vrfs/', { name: 'Hub', rd: '65000:501', import_targets: [rt.id] }));
    const spoke = await created(await app.post('/api/ipam/vrfs/', { name: 'Spoke', rd: '65000:502', export_targets: [rt.id] }));
    const other = await created(await app.post('/api/ipam/vrfs/', { name: 'Other', rd: '65000:503' }));
    await created(await app.post(P, { prefix: '172.31.1.0/24', status: 'active', vrf: hub.id }));
    await created(await app.post(P, { prefix: '172.31.2.0/24', status: 'active', vrf: spoke.id }));
    await created(await app.post(P, { prefix: '172.31.3.0/24', status: 'active', vrf: other.id }));
    await created(await app.post(IP, { address: '172.31.2.9/24', status: 'active', vrf: spoke.id }));
    expect(await prefixesOf(`present_in_vrf_id=${hub.id}`)).toEqual(['172.31.1.0/24', '172.31.2.0/24']);
    expect(await prefixesOf('present_in_vrf=65000:501')).toEqual(['172.31.1.0/24', '172.31.2.0/24']);
    expect(await prefixesOf('present_in_vrf=65000:502')).toEqual(['172.31.2.0/24']);
    expect(await addressesOf(`present_in_vrf_id=${hub.id}`)).toEqual(['172.31.2.9/24']);
    const bad = await app.get(`${P}?present_in_vrf_id=nope`);
    expect(bad.status).toBe(400);
    const importing = await app.get(`/api/ipam/route-targets/?importing_vrf=65000:501`);
    expect(importing.body.results.map((r: Obj) => r.name)).toEqual(['65000:500']);
    expect((await app.get(`/api/ipam/route-targets/?exporting_vrf_id=${hub.id}`)).body.count).toBe(0);
    expect((await app.get(`/api/ipam/route-targets/?exporting_vrf_id=${spoke.id}`)).body.count).toBe(1);
  });

  test('VLANs: vid range, uniqueness per group, group must be at the VLAN site', async () => {
    const site = await created(await app.post('/api/dcim/sites/', { name: 'VLAN site', status: 'active' }));
    const group = await created(await app.post('/api/ipam/vlan-groups/', { name: 'Campus', site: site.id }));
    const global = await created(await app.post('/api/ipam/vlan-groups/', { name: 'Campus' }));
    expect(global.slug).toBe('campus');
    const range = await app.post('/api/ipam/vlans/', { vid: 4095, name: 'x', status: 'active' });
    expect(range.body).toEqual({ vid: ['Ensure this value is less than or equal to 4094.'] });
    const vlan = await created(await app.post('/api/ipam/vlans/', { vid: 10, name: 'users', status: 'active', site: site.id, group: group.id }));
    expect(vlan.display).toBe('users (10)');
    const dup = await app.post('/api/ipam/vlans/', { vid: 10, name: 'other', status: 'active', site: site.id, group: group.id });
    expect(dup.body).toEqual({ non_field_errors: ['The fields group, vid must make a unique set.'] });
    const wrongSite = await app.post('/api/ipam/vlans/', { vid: 11, name: 'other', status: 'active', group: group.id });
    expect(wrongSite.body).toEqual({ group: ['VLAN group must belong to the assigned site (None).'] });
    const prefix = await created(await app.post(P, { prefix: '100.65.0.0/24', status: 'active', vlan: vlan.id }));
    expect(prefix.vlan).toEqual({ id: vlan.id, display: 'users (10)', url: vlan.url, vid: 10, name: 'users' });
    expect(await prefixesOf('vlan_vid=10')).toEqual(['100.65.0.0/24']);
    expect((await app.get(`/api/ipam/vlan-groups/${group.id}/`)).body.vlan_count).toBe(1);
  });
});

describe('NAT', () => {
  test('nat_outside lists the addresses pointing here from 1.3; at 1.2 one address, 412 when several', async () => {
    const inside = await created(await app.post(IP, { address: '192.168.7.1/24', status: 'active' }));
    const out1 = await created(await app.post(IP, { address: '203.0.113.1/32', status: 'active', nat_inside: inside.id }));
    expect(out1.nat_inside).toEqual({ id: inside.id, display: '192.168.7.1/24', url: inside.url, family: 4, address: '192.168.7.1/24' });
    let res = await app.get(`${IP}${inside.id}/`);
    expect(res.body.nat_outside).toEqual({ id: out1.id, display: '203.0.113.1/32', url: out1.url, family: 4, address: '203.0.113.1/32' });
    res = await app.get(`${IP}${inside.id}/?api_version=1.3`);
    expect(res.body.nat_outside).toEqual([{ id: out1.id, display: '203.0.113.1/32', url: out1.url, family: 4, address: '203.0.113.1/32' }]);
    expect((await app.get(`${IP}${out1.id}/`)).body.nat_outside).toBeNull();
    await created(await app.post(IP, { address: '203.0.113.2/32', status: 'active', nat_inside: inside.id }));
    res = await app.get(`${IP}${inside.id}/`);
    expect(res.status).toBe(412);
    expect(res.body).toEqual({ detail: 'This object does not conform to pre-1.3 behavior. Please correct data or use API version 1.3' });
    const list = await app.get(`${IP}?address=${enc('192.168.7.1/24')}`);
    expect(list.status).toBe(412);
    res = await app.get(`${IP}${inside.id}/?api_version=1.4`);
    expect(res.body.nat_outside.map((a: Obj) => a.address)).toEqual(['203.0.113.1/32', '203.0.113.2/32']);
    // A list reads them for its whole page (with its rows on PostgreSQL): the same forms, in the same order.
    const page = await app.get(`${IP}?address=${enc('192.168.7.1/24')}&address=${enc('203.0.113.1/32')}&api_version=1.4`);
    expect(page.body.results.map((a: Obj) => a.nat_outside)).toEqual([res.body.nat_outside, []]);
    expect((await app.delete(`${IP}${inside.id}/`)).status).toBe(204);
    expect((await app.get(`${IP}${out1.id}/`)).body.nat_inside).toBeNull();
  });
});

describe('allocation', () => {
  test('available-prefixes lists the minimal free blocks and allocates first fit', async () => {
    const parent = await created(await app.post(P, { prefix: '10.20.0.0/16', status: 'container' }));
    await created(await app.post(P, [{ prefix: '10.20.0.0/24', status: 'active' }, { prefix: '10.20.2.0/23', status: 'active' }]));
    const url = `${P}${parent.id}/available-prefixes/`;
    const free = await app.get(url);
    expect(free.status).toBe(200);
    expect(free.body).toEqual(['10.20.1.0/24', '10.20.4.0/22', '10.20.8.0/21', '10.20.16.0/20', '10.20.32.0/19', '10.20.64.0/18', '10.20.128.0/17']
      .map((prefix) => ({ family: 4, prefix, vrf: null })));
    const res = await app.post(url, [{ prefix_length: 24, status: 'active', description: 'a' }, { prefix_length: 26, status: 'active' }]);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBeUndefined();
    expect(res.body.map((p: Obj) => p.prefix)).toEqual(['10.20.1.0/24', '10.20.4.0/26']);
    expect(res.body[0].description).toBe('a');
    const one = await app.post(url, { prefix_length: 25, status: 'active' });
    expect(one.status).toBe(201);
    expect(one.body.prefix).toBe('10.20.4.128/25');
  });

  test('available-prefixes in IPv6: each child ends where its length says, nested children skipped', async () => {
    const parent = await created(await app.post(P, { prefix: '2001:db8:60::/48', status: 'container' }));
    const children = ['2001:db8:60::/64', '2001:db8:60:2::/63', '2001:db8:60:3::/64'].map((prefix) => ({ prefix, status: 'active' }));
    expect((await app.post(P, children)).status).toBe(201);
    const free = await app.get(`${P}${parent.id}/available-prefixes/`);
    expect(free.status).toBe(200);
    const blocks = ['1::/64', '4::/62', '8::/61', '10::/60', '20::/59', '40::/58', '80::/57', '100::/56', '200::/55', '400::/54', '800::/53', '1000::/52', '2000::/51', '4000::/50', '8000::/49'];
    expect(free.body).toEqual(blocks.map((b) => ({ family: 6, prefix: `2001:db8:60:${b}`, vrf: null })));
  });

  test('free space past many children: several reads of growing size, nested children skipped', async () => {
    const parent = await created(await app.post(P, { prefix: '10.60.0.0/16', status: 'container' }));
    // 400 children (more than the first reads hold), and children nested inside two of them.
    const children = Array.from({ length: 400 }, (_, i) => ({ prefix: `10.60.${i >> 2}.${(i & 3) * 64}/27`, status: 'active' }));
    expect((await app.post(P, [...children, { prefix: '10.60.5.0/28', status: 'active' }, { prefix: '10.60.90.64/28', status: 'active' }])).status).toBe(201);
    const free = await app.get(`${P}${parent.id}/available-prefixes/`);
    expect(free.body.map((b: Obj) => b.prefix)).toEqual([
      ...Array.from({ length: 400 }, (_, i) => `10.60.${i >> 2}.${(i & 3) * 64 + 32}/27`),
      '10.60.100.0/22', '10.60.104.0/21', '10.60.112.0/20', '10.60.128.0/17',
    ]);
    const pool = await created(await app.post(P, { prefix: '10.61.0.0/24', status: 'active' }));
    const used = Array.from({ length: 100 }, (_, i) => ({ address: `10.61.0.${i + 1}/24`, status: 'active' }));
    expect((await app.post(IP, used)).status).toBe(201);
    const ips = await app.get(`${P}${pool.id}/available-ips/?limit=3`);
    expect(ips.body.map((a: Obj) => a.address)).toEqual(['10.61.0.101/24', '10.61.0.102/24', '10.61.0.103/24']);
  });

  test('available-prefixes: prefix_length errors are array-aligned; exhaustion is a 204 with nothing created', async () => {
    const parent = await created(await app.post(P, { prefix: '10.30.0.0/30', status: 'active' }));
    const url = `${P}${parent.id}/available-prefixes/`;
    let res = await app.post(url, { status: 'active' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual([{ prefix_length: 'this field can not be missing' }]);
    res = await app.post(url, [{ prefix_length: '31', status: 'active' }, { prefix_length: 33, status: 'active' }]);
    expect(res.body).toEqual([{ prefix_length: 'this field must be int type' }, { prefix_length: 'Invalid prefix length (33) for IPv4' }]);
    res = await app.post(url, [{ prefix_length: 31, status: 'active' }, { prefix_length: 31, status: 'active' }, { prefix_length: 32, status: 'active' }]);
    expect(res.status).toBe(204);
    expect(await prefixesOf(`within=${enc('10.30.0.0/30')}`)).toEqual([]);
    res = await app.post(url, { prefix_length: 31 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ status: ['This field is required.'] });
  });

  test('a global container counts children of every VRF; others only their own VRF', async () => {
    const vrf = await created(await app.post('/api/ipam/vrfs/', { name: 'Alloc' }));
    const container = await created(await app.post(P, { prefix: '10.40.0.0/22', status: 'container' }));
    const active = await created(await app.post(P, { prefix: '10.41.0.0/22', status: 'active' }));
    await created(await app.post(P, { prefix: '10.40.0.0/23', status: 'active', vrf: vrf.id }));
    await created(await app.post(P, { prefix: '10.41.0.0/23', status: 'active', vrf: vrf.id }));
    expect((await app.get(`${P}${container.id}/available-prefixes/`)).body.map((b: Obj) => b.prefix)).toEqual(['10.40.2.0/23']);
    expect((await app.get(`${P}${active.id}/available-prefixes/`)).body.map((b: Obj) => b.prefix)).toEqual(['10.41.0.0/22']);
  });

  test('available-ips skips network and broadcast of IPv4 non-pools and used addresses; limit rules', async () => {
    const parent = await created(await app.post(P, { prefix: '10.50.0.0/29', status: 'active' }));
    await created(await app.post(IP, { address: '10.50.0.2/29', status: 'active' }));
    const url = `${P}${parent.id}/available-ips/`;
    const free = await app.get(url);
    expect(free.body).toEqual(['10.50.0.1/29', '10.50.0.3/29', '10.50.0.4/29', '10.50.0.5/29', '10.50.0.6/29'].map((address) => ({ family: 4, address, vrf: null })));
    expect((await app.get(`${url}?limit=2`)).body).toHaveLength(2);
    expect((await app.get(`${url}?limit=0`)).body).toHaveLength(5);
    const pool = await created(await app.post(P, { prefix: '10.50.1.0/30', status: 'active', is_pool: true }));
    expect((await app.get(`${P}${pool.id}/available-ips/`)).body.map((a: Obj) => a.address)).toEqual(['10.50.1.0/30', '10.50.1.1/30', '10.50.1.2/30', '10.50.1.3/30']);
    const v6 = await created(await app.post(P, { prefix: '2001:db8:50::/64', status: 'active' }));
    expect((await app.get(`${P}${v6.id}/available-ips/?limit=2`)).body.map((a: Obj) => a.address)).toEqual(['2001:db8:50::/64', '2001:db8:50::1/64']);
  });

  test('available-ips allocates the lowest free addresses; too few is a 204 naming the counts', async () => {
    const parent = await created(await app.post(P, { prefix: '10.60.0.0/30', status: 'active' }));
    const url = `${P}${parent.id}/available-ips/`;
    const one = await app.post(url, { status: 'active', description: 'first', address: '1.2.3.4/32' });
    expect(one.status).toBe(201);
    expect(one.body).toMatchObject({ address: '10.60.0.1/30', description: 'first', vrf: null });
    const res = await app.post(url, [{ status: 'active' }, { status: 'active' }]);
    expect(res.status).toBe(204);
    const missing = await app.post(url, {});
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ status: ['This field is required.'] });
    const last = await app.post(url, [{ status: 'active' }]);
    expect(last.status).toBe(201);
    expect(last.body.map((a: Obj) => a.address)).toEqual(['10.60.0.2/30']);
  });

  test('concurrent allocations never hand out the same prefix or address', async () => {
    const parent = await created(await app.post(P, { prefix: '10.70.0.0/24', status: 'active' }));
    const prefixes = await Promise.all(Array.from({ length: 8 }, () => app.post(`${P}${parent.id}/available-prefixes/`, { prefix_length: 28, status: 'active' })));
    expect(prefixes.map((r) => r.status)).toEqual(Array(8).fill(201));
    const got = prefixes.map((r) => r.body.prefix as string);
    expect(new Set(got).size).toBe(8);
    const ips = await Promise.all(Array.from({ length: 8 }, () => app.post(`${P}${parent.id}/available-ips/`, { status: 'active' })));
    expect(ips.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(ips.map((r) => r.body.address)).size).toBe(8);
    expect(await addressesOf(`parent=${enc('10.70.0.0/24')}`)).toHaveLength(8);
  });

  test('allocation on an unknown prefix is a 404', async () => {
    const res = await app.get(`${P}00000000-0000-4000-8000-000000000000/available-prefixes/`);
    expect(res.status).toBe(404);
  });
});

describe('assignment to interfaces', () => {
  test('a pynautobot-style workflow: create a prefix, allocate from it onto an interface, find it by device', async () => {
    const make = (label: string, overrides: Obj = {}) => contextFor(app, FACTORIES).make(label, overrides);
    const deviceId = await make('dcim.device', { name: 'edge-1' });
    const ifaceId = await make('dcim.interface', { device: deviceId, name: 'xe-0/0/0' });
    const vmIface = await make('virtualization.vminterface', { name: 'xe-0/0/0' });
    const parent = await created(await app.post(P, { prefix: '10.80.0.0/30', status: 'active' }));

    const ip = await app.post(`${P}${parent.id}/available-ips/`, { status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: ifaceId });
    expect(ip.status).toBe(201);
    expect(ip.body.address).toBe('10.80.0.1/30');
    expect(ip.body.assigned_object_type).toBe('dcim.interface');
    expect(ip.body.assigned_object_id).toBe(ifaceId);
    expect(ip.body.assigned_object).toMatchObject({ id: ifaceId, name: 'xe-0/0/0', device: expect.objectContaining({ id: deviceId, name: 'edge-1' }) });
    const onVm = await created(await app.post(IP, { address: '10.81.0.1/24', status: 'active', assigned_object_type: 'virtualization.vminterface', assigned_object_id: vmIface }));
    expect(onVm.assigned_object).toMatchObject({ id: vmIface, name: 'xe-0/0/0' });
    const loose = await created(await app.post(IP, { address: '10.82.0.1/24', status: 'active' }));
    expect(loose.assigned_object).toBeNull();

    expect(await addressesOf('device=edge-1')).toEqual(['10.80.0.1/30']);
    expect(await addressesOf(`device_id=${deviceId}`)).toEqual(['10.80.0.1/30']);
    expect(await addressesOf('device=nothing-here')).toEqual([]);
    expect(await addressesOf('interface=xe-0/0/0')).toEqual(['10.80.0.1/30']);
    expect(await addressesOf(`interface_id=${ifaceId}`)).toEqual(['10.80.0.1/30']);
    expect(await addressesOf('vminterface=xe-0/0/0')).toEqual(['10.81.0.1/24']);
    expect((await addressesOf('assigned_to_interface=true&address__net_host_contained=10.80.0.0/14'))).toEqual(['10.80.0.1/30', '10.81.0.1/24']);
    expect((await addressesOf('assigned_to_interface=false&address__net_host_contained=10.80.0.0/14'))).toEqual(['10.82.0.1/24']);

    const half = await app.post(IP, { address: '10.83.0.1/24', status: 'active', assigned_object_type: 'dcim.interface' });
    expect(half.body).toEqual({ __all__: ['assigned_object_type and assigned_object_id must either both be null or both be non-null'] });
    const wrongType = await app.post(IP, { address: '10.83.0.1/24', status: 'active', assigned_object_type: 'dcim.device', assigned_object_id: deviceId });
    expect(wrongType.body).toEqual({ assigned_object_type: ['Invalid content type: dcim.device'] });
    const options = await app.options(IP);
    expect(options.body.actions.POST.assigned_object_type.choices.map((c: Obj) => c.value)).toEqual(['dcim.interface', 'virtualization.vminterface']);
    // Primary IPs: the right family, assigned to this device; primary_ip prefers IPv6.
    const v6 = await created(await app.post(IP, { address: '2001:db8:80::1/64', status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: ifaceId }));
    let dev = await app.patch(`/api/dcim/devices/${deviceId}/`, { primary_ip4: ip.body.id });
    expect(dev.status).toBe(200);
    expect(dev.body.primary_ip4).toMatchObject({ id: ip.body.id, address: '10.80.0.1/30' });
    expect(dev.body.primary_ip).toMatchObject({ id: ip.body.id });
    dev = await app.patch(`/api/dcim/devices/${deviceId}/`, { primary_ip6: v6.id });
    expect(dev.body.primary_ip).toMatchObject({ id: v6.id, address: '2001:db8:80::1/64' });
    const wrongFamily = await app.patch(`/api/dcim/devices/${deviceId}/`, { primary_ip4: v6.id });
    expect(wrongFamily.body).toEqual({ primary_ip4: ['2001:db8:80::1/64 is not an IPv4 address.'] });
    const notHere = await app.patch(`/api/dcim/devices/${deviceId}/`, { primary_ip4: loose.id });
    expect(notHere.body).toEqual({ primary_ip4: ['The specified IP address (10.82.0.1/24) is not assigned to this device.'] });
    expect((await app.get(`/api/dcim/devices/?has_primary_ip=true&id=${deviceId}`)).body.count).toBe(1);
    expect((await app.delete(`${IP}${v6.id}/`)).status).toBe(204);
    expect((await app.get(`/api/dcim/devices/${deviceId}/`)).body.primary_ip).toMatchObject({ id: ip.body.id });
    const moved = await app.patch(`${IP}${ip.body.id}/`, { assigned_object_type: null, assigned_object_id: null });
    expect(moved.body.assigned_object).toBeNull();
  });

  test('device and device_id follow a virtual-chassis master to its members (Nautobot\'s vc_interfaces)', async () => {
    const make = (label: string, overrides: Obj = {}) => contextFor(app, FACTORIES).make(label, overrides);
    const master = await make('dcim.device', { name: 'vc-master-1' });
    const member = await make('dcim.device', { name: 'vc-member-1' });
    const vc = await created(await app.post('/api/dcim/virtual-chassis/', { name: 'VC ipam', master }));
    expect((await app.patch(`/api/dcim/devices/${member}/`, { virtual_chassis: vc.id, vc_position: 2 })).status).toBe(200);
    const onMaster = await make('dcim.interface', { device: master, name: 'et-0/0/0' });
    const onMember = await make('dcim.interface', { device: member, name: 'et-1/0/0' });
    const memberMgmt = await make('dcim.interface', { device: member, name: 'em0', mgmt_only: true });
    const assign = async (address: string, iface: string) =>
      created(await app.post(IP, { address, status: 'active', assigned_object_type: 'dcim.interface', assigned_object_id: iface }));
    await assign('10.90.0.1/24', onMaster);
    await assign('10.90.0.2/24', onMember);
    await assign('10.90.0.3/24', memberMgmt);

    const both = ['10.90.0.1/24', '10.90.0.2/24'];
    expect(await addressesOf(`assigned_to_interface=true&device_id=${master}`)).toEqual(both);
    expect(await addressesOf('device=vc-master-1')).toEqual(both);
    expect(await addressesOf(`device_id=${member}`)).toEqual(['10.90.0.2/24', '10.90.0.3/24']);
    expect(await addressesOf('device=vc-member-1')).toEqual(['10.90.0.2/24', '10.90.0.3/24']);
    expect(await addressesOf(`device_id=${master}&device_id=${member}`)).toEqual(['10.90.0.1/24', '10.90.0.2/24', '10.90.0.3/24']);
  });
});
