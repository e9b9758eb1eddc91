import type { PathFilterSpec, Predicate, Predicates } from '../../framework';

/** Devices with (true) or without (false) components of each kind, under both of Nautobot's names, and chassis membership. */
export const DEVICE_COMPONENT_FILTERS: Record<string, PathFilterSpec> = {
  has_console_ports: { has: 'console_ports' },
  console_ports: { has: 'console_ports' },
  has_console_server_ports: { has: 'console_server_ports' },
  console_server_ports: { has: 'console_server_ports' },
  has_power_ports: { has: 'power_ports' },
  power_ports: { has: 'power_ports' },
  has_power_outlets: { has: 'power_outlets' },
  power_outlets: { has: 'power_outlets' },
  has_front_ports: { has: 'front_ports' },
  has_rear_ports: { has: 'rear_ports' },
  has_device_bays: { has: 'device_bays' },
  device_bays: { has: 'device_bays' },
  is_virtual_chassis_member: { has: 'virtual_chassis' },
  virtual_chassis_member: { has: 'virtual_chassis' },
};

/** Device types by their templates: the related filters and their `has_` forms, and Nautobot's short boolean names. */
export const DEVICE_TYPE_TEMPLATE_FILTERS: Record<string, PathFilterSpec> = {
  console_ports: { has: 'console_port_templates' },
  console_server_ports: { has: 'console_server_port_templates' },
  power_ports: { has: 'power_port_templates' },
  power_outlets: { has: 'power_outlet_templates' },
  interfaces: { has: 'interface_templates' },
  device_bays: { has: 'device_bay_templates' },
  has_console_port_templates: { has: 'console_port_templates' },
  has_console_server_port_templates: { has: 'console_server_port_templates' },
  has_power_port_templates: { has: 'power_port_templates' },
  has_power_outlet_templates: { has: 'power_outlet_templates' },
  has_interface_templates: { has: 'interface_templates' },
  has_front_port_templates: { has: 'front_port_templates' },
  has_rear_port_templates: { has: 'rear_port_templates' },
  has_device_bay_templates: { has: 'device_bay_templates' },
};

/** Objects with (true) or without (false) objects on the named reverse relations: any of them, or all with `every`. */
export function hasRelated(p: Predicates, value: boolean, relations: readonly string[], every = false): Predicate {
  const each = relations.map((r) => p.lookup(`${r}__id`, 'isnull', false));
  const has = every ? p.and(each) : p.or(each);
  return value ? has : p.not(has);
}
