import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddLocationsRacks1795582534609 implements MigrationInterface {
  name = 'AddLocationsRacks1795582534609';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_locationtype',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: '_tree_path', type: 'varchar', length: '760' },
        { name: '_tree_sort', type: 'text' },
        { name: 'nestable', type: 'boolean' },
        { name: 'content_types', type: 'text' },
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
        { columns: ['parent_id'], referencedTable: 'dcim_locationtype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_location',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: '_tree_path', type: 'varchar', length: '760' },
        { name: '_tree_sort', type: 'text' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: '_depth', type: 'integer' },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'location_type_id', type: 'uuid', references: true },
        { name: 'parent_id', type: 'uuid', nullable: true, references: true },
        { name: 'site_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['status_id'] },
        { columns: ['location_type_id'] },
        { columns: ['parent_id'] },
        { columns: ['site_id'] },
        { columns: ['tenant_id'] },
      ],
      uniques: [
        { columns: ['slug'] },
        { columns: ['parent_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['location_type_id'], referencedTable: 'dcim_locationtype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['parent_id'], referencedTable: 'dcim_location', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_rackgroup',
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
        { name: 'site_id', type: 'uuid', references: true },
        { name: 'location_id', type: 'uuid', nullable: true, references: true },
        { name: 'parent_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['site_id'] },
        { columns: ['location_id'] },
        { columns: ['parent_id'] },
      ],
      uniques: [
        { columns: ['site_id', 'name'] },
        { columns: ['site_id', 'slug'] },
      ],
      foreignKeys: [
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['location_id'], referencedTable: 'dcim_location', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['parent_id'], referencedTable: 'dcim_rackgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_rackrole',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'color', type: 'varchar', length: '6' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'dcim_rack',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'facility_id', type: 'varchar', length: '50', nullable: true },
        { name: 'serial', type: 'varchar', length: '255' },
        { name: 'asset_tag', type: 'varchar', length: '50', nullable: true },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'width', type: 'integer' },
        { name: 'u_height', type: 'integer' },
        { name: 'desc_units', type: 'boolean' },
        { name: 'outer_width', type: 'integer', nullable: true },
        { name: 'outer_depth', type: 'integer', nullable: true },
        { name: 'outer_unit', type: 'varchar', length: '50' },
        { name: 'comments', type: 'text' },
        { name: 'site_id', type: 'uuid', references: true },
        { name: 'location_id', type: 'uuid', nullable: true, references: true },
        { name: 'group_id', type: 'uuid', nullable: true, references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'role_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['site_id'] },
        { columns: ['location_id'] },
        { columns: ['group_id'] },
        { columns: ['tenant_id'] },
        { columns: ['status_id'] },
        { columns: ['role_id'] },
      ],
      uniques: [
        { columns: ['asset_tag'] },
        { columns: ['group_id', 'name'] },
        { columns: ['group_id', 'facility_id'] },
      ],
      foreignKeys: [
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['location_id'], referencedTable: 'dcim_location', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['group_id'], referencedTable: 'dcim_rackgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['role_id'], referencedTable: 'dcim_rackrole', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await qr.addColumn("virtualization_cluster", new TableColumn(tableColumn(qr, {"name":"location_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("virtualization_cluster", new TableIndex({"name":"IDX_1ecb29bca5f8aa905c7ca7da5e","columnNames":["location_id"],"isUnique":false}));
    await qr.createForeignKey("virtualization_cluster", new TableForeignKey({"name":"FK_1ecb29bca5f8aa905c7ca7da5ee","columnNames":["location_id"],"referencedTableName":"dcim_location","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"position","type":"integer","nullable":true})));
    // Existing devices are unracked: their face is blank. The default only fills existing rows.
    const face = tableColumn(qr, {"name":"face","type":"varchar","length":"50"});
    await qr.addColumn("dcim_device", new TableColumn({ ...face, default: "''" }));
    await qr.changeColumn("dcim_device", "face", new TableColumn(face));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"location_id","type":"uuid","nullable":true,"references":true})));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"rack_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_d4732c1120aafedac5b7c53bbc","columnNames":["location_id"],"isUnique":false}));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_b0f37462b2b9578183ad3acfa4","columnNames":["rack_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_device", new TableForeignKey({"name":"FK_d4732c1120aafedac5b7c53bbc0","columnNames":["location_id"],"referencedTableName":"dcim_location","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.createForeignKey("dcim_device", new TableForeignKey({"name":"FK_b0f37462b2b9578183ad3acfa49","columnNames":["rack_id"],"referencedTableName":"dcim_rack","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("ipam_vlangroup", new TableColumn(tableColumn(qr, {"name":"location_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("ipam_vlangroup", new TableIndex({"name":"IDX_479b82daf1c0e36bf4b9dccb80","columnNames":["location_id"],"isUnique":false}));
    await qr.createForeignKey("ipam_vlangroup", new TableForeignKey({"name":"FK_479b82daf1c0e36bf4b9dccb803","columnNames":["location_id"],"referencedTableName":"dcim_location","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("ipam_vlan", new TableColumn(tableColumn(qr, {"name":"location_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("ipam_vlan", new TableIndex({"name":"IDX_76d43fcae59b908d52c88321f4","columnNames":["location_id"],"isUnique":false}));
    await qr.createForeignKey("ipam_vlan", new TableForeignKey({"name":"FK_76d43fcae59b908d52c88321f47","columnNames":["location_id"],"referencedTableName":"dcim_location","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await createTable(qr, {
      name: 'dcim_rackreservation',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'units', type: 'text' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'rack_id', type: 'uuid', references: true },
        { name: 'user_id', type: 'uuid', references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['rack_id'] },
        { columns: ['user_id'] },
        { columns: ['tenant_id'] },
      ],
      foreignKeys: [
        { columns: ['rack_id'], referencedTable: 'dcim_rack', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await qr.addColumn("ipam_prefix", new TableColumn(tableColumn(qr, {"name":"location_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("ipam_prefix", new TableIndex({"name":"IDX_ee9bdf13cbd60e0fc5d069f3fa","columnNames":["location_id"],"isUnique":false}));
    await qr.createForeignKey("ipam_prefix", new TableForeignKey({"name":"FK_ee9bdf13cbd60e0fc5d069f3fac","columnNames":["location_id"],"referencedTableName":"dcim_location","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropForeignKey("ipam_prefix", "FK_ee9bdf13cbd60e0fc5d069f3fac");
    await qr.dropIndex("ipam_prefix", "IDX_ee9bdf13cbd60e0fc5d069f3fa");
    await qr.dropColumn("ipam_prefix", "location_id");
    await qr.dropTable("dcim_rackreservation");
    await qr.dropForeignKey("ipam_vlan", "FK_76d43fcae59b908d52c88321f47");
    await qr.dropIndex("ipam_vlan", "IDX_76d43fcae59b908d52c88321f4");
    await qr.dropColumn("ipam_vlan", "location_id");
    await qr.dropForeignKey("ipam_vlangroup", "FK_479b82daf1c0e36bf4b9dccb803");
    await qr.dropIndex("ipam_vlangroup", "IDX_479b82daf1c0e36bf4b9dccb80");
    await qr.dropColumn("ipam_vlangroup", "location_id");
    await qr.dropForeignKey("dcim_device", "FK_b0f37462b2b9578183ad3acfa49");
    await qr.dropForeignKey("dcim_device", "FK_d4732c1120aafedac5b7c53bbc0");
    await qr.dropIndex("dcim_device", "IDX_b0f37462b2b9578183ad3acfa4");
    await qr.dropIndex("dcim_device", "IDX_d4732c1120aafedac5b7c53bbc");
    await qr.dropColumn("dcim_device", "rack_id");
    await qr.dropColumn("dcim_device", "location_id");
    await qr.dropColumn("dcim_device", "face");
    await qr.dropColumn("dcim_device", "position");
    await qr.dropForeignKey("virtualization_cluster", "FK_1ecb29bca5f8aa905c7ca7da5ee");
    await qr.dropIndex("virtualization_cluster", "IDX_1ecb29bca5f8aa905c7ca7da5e");
    await qr.dropColumn("virtualization_cluster", "location_id");
    await qr.dropTable("dcim_rack");
    await qr.dropTable("dcim_rackrole");
    await qr.dropTable("dcim_rackgroup");
    await qr.dropTable("dcim_location");
    await qr.dropTable("dcim_locationtype");
  }
}
