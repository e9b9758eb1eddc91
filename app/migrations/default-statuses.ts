import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { deleteRows, insertRows, selectRows, updateRows } from '../../framework/store/migration-schema';

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

/** A new extras_status row. Descriptions are kept for when the field is added to the model. */
function statusRow(name: string, slug: string, color: string, contentTypes: string[]): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    created: now.slice(0, 10),
    last_updated: now.replace('T', ' ').replace('Z', ''),
    _custom_field_data: '{}',
    content_types: JSON.stringify([...contentTypes].sort()),
    name,
    slug,
    color,
  };
}

/** Rows for extras_status. */
export function defaultStatusRows(): Array<Record<string, unknown>> {
  return STATUSES.map(([slug, name, color, , contentTypes]) => statusRow(name, slug, color, contentTypes));
}

function contentTypesOf(row: Record<string, unknown>): string[] {
  try {
    const list = JSON.parse(String(row.content_types)) as unknown;
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

/**
 * Makes the built-in statuses of newly installed models available to them: a status that exists
 * gains the models' content types, a missing one is created with them. Statuses the user
 * changed keep their other content types, names and colours.
 */
export async function addBuiltInStatuses(qr: QueryRunner, labels: string[]): Promise<void> {
  for (const [slug, name, color, , contentTypes] of STATUSES) {
    const wanted = contentTypes.filter((ct) => labels.includes(ct));
    if (wanted.length === 0) continue;
    const [row] = await selectRows(qr, 'extras_status', ['id', 'content_types'], { slug });
    if (!row) {
      await insertRows(qr, 'extras_status', [statusRow(name, slug, color, wanted)]);
      continue;
    }
    const current = contentTypesOf(row);
    const merged = [...new Set([...current, ...wanted])].sort();
    if (merged.length !== current.length) await updateRows(qr, 'extras_status', { content_types: JSON.stringify(merged) }, { id: row.id });
  }
}

/**
 * Undoes addBuiltInStatuses: the models' content types leave every status, and a built-in
 * status left with none is deleted.
 */
export async function removeBuiltInStatuses(qr: QueryRunner, labels: string[]): Promise<void> {
  for (const [slug, , , , contentTypes] of STATUSES) {
    if (!contentTypes.some((ct) => labels.includes(ct))) continue;
    const [row] = await selectRows(qr, 'extras_status', ['id', 'content_types'], { slug });
    if (!row) continue;
    const current = contentTypesOf(row);
    const kept = current.filter((ct) => !labels.includes(ct));
    if (kept.length === 0) await deleteRows(qr, 'extras_status', { id: row.id });
    else if (kept.length !== current.length) await updateRows(qr, 'extras_status', { content_types: JSON.stringify(kept) }, { id: row.id });
  }
}
