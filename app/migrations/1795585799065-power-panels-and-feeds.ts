import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class PowerPanelsAndFeeds1795585799065 implements MigrationInterface {
  name = 'PowerPanelsAndFeeds1795585799065';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_powerpanel',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'site_id', type: 'uuid', references: true },
        { name: 'location_id', type: 'uuid', nullable: true, references: true },
        { name: 'rack_group_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['site_id'] },
        { columns: ['location_id'] },
        { columns: ['rack_group_id'] },
      ],
      uniques: [
        { columns: ['site_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['location_id'], referencedTable: 'dcim_location', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['rack_group_id'], referencedTable: 'dcim_rackgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_powerfeed',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'supply', type: 'varchar', length: '50' },
        { name: 'phase', type: 'varchar', length: '50' },
        { name: 'voltage', type: 'integer' },
        { name: 'amperage', type: 'integer' },
        { name: 'max_utilization', type: 'integer' },
        { name: 'available_power', type: 'integer' },
        { name: 'comments', type: 'text' },
        { name: 'power_panel_id', type: 'uuid', references: true },
        { name: 'rack_id', type: 'uuid', nullable: true, references: true },
        { name: 'status_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['power_panel_id'] },
        { columns: ['rack_id'] },
        { columns: ['status_id'] },
      ],
      uniques: [
        { columns: ['power_panel_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['power_panel_id'], referencedTable: 'dcim_powerpanel', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['rack_id'], referencedTable: 'dcim_rack', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("dcim_powerfeed");
    await qr.dropTable("dcim_powerpanel");
  }
}
