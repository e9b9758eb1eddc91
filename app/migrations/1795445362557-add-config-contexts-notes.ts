import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddConfigContextsNotes1795445362557 implements MigrationInterface {
  name = 'AddConfigContextsNotes1795445362557';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_configcontextschema',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '200' },
        { name: 'slug', type: 'varchar', length: '200' },
        { name: 'owner_content_type', type: 'varchar', length: '100', nullable: true },
        { name: 'owner_object_id', type: 'uuid', nullable: true },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'data_schema', type: 'text', nullable: true },
      ],
      uniques: [
        { columns: ['name', 'owner_content_type', 'owner_object_id'] },
      ],
    });
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"local_context_schema_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_230293f539318822bb1135ec77","columnNames":["local_context_schema_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_device", new TableForeignKey({"name":"FK_230293f539318822bb1135ec778","columnNames":["local_context_schema_id"],"referencedTableName":"extras_configcontextschema","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await createTable(qr, {
      name: 'extras_configcontext',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'owner_content_type', type: 'varchar', length: '100', nullable: true },
        { name: 'owner_object_id', type: 'uuid', nullable: true },
        { name: 'weight', type: 'integer' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'is_active', type: 'boolean' },
        { name: 'data', type: 'text', nullable: true },
        { name: 'schema_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['schema_id'] },
      ],
      uniques: [
        { columns: ['name', 'owner_content_type', 'owner_object_id'] },
      ],
      foreignKeys: [
        { columns: ['schema_id'], referencedTable: 'extras_configcontextschema', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_cluster_groups',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'clustergroup_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['clustergroup_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['clustergroup_id'], referencedTable: 'virtualization_clustergroup', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_clusters',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'cluster_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['cluster_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['cluster_id'], referencedTable: 'virtualization_cluster', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_device_types',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'devicetype_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['devicetype_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['devicetype_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_platforms',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'platform_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['platform_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['platform_id'], referencedTable: 'dcim_platform', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_regions',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'region_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['region_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['region_id'], referencedTable: 'dcim_region', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_roles',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'devicerole_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['devicerole_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['devicerole_id'], referencedTable: 'dcim_devicerole', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_sites',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'site_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['site_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_tags',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'tag_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['tag_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['tag_id'], referencedTable: 'extras_tag', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_tenant_groups',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'tenantgroup_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['tenantgroup_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['tenantgroup_id'], referencedTable: 'tenancy_tenantgroup', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_configcontext_tenants',
      columns: [
        { name: 'configcontext_id', type: 'uuid', primary: true, references: true },
        { name: 'tenant_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['configcontext_id'] },
        { columns: ['tenant_id'] },
      ],
      foreignKeys: [
        { columns: ['configcontext_id'], referencedTable: 'extras_configcontext', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'extras_contenttype',
      columns: [
        { name: 'id', type: 'integer', primary: true, increment: true },
        { name: 'app_label', type: 'varchar', length: '100' },
        { name: 'model', type: 'varchar', length: '100' },
        { name: 'verbose_name', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['app_label', 'model'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_customlink',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'target_url', type: 'varchar', length: '500' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'content_type', type: 'varchar', length: '100' },
        { name: 'text', type: 'varchar', length: '500' },
        { name: 'weight', type: 'integer' },
        { name: 'group_name', type: 'varchar', length: '50' },
        { name: 'button_class', type: 'varchar', length: '30' },
        { name: 'new_window', type: 'boolean' },
      ],
      uniques: [
        { columns: ['name'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_exporttemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'content_type', type: 'varchar', length: '100' },
        { name: 'owner_content_type', type: 'varchar', length: '100', nullable: true },
        { name: 'owner_object_id', type: 'uuid', nullable: true },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'template_code', type: 'text' },
        { name: 'mime_type', type: 'varchar', length: '50' },
        { name: 'file_extension', type: 'varchar', length: '15' },
      ],
      uniques: [
        { columns: ['content_type', 'name', 'owner_content_type', 'owner_object_id'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_note',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'user_name', type: 'varchar', length: '150' },
        { name: 'assigned_object_type', type: 'varchar', length: '100', nullable: true },
        { name: 'assigned_object_id', type: 'uuid', nullable: true },
        { name: 'note', type: 'text' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'user_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['user_id'] },
        { columns: ['assigned_object_type', 'assigned_object_id'] },
      ],
      uniques: [
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await qr.addColumn("virtualization_virtualmachine", new TableColumn(tableColumn(qr, {"name":"local_context_schema_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("virtualization_virtualmachine", new TableIndex({"name":"IDX_ef7d24830b744a001742a75ea6","columnNames":["local_context_schema_id"],"isUnique":false}));
    await qr.createForeignKey("virtualization_virtualmachine", new TableForeignKey({"name":"FK_ef7d24830b744a001742a75ea6e","columnNames":["local_context_schema_id"],"referencedTableName":"extras_configcontextschema","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropForeignKey("virtualization_virtualmachine", "FK_ef7d24830b744a001742a75ea6e");
    await qr.dropIndex("virtualization_virtualmachine", "IDX_ef7d24830b744a001742a75ea6");
    await qr.dropColumn("virtualization_virtualmachine", "local_context_schema_id");
    await qr.dropTable("extras_note");
    await qr.dropTable("extras_exporttemplate");
    await qr.dropTable("extras_customlink");
    await qr.dropTable("extras_contenttype");
    await qr.dropTable("extras_configcontext_tenants");
    await qr.dropTable("extras_configcontext_tenant_groups");
    await qr.dropTable("extras_configcontext_tags");
    await qr.dropTable("extras_configcontext_sites");
    await qr.dropTable("extras_configcontext_roles");
    await qr.dropTable("extras_configcontext_regions");
    await qr.dropTable("extras_configcontext_platforms");
    await qr.dropTable("extras_configcontext_device_types");
    await qr.dropTable("extras_configcontext_clusters");
    await qr.dropTable("extras_configcontext_cluster_groups");
    await qr.dropTable("extras_configcontext");
    await qr.dropForeignKey("dcim_device", "FK_230293f539318822bb1135ec778");
    await qr.dropIndex("dcim_device", "IDX_230293f539318822bb1135ec77");
    await qr.dropColumn("dcim_device", "local_context_schema_id");
    await qr.dropTable("extras_configcontextschema");
  }
}
