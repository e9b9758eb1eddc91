import type { Factory } from './index';

/** Factories of power panels and power feeds. */
export const powerFactories: Record<string, Factory> = {
  'dcim.powerpanel': {
    build: async ({ n, make }) => {
      const site = await make('dcim.site');
      return {
        name: `Power panel ${n}`,
        site,
        location: await make('dcim.location', { site }),
        rack_group: await make('dcim.rackgroup', { site }),
      };
    },
    change: ({ n }) => ({ name: `Renamed panel ${n}` }),
    derived: ['display'],
  },
  'dcim.powerfeed': {
    build: async ({ n, make }) => {
      const site = await make('dcim.site');
      return {
        name: `Power feed ${n}`,
        power_panel: await make('dcim.powerpanel', { site, location: null, rack_group: null }),
        rack: await make('dcim.rack', { site, location: null, group: null }),
        status: 'active',
        type: 'redundant',
        supply: 'dc',
        phase: 'three-phase',
        voltage: -48,
        amperage: 30,
        max_utilization: 90,
        comments: `Feed ${n}`,
      };
    },
    change: () => ({ comments: 'changed', amperage: 16 }),
  },
};
