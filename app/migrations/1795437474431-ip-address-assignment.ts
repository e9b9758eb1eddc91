import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class IpAddressAssignment1795437474431 implements MigrationInterface {
  name = 'IpAddressAssignment1795437474431';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn("ipam_ipaddress", new TableColumn(tableColumn(qr, {"name":"assigned_object_type","type":"varchar","length":"100","nullable":true})));
    await qr.addColumn("ipam_ipaddress", new TableColumn(tableColumn(qr, {"name":"assigned_object_id","type":"uuid","nullable":true})));
    await qr.createIndex("ipam_ipaddress", new TableIndex({"name":"IDX_2c998ec295f584f4d1c32e4aeb","columnNames":["assigned_object_type","assigned_object_id"],"isUnique":false}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropIndex("ipam_ipaddress", "IDX_2c998ec295f584f4d1c32e4aeb");
    await qr.dropColumn("ipam_ipaddress", "assigned_object_id");
    await qr.dropColumn("ipam_ipaddress", "assigned_object_type");
  }
}
