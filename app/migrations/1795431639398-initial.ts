import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, insertRows } from '../../framework/store/migration-schema';
import { defaultStatusRows } from './default-statuses';

/** The first schema: statuses, tags, tenancy, regions, sites, users and tokens; built-in statuses. */
export class Initial1795431639398 implements MigrationInterface {
  name = 'Initial1795431639398';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_region',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: '_tree_path', type: 'varchar', length: '760' },
        { name: '_tree_sort', type: 'text' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: '_depth', type: 'integer' },
        { name: 'parent_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['parent_id'] },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['parent_id'], referencedTable: 'dcim_region', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_status',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'content_types', type: 'text' },
        { name: 'name', type: 'varchar', length: '50' },
        { name: 'slug', type: 'varchar', length: '50' },
        { name: 'color', type: 'varchar', length: '6' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'tenancy_tenantgroup',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: '_tree_path', type: 'varchar', length: '760' },
        { name: '_tree_sort', type: 'text' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: '_depth', type: 'integer' },
        { name: 'parent_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['parent_id'] },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['parent_id'], referencedTable: 'tenancy_tenantgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'tenancy_tenant',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'comments', type: 'text' },
        { name: 'group_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['group_id'] },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['group_id'], referencedTable: 'tenancy_tenantgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_site',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'facility', type: 'varchar', length: '50' },
        { name: 'asn', type: 'bigint', nullable: true },
        { name: 'time_zone', type: 'varchar', length: '63' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'physical_address', type: 'varchar', length: '200' },
        { name: 'shipping_address', type: 'varchar', length: '200' },
        { name: 'latitude', type: 'decimal', precision: 8, scale: 6, nullable: true },
        { name: 'longitude', type: 'decimal', precision: 9, scale: 6, nullable: true },
        { name: 'contact_name', type: 'varchar', length: '50' },
        { name: 'contact_phone', type: 'varchar', length: '20' },
        { name: 'contact_email', type: 'varchar', length: '254' },
        { name: 'comments', type: 'text' },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'region_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['status_id'] },
        { columns: ['region_id'] },
        { columns: ['tenant_id'] },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['region_id'], referencedTable: 'dcim_region', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_tag',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'color', type: 'varchar', length: '6' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'content_types', type: 'text' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_taggeditem',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'content_type', type: 'varchar', length: '100' },
        { name: 'object_id', type: 'uuid' },
        { name: 'tag_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['tag_id'] },
      ],
      uniques: [
        { columns: ['content_type', 'object_id', 'tag_id'] },
      ],
      foreignKeys: [
        { columns: ['tag_id'], referencedTable: 'extras_tag', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'users_user',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'username', type: 'varchar', length: '150' },
        { name: 'password', type: 'varchar', length: '255' },
        { name: 'first_name', type: 'varchar', length: '150' },
        { name: 'last_name', type: 'varchar', length: '150' },
        { name: 'email', type: 'varchar', length: '254' },
        { name: 'is_staff', type: 'boolean' },
        { name: 'is_active', type: 'boolean' },
        { name: 'date_joined', type: 'datetime', precision: 3 },
        { name: 'is_superuser', type: 'boolean' },
      ],
      uniques: [
        { columns: ['username'] },
      ],
    });
    await createTable(qr, {
      name: 'users_token',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'datetime', precision: 3 },
        { name: 'expires', type: 'datetime', precision: 3, nullable: true },
        { name: 'key', type: 'varchar', length: '40' },
        { name: 'write_enabled', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'user_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['user_id'] },
      ],
      uniques: [
        { columns: ['key'] },
      ],
      foreignKeys: [
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await insertRows(qr, 'extras_status', defaultStatusRows());
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("users_token");
    await qr.dropTable("users_user");
    await qr.dropTable("extras_taggeditem");
    await qr.dropTable("extras_tag");
    await qr.dropTable("dcim_site");
    await qr.dropTable("tenancy_tenant");
    await qr.dropTable("tenancy_tenantgroup");
    await qr.dropTable("extras_status");
    await qr.dropTable("dcim_region");
  }
}
