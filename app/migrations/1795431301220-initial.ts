import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, insertRows } from '../../framework/db/migration-schema';
import { defaultStatusRows } from './default-statuses';

/** The first schema: statuses, tags, tenancy, regions, sites, users and tokens; built-in statuses. */
export class Initial1795431301220 implements MigrationInterface {
  name = 'Initial1795431301220';

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
        { name: 'parent_id', type: 'uuid', nullable: true },
      ],
      indices: [
        { name: 'IDX_95dceafbfa9df3a9033c2b3789', columns: ['parent_id'] },
      ],
      uniques: [
        { name: 'UQ_f1b61be26c5ca71f6cbbe6d1e0a', columns: ['name'] },
        { name: 'UQ_465b51f1726545de6e5907e1571', columns: ['slug'] },
      ],
      foreignKeys: [
        { name: 'FK_95dceafbfa9df3a9033c2b37897', columns: ['parent_id'], referencedTable: 'dcim_region', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
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
        { name: 'UQ_1fd44a5db1481ed045ce6e6f1f2', columns: ['name'] },
        { name: 'UQ_421d84c3ddbb85ced33c4896f17', columns: ['slug'] },
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
        { name: 'parent_id', type: 'uuid', nullable: true },
      ],
      indices: [
        { name: 'IDX_8b3430abfa3cd39587973a9a48', columns: ['parent_id'] },
      ],
      uniques: [
        { name: 'UQ_df812eba4bbc14b14470480307b', columns: ['name'] },
        { name: 'UQ_216c963882c7dd1f4e69e4b7b7d', columns: ['slug'] },
      ],
      foreignKeys: [
        { name: 'FK_8b3430abfa3cd39587973a9a48d', columns: ['parent_id'], referencedTable: 'tenancy_tenantgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
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
        { name: 'group_id', type: 'uuid', nullable: true },
      ],
      indices: [
        { name: 'IDX_faae495bd0d2aaf68301bd8aa5', columns: ['group_id'] },
      ],
      uniques: [
        { name: 'UQ_027fc558e82cadb32df624de319', columns: ['name'] },
        { name: 'UQ_fb06bd9229cdf2c318834520492', columns: ['slug'] },
      ],
      foreignKeys: [
        { name: 'FK_faae495bd0d2aaf68301bd8aa5f', columns: ['group_id'], referencedTable: 'tenancy_tenantgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
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
        { name: 'status_id', type: 'uuid' },
        { name: 'region_id', type: 'uuid', nullable: true },
        { name: 'tenant_id', type: 'uuid', nullable: true },
      ],
      indices: [
        { name: 'IDX_36013bdd8950e5d167cc592434', columns: ['status_id'] },
        { name: 'IDX_ba1b49146ed175fdb1080b9c52', columns: ['region_id'] },
        { name: 'IDX_73845b3a6c37357b42b5313de4', columns: ['tenant_id'] },
      ],
      uniques: [
        { name: 'UQ_ef5e2b7b2d365f84a033ed49d02', columns: ['name'] },
        { name: 'UQ_443b6a9615f867569e350f811e4', columns: ['slug'] },
      ],
      foreignKeys: [
        { name: 'FK_36013bdd8950e5d167cc5924348', columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { name: 'FK_ba1b49146ed175fdb1080b9c52c', columns: ['region_id'], referencedTable: 'dcim_region', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { name: 'FK_73845b3a6c37357b42b5313de4c', columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
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
        { name: 'UQ_bdaf79f77dd9ae594722c4ef13b', columns: ['name'] },
        { name: 'UQ_613c76ab7a67da89e5c9f32a565', columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_taggeditem',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'content_type', type: 'varchar', length: '100' },
        { name: 'object_id', type: 'uuid' },
        { name: 'tag_id', type: 'uuid' },
      ],
      indices: [
        { name: 'IDX_ba2007177fb0926d25dc28cd25', columns: ['tag_id'] },
      ],
      uniques: [
        { name: 'UQ_27d2804f72119a35a81263587a0', columns: ['content_type', 'object_id', 'tag_id'] },
      ],
      foreignKeys: [
        { name: 'FK_ba2007177fb0926d25dc28cd25b', columns: ['tag_id'], referencedTable: 'extras_tag', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
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
        { name: 'UQ_b75b17f36f1b000823ddac45946', columns: ['username'] },
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
        { name: 'user_id', type: 'uuid' },
      ],
      indices: [
        { name: 'IDX_8210de8425b46ee73aab141557', columns: ['user_id'] },
      ],
      uniques: [
        { name: 'UQ_3cc8e295044c9c9410c3a86dffb', columns: ['key'] },
      ],
      foreignKeys: [
        { name: 'FK_8210de8425b46ee73aab1415570', columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
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
