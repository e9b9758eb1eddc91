import type { Factory } from './index';

export const circuitsFactories: Record<string, Factory> = {
  'circuits.provider': {
    build: ({ n }) => ({ name: `Provider ${n}`, asn: 65100, account: `acct-${n}`, portal_url: 'https://portal.example.net/', noc_contact: 'noc@example.net', comments: 'c' }),
    change: () => ({ account: 'changed' }),
  },
  'circuits.circuittype': {
    build: ({ n }) => ({ name: `Circuit type ${n}`, description: 'transit' }),
    change: () => ({ description: 'changed' }),
  },
  'circuits.providernetwork': {
    build: async ({ n, make }) => ({ provider: await make('circuits.provider'), name: `Network ${n}`, description: 'mpls' }),
    change: () => ({ description: 'changed' }),
  },
  'circuits.circuit': {
    build: async ({ n, make }) => ({
      cid: `CID-${n}`,
      provider: await make('circuits.provider'),
      type: await make('circuits.circuittype'),
      status: 'active',
      tenant: await make('tenancy.tenant'),
      install_date: '2024-03-01',
      commit_rate: 10000,
    }),
    change: () => ({ description: 'changed', commit_rate: 20000 }),
  },
  'circuits.circuittermination': {
    build: async ({ make }) => ({ circuit: await make('circuits.circuit'), term_side: 'A', site: await make('dcim.site'), port_speed: 100000, xconnect_id: 'XC-1' }),
    change: () => ({ description: 'changed', upstream_speed: 5000 }),
  },
};
