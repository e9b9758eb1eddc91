import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddCircuits1795582292995 implements MigrationInterface {
  name = 'AddCircuits1795582292995';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'circuits_provider',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'asn', type: 'bigint', nullable: true },
        { name: 'account', type: 'varchar', length: '100' },
        { name: 'portal_url', type: 'varchar', length: '200' },
        { name: 'noc_contact', type: 'text' },
        { name: 'admin_contact', type: 'text' },
        { name: 'comments', type: 'text' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'circuits_circuittype',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'circuits_circuit',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'cid', type: 'varchar', length: '100' },
        { name: 'install_date', type: 'date', nullable: true },
        { name: 'commit_rate', type: 'integer', nullable: true },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'comments', type: 'text' },
        { name: 'provider_id', type: 'uuid', references: true },
        { name: 'type_id', type: 'uuid', references: true },
        { name: 'status_id', type: 'uuid', references: true },
        { name: 'tenant_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['provider_id'] },
        { columns: ['type_id'] },
        { columns: ['status_id'] },
        { columns: ['tenant_id'] },
      ],
      uniques: [
        { columns: ['provider_id', 'cid'] },
      ],
      foreignKeys: [
        { columns: ['provider_id'], referencedTable: 'circuits_provider', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['type_id'], referencedTable: 'circuits_circuittype', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['status_id'], referencedTable: 'extras_status', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['tenant_id'], referencedTable: 'tenancy_tenant', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'circuits_providernetwork',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'comments', type: 'text' },
        { name: 'provider_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['provider_id'] },
      ],
      uniques: [
        { columns: ['slug'] },
        { columns: ['provider_id', 'name'] },
      ],
      foreignKeys: [
        { columns: ['provider_id'], referencedTable: 'circuits_provider', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'circuits_circuittermination',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'term_side', type: 'varchar', length: '1' },
        { name: 'port_speed', type: 'integer', nullable: true },
        { name: 'upstream_speed', type: 'integer', nullable: true },
        { name: 'xconnect_id', type: 'varchar', length: '50' },
        { name: 'pp_info', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'circuit_id', type: 'uuid', references: true },
        { name: 'site_id', type: 'uuid', nullable: true, references: true },
        { name: 'provider_network_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['circuit_id'] },
        { columns: ['site_id'] },
        { columns: ['provider_network_id'] },
      ],
      uniques: [
        { columns: ['circuit_id', 'term_side'] },
      ],
      foreignKeys: [
        { columns: ['circuit_id'], referencedTable: 'circuits_circuit', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['site_id'], referencedTable: 'dcim_site', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['provider_network_id'], referencedTable: 'circuits_providernetwork', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("circuits_circuittermination");
    await qr.dropTable("circuits_providernetwork");
    await qr.dropTable("circuits_circuit");
    await qr.dropTable("circuits_circuittype");
    await qr.dropTable("circuits_provider");
  }
}
