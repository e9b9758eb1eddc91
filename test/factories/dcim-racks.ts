import type { Factory } from './index';

/** Models a location of the factories' type may hold. */
const LOCATABLE = ['circuits.circuittermination', 'dcim.device', 'dcim.powerpanel', 'dcim.rack', 'dcim.rackgroup', 'ipam.prefix', 'ipam.vlan', 'ipam.vlangroup', 'virtualization.cluster'];

/** Factories of locations, rack groups, rack roles, racks and reservations. */
export const rackFactories: Record<string, Factory> = {
  'dcim.locationtype': {
    build: ({ n }) => ({ name: `Building ${n}`, nestable: true, content_types: LOCATABLE, description: 'type' }),
    change: () => ({ description: 'changed' }),
    computedOnReads: ['tree_depth'],
  },
  'dcim.location': {
    build: async ({ n, make }) => ({
      name: `Location ${n}`,
      status: 'active',
      location_type: await make('dcim.locationtype'),
      site: await make('dcim.site'),
      tenant: await make('tenancy.tenant'),
    }),
    change: () => ({ description: 'changed' }),
    computedOnReads: ['tree_depth'],
    // The type of a location cannot change once created.
    replace: ({ n }, current) => ({
      name: `Replaced ${n}`,
      status: 'planned',
      location_type: (current.location_type as { id: string }).id,
      site: (current.site as { id: string }).id,
    }),
  },
  'dcim.rackgroup': {
    build: async ({ n, make }) => ({ name: `Rack group ${n}`, site: await make('dcim.site'), description: 'group' }),
    change: () => ({ description: 'changed' }),
  },
  'dcim.rackrole': {
    build: ({ n }) => ({ name: `Rack role ${n}`, color: '4287f5' }),
    change: () => ({ description: 'changed', color: '003eff' }),
  },
  'dcim.rack': {
    build: async ({ n, make }) => {
      const site = await make('dcim.site');
      return {
        name: `Rack ${n}`,
        facility_id: `F-${n}`,
        site,
        location: await make('dcim.location', { site }),
        group: await make('dcim.rackgroup', { site }),
        role: await make('dcim.rackrole'),
        status: 'active',
        asset_tag: `AT-${n}`,
        type: '4-post-cabinet',
        width: 19,
        u_height: 42,
        outer_width: 600,
        outer_depth: 1000,
        outer_unit: 'mm',
      };
    },
    change: () => ({ comments: 'changed', serial: 'SN-changed' }),
  },
  'dcim.rackreservation': {
    build: async ({ n, app, make }) => ({ rack: await make('dcim.rack'), units: [1, 2, 3], user: app.adminId, description: `Reservation ${n}` }),
    change: () => ({ description: 'changed' }),
  },
};
