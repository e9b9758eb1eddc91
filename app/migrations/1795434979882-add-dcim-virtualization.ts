import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable } from '../../framework/store/migration-schema';
import { addBuiltInStatuses, removeBuiltInStatuses } from './default-statuses';

/** Models whose built-in statuses this migration makes available. */
const STATUS_MODELS = ['dcim.device', 'dcim.interface', 'virtualization.virtualmachine', 'virtualization.vminterface'];

/**
 * Manufacturers, device types, device roles, platforms, devices and interfaces; the
 * virtualization application (cluster types and groups, clusters, virtual machines, VM
 * interfaces); the built-in statuses of devices, interfaces, VMs and VM interfaces.
 */
export class AddDcimVirtualization1795434979882 implements MigrationInterface {
  name = 'AddDcimVirtualization1795434979882';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_manufacturer',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'dcim_devicetype',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'model', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'part_number', type: 'varchar', length: '50' },
        { name: 'u_height', type: 'integer' },
        { name: 'is_full_depth', type: 'boolean' },
        { name: 'subdevice_role', type: 'varchar', length: '50' },
        { name: 'comments', type: 'text' },
        { name: 'manufacturer_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['manufacturer_id'] },
      ],
      uniques: [
        { columns: ['manufacturer_id', 'model'] },
        { columns: ['manufacturer_id', 'slug'] },
      ],
      foreignKeys: [
        { columns: ['manufacturer_id'], referencedTable: 'dcim_manufacturer', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_devicerole',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'color', type: 'varchar', length: '6' },
        { name: 'vm_role', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'dcim_platform',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'napalm_driver', type: 'varchar', length: '50' },
        { name: 'napalm_args', type: 'text', nullable: true },
        { name: 'network_driver', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'manufacturer_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['manufacturer_id'] },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['manufacturer_id'], referencedTable: 'dcim_manufacturer', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'virtualization_clustertype',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'virtualization_clustergroup',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'virtualization_cluster',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'comments', type: 'text' },
        { name: 'type_id', type: 'uuid', references: true },
        { name: 'group_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
        { name: 'site_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['type_id'] },
        { columns: ['group_id'] },
        { columns: ['tenant_id'] },
        { columns: ['site_id'] },
      ],
      uniques: [
        { columns: ['name'] },
      ],
      foreignKeys: [
        { columns: ['type_id'], referencedTable: 'virtualization_clustertype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['group_id'], referencedTable: 'virtualization_clustergroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_device',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64', nullable: true },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'serial', type: 'varchar', length: '255' },
        { name: 'asset_tag', type: 'varchar', length: '100', nullable: true },
        { name: 'comments', type: 'text' },
        { name: 'local_context_data', type: 'text', nullable: true },
        { name: 'device_type_id', type: 'uuid', references: true },
        { name: 'device_role_id', type: 'uuid', references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
        { name: 'platform_id', type: 'uuid', nullable: true, references: true },
        { name: 'site_id', type: 'uuid', references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'cluster_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
        { columns: ['device_role_id'] },
        { columns: ['tenant_id'] },
        { columns: ['platform_id'] },
        { columns: ['site_id'] },
        { columns: ['status_id'] },
        { columns: ['cluster_id'] },
      ],
      uniques: [
        { columns: ['asset_tag'] },
        { columns: ['site_id', 'tenant_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['device_role_id'], referencedTable: 'dcim_devicerole', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['platform_id'], referencedTable: 'dcim_platform', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['cluster_id'], referencedTable: 'virtualization_cluster', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_interface',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'enabled', type: 'boolean' },
        { name: 'mtu', type: 'integer', nullable: true },
        { name: 'mac_address', type: 'varchar', length: '18', nullable: true },
        { name: 'mgmt_only', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'mode', type: 'varchar', length: '50' },
        { name: 'device_id', type: 'uuid', references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'parent_interface_id', type: 'uuid', nullable: true, references: true },
        { name: 'bridge_id', type: 'uuid', nullable: true, references: true },
        { name: 'lag_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['device_id'] },
        { columns: ['status_id'] },
        { columns: ['parent_interface_id'] },
        { columns: ['bridge_id'] },
        { columns: ['lag_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['parent_interface_id'], referencedTable: 'dcim_interface', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['bridge_id'], referencedTable: 'dcim_interface', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['lag_id'], referencedTable: 'dcim_interface', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'virtualization_virtualmachine',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: 'vcpus', type: 'integer', nullable: true },
        { name: 'memory', type: 'integer', nullable: true },
        { name: 'disk', type: 'integer', nullable: true },
        { name: 'comments', type: 'text' },
        { name: 'local_context_data', type: 'text', nullable: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'cluster_id', type: 'uuid', references: true },
        { name: 'role_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
        { name: 'platform_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['status_id'] },
        { columns: ['cluster_id'] },
        { columns: ['role_id'] },
        { columns: ['tenant_id'] },
        { columns: ['platform_id'] },
      ],
      uniques: [
        { columns: ['cluster_id', 'tenant_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['cluster_id'], referencedTable: 'virtualization_cluster', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['role_id'], referencedTable: 'dcim_devicerole', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['platform_id'], referencedTable: 'dcim_platform', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'virtualization_vminterface',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'enabled', type: 'boolean' },
        { name: 'mtu', type: 'integer', nullable: true },
        { name: 'mac_address', type: 'varchar', length: '18', nullable: true },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'mode', type: 'varchar', length: '50' },
        { name: '_custom_field_data', type: 'text' },
        { name: 'virtual_machine_id', type: 'uuid', references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'parent_interface_id', type: 'uuid', nullable: true, references: true },
        { name: 'bridge_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['virtual_machine_id'] },
        { columns: ['status_id'] },
        { columns: ['parent_interface_id'] },
        { columns: ['bridge_id'] },
      ],
      uniques: [
        { columns: ['virtual_machine_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['virtual_machine_id'], referencedTable: 'virtualization_virtualmachine', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['parent_interface_id'], referencedTable: 'virtualization_vminterface', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['bridge_id'], referencedTable: 'virtualization_vminterface', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await addBuiltInStatuses(qr, STATUS_MODELS);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("virtualization_vminterface");
    await qr.dropTable("virtualization_virtualmachine");
    await qr.dropTable("dcim_interface");
    await qr.dropTable("dcim_device");
    await qr.dropTable("virtualization_cluster");
    await qr.dropTable("virtualization_clustergroup");
    await qr.dropTable("virtualization_clustertype");
    await qr.dropTable("dcim_platform");
    await qr.dropTable("dcim_devicerole");
    await qr.dropTable("dcim_devicetype");
    await qr.dropTable("dcim_manufacturer");
    await removeBuiltInStatuses(qr, STATUS_MODELS);
  }
}
