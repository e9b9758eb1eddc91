import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddCables1795586519429 implements MigrationInterface {
  name = 'AddCables1795586519429';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_cable',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'termination_a_type', type: 'varchar', length: '100', nullable: true },
        { name: 'termination_a_id', type: 'uuid', nullable: true },
        { name: 'termination_b_type', type: 'varchar', length: '100', nullable: true },
        { name: 'termination_b_id', type: 'uuid', nullable: true },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'label', type: 'varchar', length: '100' },
        { name: 'color', type: 'varchar', length: '6' },
        { name: 'length', type: 'integer', nullable: true },
        { name: 'length_unit', type: 'varchar', length: '50' },
        { name: 'status_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['status_id'] },
      ],
      uniques: [
        { columns: ['termination_a_type', 'termination_a_id'] },
        { columns: ['termination_b_type', 'termination_b_id'] },
      ],
      foreignKeys: [
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await qr.addColumn("circuits_circuittermination", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("circuits_circuittermination", new TableIndex({"name":"IDX_9c2c236ca132c6aeca655bbef3","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("circuits_circuittermination", new TableForeignKey({"name":"FK_9c2c236ca132c6aeca655bbef3e","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_consoleport", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_consoleport", new TableIndex({"name":"IDX_9b08eddff129943c55a54432f1","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_consoleport", new TableForeignKey({"name":"FK_9b08eddff129943c55a54432f1a","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_consoleserverport", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_consoleserverport", new TableIndex({"name":"IDX_8f808772ba8865f7085cdafa24","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_consoleserverport", new TableForeignKey({"name":"FK_8f808772ba8865f7085cdafa24a","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_rearport", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_rearport", new TableIndex({"name":"IDX_4886a97fea8708893d16b1cece","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_rearport", new TableForeignKey({"name":"FK_4886a97fea8708893d16b1ceced","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_frontport", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_frontport", new TableIndex({"name":"IDX_85061a6dbae4996687650c3297","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_frontport", new TableForeignKey({"name":"FK_85061a6dbae4996687650c32978","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_interface", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_interface", new TableIndex({"name":"IDX_5a3548aaeb929773169666f13e","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_interface", new TableForeignKey({"name":"FK_5a3548aaeb929773169666f13e4","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_powerport", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_powerport", new TableIndex({"name":"IDX_758be192528aac30829e1cf3c8","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_powerport", new TableForeignKey({"name":"FK_758be192528aac30829e1cf3c80","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("dcim_poweroutlet", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_poweroutlet", new TableIndex({"name":"IDX_163f309ef46f1dd9066645272c","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_poweroutlet", new TableForeignKey({"name":"FK_163f309ef46f1dd9066645272c2","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropForeignKey("dcim_poweroutlet", "FK_163f309ef46f1dd9066645272c2");
    await qr.dropIndex("dcim_poweroutlet", "IDX_163f309ef46f1dd9066645272c");
    await qr.dropColumn("dcim_poweroutlet", "cable_id");
    await qr.dropForeignKey("dcim_powerport", "FK_758be192528aac30829e1cf3c80");
    await qr.dropIndex("dcim_powerport", "IDX_758be192528aac30829e1cf3c8");
    await qr.dropColumn("dcim_powerport", "cable_id");
    await qr.dropForeignKey("dcim_interface", "FK_5a3548aaeb929773169666f13e4");
    await qr.dropIndex("dcim_interface", "IDX_5a3548aaeb929773169666f13e");
    await qr.dropColumn("dcim_interface", "cable_id");
    await qr.dropForeignKey("dcim_frontport", "FK_85061a6dbae4996687650c32978");
    await qr.dropIndex("dcim_frontport", "IDX_85061a6dbae4996687650c3297");
    await qr.dropColumn("dcim_frontport", "cable_id");
    await qr.dropForeignKey("dcim_rearport", "FK_4886a97fea8708893d16b1ceced");
    await qr.dropIndex("dcim_rearport", "IDX_4886a97fea8708893d16b1cece");
    await qr.dropColumn("dcim_rearport", "cable_id");
    await qr.dropForeignKey("dcim_consoleserverport", "FK_8f808772ba8865f7085cdafa24a");
    await qr.dropIndex("dcim_consoleserverport", "IDX_8f808772ba8865f7085cdafa24");
    await qr.dropColumn("dcim_consoleserverport", "cable_id");
    await qr.dropForeignKey("dcim_consoleport", "FK_9b08eddff129943c55a54432f1a");
    await qr.dropIndex("dcim_consoleport", "IDX_9b08eddff129943c55a54432f1");
    await qr.dropColumn("dcim_consoleport", "cable_id");
    await qr.dropForeignKey("circuits_circuittermination", "FK_9c2c236ca132c6aeca655bbef3e");
    await qr.dropIndex("circuits_circuittermination", "IDX_9c2c236ca132c6aeca655bbef3");
    await qr.dropColumn("circuits_circuittermination", "cable_id");
    await qr.dropTable("dcim_cable");
  }
}
