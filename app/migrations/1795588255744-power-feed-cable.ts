import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class PowerFeedCable1795588255744 implements MigrationInterface {
  name = 'PowerFeedCable1795588255744';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn("dcim_powerfeed", new TableColumn(tableColumn(qr, {"name":"cable_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_powerfeed", new TableIndex({"name":"IDX_4aed2dfc61c3ce5959d0ec1fbd","columnNames":["cable_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_powerfeed", new TableForeignKey({"name":"FK_4aed2dfc61c3ce5959d0ec1fbdc","columnNames":["cable_id"],"referencedTableName":"dcim_cable","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropForeignKey("dcim_powerfeed", "FK_4aed2dfc61c3ce5959d0ec1fbdc");
    await qr.dropIndex("dcim_powerfeed", "IDX_4aed2dfc61c3ce5959d0ec1fbd");
    await qr.dropColumn("dcim_powerfeed", "cable_id");
  }
}
