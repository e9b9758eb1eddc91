import type { Factory, FactoryContext } from './index';

/** A device whose type has bays (subdevice role `parent`). */
async function parentDevice({ make }: FactoryContext): Promise<string> {
  return make('dcim.device', { device_type: await make('dcim.devicetype', { subdevice_role: 'parent' }) });
}

/** Factories of device component templates, device components and inventory items. */
export const componentFactories: Record<string, Factory> = {
  'dcim.consoleporttemplate': {
    build: async ({ n, make }) => ({ device_type: await make('dcim.devicetype'), name: `Console ${n}`, type: 'rj-45', label: 'con' }),
    change: () => ({ description: 'changed', label: 'L1' }),
    derived: ['display'],
  },
  'dcim.consoleserverporttemplate': {
    build: async ({ n, make }) => ({ device_type: await make('dcim.devicetype'), name: `CS ${n}`, type: 'rj-45' }),
    change: () => ({ description: 'changed', label: 'L1' }),
    derived: ['display'],
  },
  'dcim.powerporttemplate': {
    build: async ({ n, make }) => ({ device_type: await make('dcim.devicetype'), name: `PSU ${n}`, type: 'iec-60320-c14', maximum_draw: 500, allocated_draw: 250 }),
    change: () => ({ description: 'changed', allocated_draw: 300 }),
  },
  'dcim.poweroutlettemplate': {
    build: async ({ n, make }) => ({ device_type: await make('dcim.devicetype'), name: `Outlet ${n}`, type: 'iec-60320-c13', feed_leg: 'A' }),
    change: () => ({ description: 'changed', label: 'L1' }),
    derived: ['display'],
  },
  'dcim.interfacetemplate': {
    build: async ({ n, make }) => ({ device_type: await make('dcim.devicetype'), name: `eth${n}`, type: '1000base-t', mgmt_only: true }),
    change: () => ({ description: 'changed', mgmt_only: false }),
  },
  'dcim.rearporttemplate': {
    build: async ({ n, make }) => ({ device_type: await make('dcim.devicetype'), name: `Rear ${n}`, type: '8p8c', positions: 4 }),
    change: () => ({ description: 'changed', positions: 8 }),
  },
  'dcim.frontporttemplate': {
    build: async ({ n, make, app }) => {
      const rear = await make('dcim.rearporttemplate');
      const res = await app.get(`/api/dcim/rear-port-templates/${rear}/`);
      return { device_type: res.body.device_type.id, name: `Front ${n}`, type: '8p8c', rear_port: rear, rear_port_position: 2 };
    },
    change: () => ({ description: 'changed', rear_port_position: 3 }),
  },
  'dcim.devicebaytemplate': {
    build: async ({ n, make }) => ({ device_type: await make('dcim.devicetype', { subdevice_role: 'parent' }), name: `Bay ${n}` }),
    change: () => ({ description: 'changed' }),
  },
  'dcim.consoleport': {
    build: async ({ n, make }) => ({ device: await make('dcim.device'), name: `Console ${n}`, type: 'rj-45' }),
    change: () => ({ description: 'changed', label: 'L1' }),
    derived: ['display'],
  },
  'dcim.consoleserverport': {
    build: async ({ n, make }) => ({ device: await make('dcim.device'), name: `CS ${n}`, type: 'rj-45' }),
    change: () => ({ description: 'changed' }),
  },
  'dcim.powerport': {
    build: async ({ n, make }) => ({ device: await make('dcim.device'), name: `PSU ${n}`, type: 'iec-60320-c14', maximum_draw: 500, allocated_draw: 250 }),
    change: () => ({ description: 'changed', maximum_draw: 600 }),
  },
  'dcim.poweroutlet': {
    build: async ({ n, make }) => ({ device: await make('dcim.device'), name: `Outlet ${n}`, type: 'iec-60320-c13', feed_leg: 'A' }),
    change: () => ({ description: 'changed', label: 'L1' }),
    derived: ['display'],
  },
  'dcim.rearport': {
    build: async ({ n, make }) => ({ device: await make('dcim.device'), name: `Rear ${n}`, type: '8p8c', positions: 4 }),
    change: () => ({ description: 'changed', positions: 6 }),
  },
  'dcim.frontport': {
    build: async ({ n, make, app }) => {
      const rear = await make('dcim.rearport');
      const res = await app.get(`/api/dcim/rear-ports/${rear}/`);
      return { device: res.body.device.id, name: `Front ${n}`, type: '8p8c', rear_port: rear, rear_port_position: 2 };
    },
    change: () => ({ description: 'changed', rear_port_position: 3 }),
  },
  'dcim.cable': {
    build: async ({ n, make }) => ({
      termination_a_type: 'dcim.interface',
      termination_a_id: await make('dcim.interface'),
      termination_b_type: 'dcim.interface',
      termination_b_id: await make('dcim.interface'),
      status: 'connected',
      label: `Cable ${n}`,
      type: 'cat6',
      length: 2,
      length_unit: 'm',
      color: '00ff00',
    }),
    change: () => ({ label: 'changed', color: 'aa1409', length: 3 }),
    derived: ['display'],
    // The ends of a cable never change: a PUT resends them.
    replace: (_ctx, current) => ({
      termination_a_type: current.termination_a_type,
      termination_a_id: current.termination_a_id,
      termination_b_type: current.termination_b_type,
      termination_b_id: current.termination_b_id,
      status: 'planned',
      label: 'replaced',
    }),
  },
  'dcim.devicebay': {
    build: async (ctx) => ({ device: await parentDevice(ctx), name: `Bay ${ctx.n}` }),
    change: () => ({ description: 'changed' }),
  },
  'dcim.inventoryitem': {
    build: async ({ n, make }) => ({ device: await make('dcim.device'), name: `Module ${n}`, manufacturer: await make('dcim.manufacturer'), part_id: `P-${n}`, serial: `S${n}`, asset_tag: `AT${n}`, discovered: true }),
    change: () => ({ description: 'changed', discovered: false }),
  },
  'dcim.virtualchassis': {
    build: async ({ n, make }) => ({ name: `Stack ${n}`, domain: `d${n}`, master: await make('dcim.device') }),
    change: () => ({ domain: 'changed' }),
    // The master of an existing chassis must be a member: a PUT keeps it.
    replace: ({ n }, current) => ({ name: `Stack ${n}`, domain: 'replaced', master: (current.master as { id: string }).id }),
  },
  'dcim.deviceredundancygroup': {
    build: ({ n }) => ({ name: `Firewall pair ${n}`, status: 'active', failover_strategy: 'active-passive', description: 'pair' }),
    change: () => ({ description: 'changed', comments: 'changed' }),
  },
  'dcim.interfaceredundancygroup': {
    build: async ({ n, make }) => ({ name: `VRRP ${n}`, status: 'active', protocol: 'vrrp', protocol_group_id: `${n % 255}`, virtual_ip: await make('ipam.ipaddress') }),
    change: () => ({ description: 'changed', protocol_group_id: '7' }),
  },
  'dcim.interfaceredundancygroupassociation': {
    build: async ({ make }) => ({ interface_redundancy_group: await make('dcim.interfaceredundancygroup'), interface: await make('dcim.interface'), priority: 100 }),
    change: () => ({ priority: 200 }),
    derived: ['display'],
  },
};
