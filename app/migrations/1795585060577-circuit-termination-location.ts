import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class CircuitTerminationLocation1795585060577 implements MigrationInterface {
  name = 'CircuitTerminationLocation1795585060577';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn("circuits_circuittermination", new TableColumn(tableColumn(qr, {"name":"location_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("circuits_circuittermination", new TableIndex({"name":"IDX_0335c05f354bbe12f678a7f822","columnNames":["location_id"],"isUnique":false}));
    await qr.createForeignKey("circuits_circuittermination", new TableForeignKey({"name":"FK_0335c05f354bbe12f678a7f8220","columnNames":["location_id"],"referencedTableName":"dcim_location","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropForeignKey("circuits_circuittermination", "FK_0335c05f354bbe12f678a7f8220");
    await qr.dropIndex("circuits_circuittermination", "IDX_0335c05f354bbe12f678a7f822");
    await qr.dropColumn("circuits_circuittermination", "location_id");
  }
}
