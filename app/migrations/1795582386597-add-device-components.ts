import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddDeviceComponents1795582386597 implements MigrationInterface {
  name = 'AddDeviceComponents1795582386597';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_consoleport',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_consoleporttemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_consoleserverport',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_consoleserverporttemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_devicebay',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', references: true },
        { name: 'installed_device_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['device_id'] },
        { columns: ['installed_device_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['installed_device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_devicebaytemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_rearport',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'positions', type: 'integer' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_frontport',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'rear_port_position', type: 'integer' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', references: true },
        { name: 'rear_port_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_id'] },
        { columns: ['rear_port_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
        { columns: ['rear_port_id', 'rear_port_position'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['rear_port_id'], referencedTable: 'dcim_rearport', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_rearporttemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'positions', type: 'integer' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_frontporttemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'rear_port_position', type: 'integer' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
        { name: 'rear_port_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
        { columns: ['rear_port_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
        { columns: ['rear_port_id', 'rear_port_position'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['rear_port_id'], referencedTable: 'dcim_rearporttemplate', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_interfacetemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'mgmt_only', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_inventoryitem',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: '_tree_path', type: 'varchar', length: '760' },
        { name: '_tree_sort', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'part_id', type: 'varchar', length: '50' },
        { name: 'serial', type: 'varchar', length: '255' },
        { name: 'asset_tag', type: 'varchar', length: '50', nullable: true },
        { name: 'discovered', type: 'boolean' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: '_depth', type: 'integer' },
        { name: 'device_id', type: 'uuid', references: true },
        { name: 'parent_id', type: 'uuid', nullable: true, references: true },
        { name: 'manufacturer_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['device_id'] },
        { columns: ['parent_id'] },
        { columns: ['manufacturer_id'] },
      ],
      uniques: [
        { columns: ['asset_tag'] },
        { columns: ['device_id', 'parent_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['parent_id'], referencedTable: 'dcim_inventoryitem', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['manufacturer_id'], referencedTable: 'dcim_manufacturer', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_powerport',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'maximum_draw', type: 'integer', nullable: true },
        { name: 'allocated_draw', type: 'integer', nullable: true },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_poweroutlet',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'feed_leg', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_id', type: 'uuid', references: true },
        { name: 'power_port_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['device_id'] },
        { columns: ['power_port_id'] },
      ],
      uniques: [
        { columns: ['device_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_id'], referencedTable: 'dcim_device', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['power_port_id'], referencedTable: 'dcim_powerport', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_powerporttemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'maximum_draw', type: 'integer', nullable: true },
        { name: 'allocated_draw', type: 'integer', nullable: true },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'dcim_poweroutlettemplate',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '64' },
        { name: '_name', type: 'varchar', length: '255' },
        { name: 'label', type: 'varchar', length: '64' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'feed_leg', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'device_type_id', type: 'uuid', references: true },
        { name: 'power_port_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['device_type_id'] },
        { columns: ['power_port_id'] },
      ],
      uniques: [
        { columns: ['device_type_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['device_type_id'], referencedTable: 'dcim_devicetype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['power_port_id'], referencedTable: 'dcim_powerporttemplate', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("dcim_poweroutlettemplate");
    await qr.dropTable("dcim_powerporttemplate");
    await qr.dropTable("dcim_poweroutlet");
    await qr.dropTable("dcim_powerport");
    await qr.dropTable("dcim_inventoryitem");
    await qr.dropTable("dcim_interfacetemplate");
    await qr.dropTable("dcim_frontporttemplate");
    await qr.dropTable("dcim_rearporttemplate");
    await qr.dropTable("dcim_frontport");
    await qr.dropTable("dcim_rearport");
    await qr.dropTable("dcim_devicebaytemplate");
    await qr.dropTable("dcim_devicebay");
    await qr.dropTable("dcim_consoleserverporttemplate");
    await qr.dropTable("dcim_consoleserverport");
    await qr.dropTable("dcim_consoleporttemplate");
    await qr.dropTable("dcim_consoleport");
  }
}
