import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { tableColumn } from '../../../framework';

/** Drafted by generators/migration.ts: the objects' version column (framework/metadata/registry.ts VERSION_COLUMN). */
export class AddBgpObjectVersions1795821692027 implements MigrationInterface {
  name = 'AddBgpObjectVersions1795821692027';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn("netinv_bgp_autonomoussystem", new TableColumn(tableColumn(qr, {"name":"_version","type":"integer","default":1})));
    await qr.addColumn("netinv_bgp_peersession", new TableColumn(tableColumn(qr, {"name":"_version","type":"integer","default":1})));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn("netinv_bgp_peersession", "_version");
    await qr.dropColumn("netinv_bgp_autonomoussystem", "_version");
  }
}
