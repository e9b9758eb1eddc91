import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class ServicesInterfaceVlans1795444114527 implements MigrationInterface {
  name = 'ServicesInterfaceVlans1795444114527';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn("dcim_interface", new TableColumn(tableColumn(qr, {"name":"untagged_vlan_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_interface", new TableIndex({"name":"IDX_eb0be9994dc401ca151f9ea158","columnNames":["untagged_vlan_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_interface", new TableForeignKey({"name":"FK_eb0be9994dc401ca151f9ea1580","columnNames":["untagged_vlan_id"],"referencedTableName":"ipam_vlan","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await createTable(qr, {
      name: 'dcim_interface_tagged_vlans',
      columns: [
        { name: 'interface_id', type: 'uuid', primary: true, references: true },
        { name: 'vlan_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['interface_id'] },
        { columns: ['vlan_id'] },
      ],
      foreignKeys: [
        { columns: ['interface_id'], referencedTable: 'dcim_interface', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['vlan_id'], referencedTable: 'ipam_vlan', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_service',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'ports', type: 'text' },
        { name: '_ports', type: 'varchar', length: '255' },
        { name: 'protocol', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', nullable: true, references: true },
        { name: 'virtual_machine_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['device_id'] },
        { columns: ['virtual_machine_id'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['virtual_machine_id'], referencedTable: 'virtualization_virtualmachine', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'ipam_service_ipaddresses',
      columns: [
        { name: 'service_id', type: 'uuid', primary: true, references: true },
        { name: 'ipaddress_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['service_id'] },
        { columns: ['ipaddress_id'] },
      ],
      foreignKeys: [
        { columns: ['service_id'], referencedTable: 'ipam_service', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['ipaddress_id'], referencedTable: 'ipam_ipaddress', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await qr.addColumn("virtualization_vminterface", new TableColumn(tableColumn(qr, {"name":"untagged_vlan_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("virtualization_vminterface", new TableIndex({"name":"IDX_2039f5da80a18fcc6e1ed4befa","columnNames":["untagged_vlan_id"],"isUnique":false}));
    await qr.createForeignKey("virtualization_vminterface", new TableForeignKey({"name":"FK_2039f5da80a18fcc6e1ed4befa8","columnNames":["untagged_vlan_id"],"referencedTableName":"ipam_vlan","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await createTable(qr, {
      name: 'virtualization_vminterface_tagged_vlans',
      columns: [
        { name: 'vminterface_id', type: 'uuid', primary: true, references: true },
        { name: 'vlan_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['vminterface_id'] },
        { columns: ['vlan_id'] },
      ],
      foreignKeys: [
        { columns: ['vminterface_id'], referencedTable: 'virtualization_vminterface', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['vlan_id'], referencedTable: 'ipam_vlan', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("virtualization_vminterface_tagged_vlans");
    await qr.dropForeignKey("virtualization_vminterface", "FK_2039f5da80a18fcc6e1ed4befa8");
    await qr.dropIndex("virtualization_vminterface", "IDX_2039f5da80a18fcc6e1ed4befa");
    await qr.dropColumn("virtualization_vminterface", "untagged_vlan_id");
    await qr.dropTable("ipam_service_ipaddresses");
    await qr.dropTable("ipam_service");
    await qr.dropTable("dcim_interface_tagged_vlans");
    await qr.dropForeignKey("dcim_interface", "FK_eb0be9994dc401ca151f9ea1580");
    await qr.dropIndex("dcim_interface", "IDX_eb0be9994dc401ca151f9ea158");
    await qr.dropColumn("dcim_interface", "untagged_vlan_id");
  }
}
