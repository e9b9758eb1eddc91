import type { Factory } from './index';

/** The example plugin, enabled wherever the generic tests run so its models are covered too. */
export const EXAMPLE_PLUGIN = './plugins/netinv-bgp';

export const pluginFactories: Record<string, Factory> = {
  'netinv_bgp.autonomoussystem': {
    // Public 4-byte ASNs, one per object.
    build: ({ n }) => ({ asn: 100000 + (n % 4000000000), description: `AS ${n}` }),
    change: () => ({ description: 'changed' }),
  },
  'netinv_bgp.peersession': {
    build: async ({ n, make }) => ({ name: `session-${n}`, local_as: await make('netinv_bgp.autonomoussystem'), remote_address: '192.0.2.1', status: 'planned' }),
    change: () => ({ description: 'changed', remote_address: '198.51.100.7' }),
  },
};
