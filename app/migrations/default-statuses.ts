import type { QueryRunner } from 'typeorm';
import { deleteRows } from '../../framework/store/migration-schema';
import { grantStatus, revokeStatus, statusRow } from '../../framework/store/status-rows';

/**
 * Nautobot's built-in statuses (reference: models/README.md, "Default statuses"): slug, name,
 * colour, description and content types, exactly.
 */
const STATUSES: Array<[slug: string, name: string, color: string, description: string, contentTypes: string[]]> = [
  ['active', 'Active', '4caf50', 'Unit is active', ['circuits.circuit', 'dcim.device', 'dcim.deviceredundancygroup', 'dcim.interface', 'dcim.interfaceredundancygroup', 'dcim.location', 'dcim.powerfeed', 'dcim.rack', 'dcim.site', 'ipam.ipaddress', 'ipam.prefix', 'ipam.vlan', 'virtualization.virtualmachine', 'virtualization.vminterface']],
  ['available', 'Available', '4caf50', 'Unit is available', ['dcim.rack']],
  ['connected', 'Connected', '4caf50', 'Cable is connected', ['dcim.cable']],
  ['container', 'Container', '9e9e9e', 'Network contains children', ['ipam.prefix']],
  ['dhcp', 'DHCP', '4caf50', 'Dynamically assigned IPv4/IPv6 address', ['ipam.ipaddress']],
  ['decommissioned', 'Decommissioned', '9e9e9e', 'Circuit has been decommissioned', ['circuits.circuit']],
  ['decommissioning', 'Decommissioning', 'ffc107', 'Unit is being decommissioned', ['dcim.cable', 'dcim.device', 'dcim.deviceredundancygroup', 'dcim.interface', 'dcim.interfaceredundancygroup', 'dcim.location', 'dcim.site', 'virtualization.virtualmachine', 'virtualization.vminterface']],
  ['deprecated', 'Deprecated', 'f44336', 'Unit has been deprecated', ['dcim.rack', 'ipam.ipaddress', 'ipam.prefix', 'ipam.vlan']],
  ['deprovisioning', 'Deprovisioning', 'ffc107', 'Circuit is being deprovisioned', ['circuits.circuit']],
  ['failed', 'Failed', 'f44336', 'Unit has failed', ['dcim.device', 'dcim.interface', 'dcim.powerfeed', 'virtualization.virtualmachine', 'virtualization.vminterface']],
  ['inventory', 'Inventory', '9e9e9e', 'Device is in inventory', ['dcim.device']],
  ['maintenance', 'Maintenance', '9e9e9e', 'Unit is under maintenance', ['dcim.interface', 'virtualization.vminterface']],
  ['offline', 'Offline', 'ffc107', 'Unit is offline', ['circuits.circuit', 'dcim.device', 'dcim.powerfeed', 'virtualization.virtualmachine']],
  ['planned', 'Planned', '00bcd4', 'Unit has been planned', ['circuits.circuit', 'dcim.cable', 'dcim.device', 'dcim.deviceredundancygroup', 'dcim.interface', 'dcim.interfaceredundancygroup', 'dcim.location', 'dcim.powerfeed', 'dcim.rack', 'dcim.site', 'virtualization.virtualmachine', 'virtualization.vminterface']],
  ['provisioning', 'Provisioning', '2196f3', 'Circuit is being provisioned', ['circuits.circuit']],
  ['reserved', 'Reserved', '00bcd4', 'Unit is reserved', ['dcim.rack', 'ipam.ipaddress', 'ipam.prefix', 'ipam.vlan']],
  ['retired', 'Retired', 'f44336', 'Site or Location has been retired', ['dcim.deviceredundancygroup', 'dcim.interfaceredundancygroup', 'dcim.location', 'dcim.site']],
  ['slaac', 'SLAAC', '4caf50', 'Dynamically assigned IPv6 address', ['ipam.ipaddress']],
  ['staged', 'Staged', '2196f3', 'Unit has been staged', ['dcim.device', 'virtualization.virtualmachine']],
  ['staging', 'Staging', '2196f3', 'Site or Location is in the process of being staged', ['dcim.deviceredundancygroup', 'dcim.interfaceredundancygroup', 'dcim.location', 'dcim.site']],
];

/** Rows for extras_status. */
export function defaultStatusRows(): Array<Record<string, unknown>> {
  return STATUSES.map(([slug, name, color, , contentTypes]) => statusRow({ slug, name, color }, contentTypes));
}

/**
 * Makes the built-in statuses of newly installed models available to them: a status that exists
 * gains the models' content types, a missing one is created with them. Statuses the user
 * changed keep their other content types, names and colours.
 */
export async function addBuiltInStatuses(qr: QueryRunner, labels: string[]): Promise<void> {
  for (const [slug, name, color, , contentTypes] of STATUSES) {
    const wanted = contentTypes.filter((ct) => labels.includes(ct));
    if (wanted.length > 0) await grantStatus(qr, { slug, name, color }, wanted);
  }
}

/**
 * Undoes addBuiltInStatuses: the models' content types leave every status, and a built-in
 * status left with none is deleted.
 */
export async function removeBuiltInStatuses(qr: QueryRunner, labels: string[]): Promise<void> {
  for (const [slug, , , , contentTypes] of STATUSES) {
    if (!contentTypes.some((ct) => labels.includes(ct))) continue;
    const revoked = await revokeStatus(qr, slug, labels);
    if (revoked && revoked.left.length === 0) await deleteRows(qr, 'extras_status', { id: revoked.id });
  }
}
