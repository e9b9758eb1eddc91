import type { Factory } from './index';

const hextets = (n: number) => `${((n >>> 16) & 0xffff).toString(16)}:${(n & 0xffff).toString(16)}`;
const octets = (n: number) => `${(n >>> 8) & 0xff}.${n & 0xff}`;

export const ipamFactories: Record<string, Factory> = {
  'ipam.vrf': {
    build: async ({ n, make }) => ({ name: `VRF ${n}`, rd: `65000:${n}`, import_targets: [await make('ipam.routetarget')] }),
    change: () => ({ description: 'changed', enforce_unique: false }),
  },
  'ipam.routetarget': {
    build: ({ n }) => ({ name: `65001:${n}`.slice(0, 21) }),
    change: () => ({ description: 'changed' }),
  },
  'ipam.rir': {
    build: ({ n }) => ({ name: `RIR ${n}` }),
    change: () => ({ description: 'changed', is_private: true }),
  },
  'ipam.aggregate': {
    // Aggregates never overlap: each gets its own /48.
    build: async ({ n, make }) => ({ prefix: `fd00:${hextets(n)}::/48`, rir: await make('ipam.rir'), date_added: '2020-01-31' }),
    change: () => ({ description: 'changed' }),
  },
  'ipam.role': {
    build: ({ n }) => ({ name: `Role ${n}`, weight: n % 30000 }),
    change: () => ({ description: 'changed' }),
  },
  'ipam.prefix': {
    build: async ({ n, make }) => ({ prefix: `10.${octets(n)}.0/24`, status: 'active', vrf: await make('ipam.vrf'), role: await make('ipam.role') }),
    change: () => ({ description: 'changed', is_pool: true }),
  },
  'ipam.ipaddress': {
    build: ({ n }) => ({ address: `10.${octets(n)}.1/24`, status: 'active', dns_name: `host${n}.example.net`, role: 'vip' }),
    change: () => ({ description: 'changed' }),
  },
  'ipam.vlangroup': {
    build: async ({ n, make }) => ({ name: `VLAN group ${n}`, site: await make('dcim.site') }),
    change: () => ({ description: 'changed' }),
  },
  'ipam.vlan': {
    build: ({ n }) => ({ vid: (n % 4094) + 1, name: `vlan${n}`, status: 'active' }),
    change: () => ({ description: 'changed' }),
  },
  'ipam.service': {
    build: async ({ n, make }) => ({
      device: await make('dcim.device'),
      name: `svc${n}`,
      protocol: 'tcp',
      ports: [22, 8000 + (n % 1000)],
      ipaddresses: [await make('ipam.ipaddress')],
    }),
    change: () => ({ description: 'changed', ports: [443, 444] }),
    derived: ['display'],
  },
};
