import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class PrimaryIps1795437838425 implements MigrationInterface {
  name = 'PrimaryIps1795437838425';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"primary_ip4_id","type":"uuid","nullable":true,"references":true})));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"primary_ip6_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_b7b052f1b8a94ce6c5cdbe68a7","columnNames":["primary_ip4_id"],"isUnique":false}));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_da5d86c163ecc664d186f63d7f","columnNames":["primary_ip6_id"],"isUnique":false}));
    await qr.createForeignKey("dcim_device", new TableForeignKey({"name":"FK_b7b052f1b8a94ce6c5cdbe68a76","columnNames":["primary_ip4_id"],"referencedTableName":"ipam_ipaddress","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.createForeignKey("dcim_device", new TableForeignKey({"name":"FK_da5d86c163ecc664d186f63d7fc","columnNames":["primary_ip6_id"],"referencedTableName":"ipam_ipaddress","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.addColumn("virtualization_virtualmachine", new TableColumn(tableColumn(qr, {"name":"primary_ip4_id","type":"uuid","nullable":true,"references":true})));
    await qr.addColumn("virtualization_virtualmachine", new TableColumn(tableColumn(qr, {"name":"primary_ip6_id","type":"uuid","nullable":true,"references":true})));
    await qr.createIndex("virtualization_virtualmachine", new TableIndex({"name":"IDX_dd2220d70e16e9d20930169cf2","columnNames":["primary_ip4_id"],"isUnique":false}));
    await qr.createIndex("virtualization_virtualmachine", new TableIndex({"name":"IDX_081b98babad4760505bf2fa37d","columnNames":["primary_ip6_id"],"isUnique":false}));
    await qr.createForeignKey("virtualization_virtualmachine", new TableForeignKey({"name":"FK_dd2220d70e16e9d20930169cf27","columnNames":["primary_ip4_id"],"referencedTableName":"ipam_ipaddress","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.createForeignKey("virtualization_virtualmachine", new TableForeignKey({"name":"FK_081b98babad4760505bf2fa37d1","columnNames":["primary_ip6_id"],"referencedTableName":"ipam_ipaddress","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropForeignKey("virtualization_virtualmachine", "FK_081b98babad4760505bf2fa37d1");
    await qr.dropForeignKey("virtualization_virtualmachine", "FK_dd2220d70e16e9d20930169cf27");
    await qr.dropForeignKey("dcim_device", "FK_da5d86c163ecc664d186f63d7fc");
    await qr.dropForeignKey("dcim_device", "FK_b7b052f1b8a94ce6c5cdbe68a76");
    await qr.dropIndex("virtualization_virtualmachine", "IDX_081b98babad4760505bf2fa37d");
    await qr.dropIndex("virtualization_virtualmachine", "IDX_dd2220d70e16e9d20930169cf2");
    await qr.dropIndex("dcim_device", "IDX_da5d86c163ecc664d186f63d7f");
    await qr.dropIndex("dcim_device", "IDX_b7b052f1b8a94ce6c5cdbe68a7");
    await qr.dropColumn("virtualization_virtualmachine", "primary_ip6_id");
    await qr.dropColumn("virtualization_virtualmachine", "primary_ip4_id");
    await qr.dropColumn("dcim_device", "primary_ip6_id");
    await qr.dropColumn("dcim_device", "primary_ip4_id");
  }
}
