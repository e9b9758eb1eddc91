import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddVirtualChassisRedundancyGroups1795582948759 implements MigrationInterface {
  name = 'AddVirtualChassisRedundancyGroups1795582948759';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_virtualchassis',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: 'domain', type: 'varchar', length: '30' },
        { name: 'master_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['master_id'] },
      ],
      foreignKeys: [
        { columns: ['master_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_deviceredundancygroup',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'failover_strategy', type: 'varchar', length: '50' },
        { name: 'comments', type: 'text' },
        { name: 'status_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['status_id'] },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"vc_position","type":"integer","nullable":true})));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"vc_priority","type":"integer","nullable":true})));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"device_redundancy_group_priority","type":"integer","nullable":true})));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"virtual_chassis_id","type":"uuid","nullable":true,"references":true})));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"device_redundancy_group_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_e0d8ed7c1be6e5aeb5765cc584","columnNames":["virtual_chassis_id"],"isUnique":false}));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_c452a4d0173f9c13f87c48257d","columnNames":["device_redundancy_group_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_device", new TableForeignKey({"name":"FK_e0d8ed7c1be6e5aeb5765cc5843","columnNames":["virtual_chassis_id"],"referencedTableName":"dcim_virtualchassis","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.createForeignKey("dcim_device", new TableForeignKey({"name":"FK_c452a4d0173f9c13f87c48257d7","columnNames":["device_redundancy_group_id"],"referencedTableName":"dcim_deviceredundancygroup","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await createTable(qr, {
      name: 'dcim_interfaceredundancygroup',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'protocol', type: 'varchar', length: '50' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'protocol_group_id', type: 'varchar', length: '50' },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'virtual_ip_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['status_id'] },
        { columns: ['virtual_ip_id'] },
      ],
      uniques: [
        { columns: ['name'] },
      ],
      foreignKeys: [
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['virtual_ip_id'], referencedTable: 'ipam_ipaddress', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_interfaceredundancygroupassociation',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'priority', type: 'integer' },
        { name: 'interface_id', type: 'uuid', references: true },
        { name: 'interface_redundancy_group_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['interface_id'] },
        { columns: ['interface_redundancy_group_id'] },
      ],
      uniques: [
        { columns: ['interface_redundancy_group_id', 'interface_id'] },
      ],
      foreignKeys: [
        { columns: ['interface_id'], referencedTable: 'dcim_interface', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['interface_redundancy_group_id'], referencedTable: 'dcim_interfaceredundancygroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("dcim_interfaceredundancygroupassociation");
    await qr.dropTable("dcim_interfaceredundancygroup");
    await qr.dropForeignKey("dcim_device", "FK_c452a4d0173f9c13f87c48257d7");
    await qr.dropForeignKey("dcim_device", "FK_e0d8ed7c1be6e5aeb5765cc5843");
    await qr.dropIndex("dcim_device", "IDX_c452a4d0173f9c13f87c48257d");
    await qr.dropIndex("dcim_device", "IDX_e0d8ed7c1be6e5aeb5765cc584");
    await qr.dropColumn("dcim_device", "device_redundancy_group_id");
    await qr.dropColumn("dcim_device", "virtual_chassis_id");
    await qr.dropColumn("dcim_device", "device_redundancy_group_priority");
    await qr.dropColumn("dcim_device", "vc_priority");
    await qr.dropColumn("dcim_device", "vc_position");
    await qr.dropTable("dcim_deviceredundancygroup");
    await qr.dropTable("dcim_virtualchassis");
  }
}
