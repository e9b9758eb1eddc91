import { defineChoices } from '../../framework';

/** Roles of an IP address (`IPAddressRoleChoices`). */
export const IPAddressRole = defineChoices({
  loopback: 'Loopback',
  secondary: 'Secondary',
  anycast: 'Anycast',
  vip: 'VIP',
  vrrp: 'VRRP',
  hsrp: 'HSRP',
  glbp: 'GLBP',
  carp: 'CARP',
});

/** Roles whose addresses may repeat inside a VRF that enforces uniqueness. */
export const SHARED_ADDRESS_ROLES = new Set(['anycast', 'vip', 'vrrp', 'hsrp', 'glbp', 'carp']);

/** Transport protocols of a service (`ServiceProtocolChoices`). */
export const ServiceProtocol = defineChoices({
  tcp: 'TCP',
  udp: 'UDP',
});
