import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { grantStatus, revokeStatus, tableColumn, updateRows } from '../../../framework';

const CONTENT_TYPE = 'netinv_bgp.autonomoussystem';
/** Nautobot's BGP models app enables these for autonomous systems by default. */
const STATUSES = [
  { slug: 'active', name: 'Active', color: '4caf50' },
  { slug: 'available', name: 'Available', color: '4caf50' },
  { slug: 'planned', name: 'Planned', color: '00bcd4' },
];

/**
 * Drafted by generators/migration.ts, then completed: autonomous systems gain a provider and a
 * status, and the systems that exist already become Active.
 */
export class AutonomousSystemStatus1796645437642 implements MigrationInterface {
  name = 'AutonomousSystemStatus1796645437642';

  async up(qr: QueryRunner): Promise<void> {
    const ids = new Map<string, string>();
    for (const status of STATUSES) ids.set(status.slug, await grantStatus(qr, status, [CONTENT_TYPE]));
    await qr.addColumn("netinv_bgp_autonomoussystem", new TableColumn(tableColumn(qr, {"name":"provider_id","type":"uuid","nullable":true,"references":true})));
    // Filled before it becomes NOT NULL: existing rows need a status.
    const status = tableColumn(qr, {"name":"status_id","type":"uuid","references":true});
    await qr.addColumn("netinv_bgp_autonomoussystem", new TableColumn({ ...status, isNullable: true }));
    await updateRows(qr, "netinv_bgp_autonomoussystem", { status_id: ids.get('active') }, {});
    await qr.changeColumn("netinv_bgp_autonomoussystem", "status_id", new TableColumn(status));
    await qr.createIndex("netinv_bgp_autonomoussystem", new TableIndex({"name":"IDX_17426b73d9d63f126fbddf82df","columnNames":["provider_id"],"isUnique":false}));
    await qr.createIndex("netinv_bgp_autonomoussystem", new TableIndex({"name":"IDX_758ad259843fe6139ac4ca5caa","columnNames":["status_id"],"isUnique":false}));
    await qr.createForeignKey("netinv_bgp_autonomoussystem", new TableForeignKey({"name":"FK_17426b73d9d63f126fbddf82df3","columnNames":["provider_id"],"referencedTableName":"circuits_provider","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
    await qr.createForeignKey("netinv_bgp_autonomoussystem", new TableForeignKey({"name":"FK_758ad259843fe6139ac4ca5caad","columnNames":["status_id"],"referencedTableName":"extras_status","referencedColumnNames":["id"],"onDelete":"NO ACTION","onUpdate":"NO ACTION"}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropForeignKey("netinv_bgp_autonomoussystem", "FK_758ad259843fe6139ac4ca5caad");
    await qr.dropForeignKey("netinv_bgp_autonomoussystem", "FK_17426b73d9d63f126fbddf82df3");
    await qr.dropIndex("netinv_bgp_autonomoussystem", "IDX_758ad259843fe6139ac4ca5caa");
    await qr.dropIndex("netinv_bgp_autonomoussystem", "IDX_17426b73d9d63f126fbddf82df");
    await qr.dropColumn("netinv_bgp_autonomoussystem", "status_id");
    await qr.dropColumn("netinv_bgp_autonomoussystem", "provider_id");
    // The statuses are shared: they stay, without this model.
    for (const status of STATUSES) await revokeStatus(qr, status.slug, [CONTENT_TYPE]);
  }
}
