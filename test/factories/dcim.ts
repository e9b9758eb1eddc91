import type { Factory } from './index';

/** Factories of the device models (the first DCIM models live in core.ts). */
export const deviceFactories: Record<string, Factory> = {
  'dcim.manufacturer': {
    build: ({ n }) => ({ name: `Manufacturer ${n}`, description: 'vendor' }),
    change: () => ({ description: 'changed' }),
  },
  'dcim.devicetype': {
    build: async ({ n, make }) => ({ manufacturer: await make('dcim.manufacturer'), model: `Model ${n}`, part_number: `PN-${n}`, u_height: 2 }),
    change: () => ({ part_number: 'changed', is_full_depth: false }),
  },
  'dcim.devicerole': {
    build: ({ n }) => ({ name: `Role ${n}`, color: 'ff0000' }),
    change: () => ({ description: 'changed', vm_role: false }),
  },
  'dcim.platform': {
    build: async ({ n, make }) => ({ name: `Platform ${n}`, manufacturer: await make('dcim.manufacturer'), network_driver: 'arista_eos', napalm_args: { timeout: 5 } }),
    change: () => ({ napalm_driver: 'eos', description: 'changed' }),
  },
  'dcim.device': {
    build: async ({ n, make }) => ({
      name: `device${n}`,
      device_type: await make('dcim.devicetype'),
      device_role: await make('dcim.devicerole'),
      site: await make('dcim.site'),
      status: 'active',
      serial: `SN${n}`,
      local_context_data: { ntp: ['10.0.0.1'] },
    }),
    change: () => ({ serial: 'changed', comments: 'changed' }),
  },
  'dcim.interface': {
    build: async ({ n, make }) => ({
      device: await make('dcim.device'),
      name: `eth${n}`,
      type: '1000base-t',
      mac_address: '00:11:22:33:44:55',
      mtu: 1500,
      mode: 'tagged',
      untagged_vlan: await make('ipam.vlan'),
      tagged_vlans: [await make('ipam.vlan')],
    }),
    change: () => ({ description: 'changed', enabled: false }),
  },
};

export const virtualizationFactories: Record<string, Factory> = {
  'virtualization.clustertype': {
    build: ({ n }) => ({ name: `Cluster type ${n}` }),
    change: () => ({ description: 'changed' }),
  },
  'virtualization.clustergroup': {
    build: ({ n }) => ({ name: `Cluster group ${n}` }),
    change: () => ({ description: 'changed' }),
  },
  'virtualization.cluster': {
    build: async ({ n, make }) => ({ name: `Cluster ${n}`, type: await make('virtualization.clustertype'), group: await make('virtualization.clustergroup') }),
    change: () => ({ comments: 'changed' }),
  },
  'virtualization.virtualmachine': {
    build: async ({ n, make }) => ({ name: `vm${n}`, cluster: await make('virtualization.cluster'), status: 'active', vcpus: 2, memory: 4096, disk: 40 }),
    change: () => ({ comments: 'changed', vcpus: 4 }),
  },
  'virtualization.vminterface': {
    build: async ({ n, make }) => ({
      virtual_machine: await make('virtualization.virtualmachine'),
      name: `eth${n}`,
      mac_address: 'aa-bb-cc-dd-ee-ff',
      mode: 'access',
      untagged_vlan: await make('ipam.vlan'),
    }),
    change: () => ({ description: 'changed', mtu: 9000 }),
  },
};
