import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddIpam1795433612091 implements MigrationInterface {
  name = 'AddIpam1795433612091';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'ipam_rir',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'is_private', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'ipam_aggregate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'family', type: 'integer' },
        { name: 'prefix', type: 'varchar', length: '43' },
        { name: 'network', type: 'varchar', length: '32' },
        { name: 'broadcast', type: 'varchar', length: '32' },
        { name: 'prefix_length', type: 'integer' },
        { name: 'date_added', type: 'date', nullable: true },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'rir_id', type: 'uuid', references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['family', 'network', 'prefix_length'] },
        { columns: ['family', 'broadcast'] },
        { columns: ['rir_id'] },
        { columns: ['tenant_id'] },
      ],
      foreignKeys: [
        { columns: ['rir_id'], referencedTable: 'ipam_rir', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_vrf',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'rd', type: 'varchar', length: '21', nullable: true },
        { name: 'enforce_unique', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['tenant_id'] },
      ],
      uniques: [
        { columns: ['rd'] },
      ],
      foreignKeys: [
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_ipaddress',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'family', type: 'integer' },
        { name: 'address', type: 'varchar', length: '43' },
        { name: 'host', type: 'varchar', length: '32' },
        { name: 'broadcast', type: 'varchar', length: '32' },
        { name: 'prefix_length', type: 'integer' },
        { name: 'role', type: 'varchar', length: '50' },
        { name: 'dns_name', type: 'varchar', length: '255' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'vrf_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'nat_inside_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['family', 'host', 'prefix_length'] },
        { columns: ['family', 'broadcast'] },
        { columns: ['vrf_id'] },
        { columns: ['tenant_id'] },
        { columns: ['status_id'] },
        { columns: ['nat_inside_id'] },
      ],
      foreignKeys: [
        { columns: ['vrf_id'], referencedTable: 'ipam_vrf', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['nat_inside_id'], referencedTable: 'ipam_ipaddress', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_vlangroup',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'site_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['site_id'] },
      ],
      uniques: [
        { columns: ['site_id', 'name'] },
        { columns: ['site_id', 'slug'] },
      ],
      foreignKeys: [
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_role',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'weight', type: 'integer' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'ipam_vlan',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'vid', type: 'integer' },
        { name: 'name', type: 'varchar', length: '255' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'site_id', type: 'uuid', nullable: true, references: true },
        { name: 'group_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'role_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['site_id'] },
        { columns: ['group_id'] },
        { columns: ['tenant_id'] },
        { columns: ['status_id'] },
        { columns: ['role_id'] },
      ],
      uniques: [
        { columns: ['group_id', 'vid'] },
        { columns: ['group_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['group_id'], referencedTable: 'ipam_vlangroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['role_id'], referencedTable: 'ipam_role', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_prefix',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'family', type: 'integer' },
        { name: 'prefix', type: 'varchar', length: '43' },
        { name: 'network', type: 'varchar', length: '32' },
        { name: 'broadcast', type: 'varchar', length: '32' },
        { name: 'prefix_length', type: 'integer' },
        { name: 'is_pool', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'site_id', type: 'uuid', nullable: true, references: true },
        { name: 'vrf_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
        { name: 'vlan_id', type: 'uuid', nullable: true, references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'role_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['family', 'network', 'prefix_length'] },
        { columns: ['family', 'broadcast'] },
        { columns: ['site_id'] },
        { columns: ['vrf_id'] },
        { columns: ['tenant_id'] },
        { columns: ['vlan_id'] },
        { columns: ['status_id'] },
        { columns: ['role_id'] },
      ],
      foreignKeys: [
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['vrf_id'], referencedTable: 'ipam_vrf', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['vlan_id'], referencedTable: 'ipam_vlan', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['role_id'], referencedTable: 'ipam_role', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_routetarget',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '21' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['tenant_id'] },
      ],
      uniques: [
        { columns: ['name'] },
      ],
      foreignKeys: [
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_vrf_export_targets',
      columns: [
        { name: 'vrf_id', type: 'uuid', primary: true, references: true },
        { name: 'routetarget_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['vrf_id'] },
        { columns: ['routetarget_id'] },
      ],
      foreignKeys: [
        { columns: ['vrf_id'], referencedTable: 'ipam_vrf', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['routetarget_id'], referencedTable: 'ipam_routetarget', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_vrf_import_targets',
      columns: [
        { name: 'vrf_id', type: 'uuid', primary: true, references: true },
        { name: 'routetarget_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['vrf_id'] },
        { columns: ['routetarget_id'] },
      ],
      foreignKeys: [
        { columns: ['vrf_id'], referencedTable: 'ipam_vrf', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['routetarget_id'], referencedTable: 'ipam_routetarget', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("ipam_vrf_import_targets");
    await qr.dropTable("ipam_vrf_export_targets");
    await qr.dropTable("ipam_routetarget");
    await qr.dropTable("ipam_prefix");
    await qr.dropTable("ipam_vlan");
    await qr.dropTable("ipam_role");
    await qr.dropTable("ipam_vlangroup");
    await qr.dropTable("ipam_ipaddress");
    await qr.dropTable("ipam_vrf");
    await qr.dropTable("ipam_aggregate");
    await qr.dropTable("ipam_rir");
  }
}
