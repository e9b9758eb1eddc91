import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableColumn, type ColumnSpec } from '../../framework/store/migration-schema';

/** Every model table of the core applications, as the registry declared them at this migration. */
const TABLES = [
  'circuits_provider',
  'circuits_circuittype',
  'extras_status',
  'tenancy_tenantgroup',
  'tenancy_tenant',
  'circuits_circuit',
  'dcim_region',
  'dcim_site',
  'dcim_locationtype',
  'dcim_location',
  'circuits_providernetwork',
  'dcim_cable',
  'circuits_circuittermination',
  'dcim_cablepath',
  'dcim_manufacturer',
  'dcim_devicetype',
  'dcim_devicerole',
  'dcim_platform',
  'dcim_rackgroup',
  'dcim_rackrole',
  'dcim_rack',
  'ipam_vrf',
  'ipam_ipaddress',
  'virtualization_clustertype',
  'virtualization_clustergroup',
  'virtualization_cluster',
  'dcim_virtualchassis',
  'dcim_deviceredundancygroup',
  'extras_configcontextschema',
  'dcim_device',
  'dcim_consoleport',
  'dcim_consoleporttemplate',
  'dcim_consoleserverport',
  'dcim_consoleserverporttemplate',
  'dcim_devicebay',
  'dcim_devicebaytemplate',
  'dcim_rearport',
  'dcim_frontport',
  'dcim_rearporttemplate',
  'dcim_frontporttemplate',
  'ipam_vlangroup',
  'ipam_role',
  'ipam_vlan',
  'dcim_interface',
  'dcim_interfaceredundancygroup',
  'dcim_interfaceredundancygroupassociation',
  'dcim_interfacetemplate',
  'dcim_inventoryitem',
  'dcim_powerpanel',
  'dcim_powerfeed',
  'dcim_powerport',
  'dcim_poweroutlet',
  'dcim_powerporttemplate',
  'dcim_poweroutlettemplate',
  'users_user',
  'dcim_rackreservation',
  'extras_computedfield',
  'extras_configcontext',
  'extras_tag',
  'extras_contenttype',
  'extras_customfield',
  'extras_customfieldchoice',
  'extras_customlink',
  'extras_exporttemplate',
  'extras_graphqlquery',
  'extras_job',
  'extras_jobbutton',
  'extras_jobhook',
  'extras_scheduledjob',
  'extras_jobresult',
  'extras_joblogentry',
  'extras_note',
  'extras_objectchange',
  'extras_relationship',
  'extras_relationshipassociation',
  'extras_taggeditem',
  'extras_webhook',
  'extras_webhookdelivery',
  'ipam_rir',
  'ipam_aggregate',
  'ipam_prefix',
  'ipam_routetarget',
  'virtualization_virtualmachine',
  'ipam_service',
  'users_group',
  'users_objectpermission',
  'users_session',
  'users_token',
  'virtualization_vminterface',
];

/** An object's version (framework/metadata/registry.ts VERSION_COLUMN): 1 for the rows already there. */
const VERSION: ColumnSpec = { name: '_version', type: 'integer', default: 1 };

/** Drafted by generators/migration.ts (one addColumn per table), folded into a loop. */
export class AddObjectVersions1795821578128 implements MigrationInterface {
  name = 'AddObjectVersions1795821578128';

  // The tables are read once, together: by name, each change would read its table's description
  // again (several catalog queries per table on MySQL/MariaDB).
  async up(qr: QueryRunner): Promise<void> {
    for (const table of await qr.getTables(TABLES)) await qr.addColumn(table, new TableColumn(tableColumn(qr, VERSION)));
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const table of (await qr.getTables(TABLES)).reverse()) await qr.dropColumn(table, VERSION.name);
  }
}
