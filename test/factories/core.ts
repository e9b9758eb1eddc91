import type { Factory } from './index';

export const extrasFactories: Record<string, Factory> = {
  'extras.status': {
    build: ({ n }) => ({ name: `Status ${n}`, content_types: ['dcim.site'], color: 'aa00bb' }),
    change: () => ({ color: '00ff00' }),
  },
  'extras.tag': {
    build: ({ n }) => ({ name: `Tag ${n}`, slug: `tag-${n}`, content_types: ['dcim.site', 'tenancy.tenant'] }),
    change: () => ({ description: 'changed' }),
  },
};

export const tenancyFactories: Record<string, Factory> = {
  'tenancy.tenantgroup': {
    build: ({ n }) => ({ name: `Tenant group ${n}`, description: 'group' }),
    change: () => ({ description: 'changed' }),
  },
  'tenancy.tenant': {
    build: async ({ n, make }) => ({ name: `Tenant ${n}`, group: await make('tenancy.tenantgroup'), comments: 'c' }),
    change: () => ({ description: 'changed' }),
  },
};

export const dcimFactories: Record<string, Factory> = {
  'dcim.region': {
    build: ({ n }) => ({ name: `Region ${n}` }),
    change: () => ({ description: 'changed' }),
  },
  'dcim.site': {
    build: async ({ n, make }) => ({
      name: `Site ${n}`,
      status: 'active',
      region: await make('dcim.region'),
      tenant: await make('tenancy.tenant'),
      asn: 65000,
      time_zone: 'Europe/Amsterdam',
      latitude: '52.370216',
      longitude: 4.895168,
    }),
    change: () => ({ description: 'changed', facility: 'Equinix AM3' }),
  },
};

export const usersFactories: Record<string, Factory> = {
  'users.user': {
    build: ({ n }) => ({ username: `user${n}`, password: 'correct horse battery', email: `user${n}@example.net` }),
    change: () => ({ first_name: 'Changed' }),
  },
  'auth.group': {
    build: ({ n }) => ({ name: `group${n}` }),
    change: ({ n }) => ({ name: `renamed${n}` }),
  },
  'users.objectpermission': {
    build: ({ n }) => ({ name: `permission ${n}`, object_types: ['dcim.site'], actions: ['view'], constraints: { name__istartswith: 'x' } }),
    change: () => ({ description: 'changed', enabled: false }),
  },
  'users.token': {
    build: ({ n }) => ({ description: `token ${n}` }),
    change: () => ({ description: 'changed' }),
    // Every field of a token is optional.
    invalid: { expires: 'not a date' },
  },
};
