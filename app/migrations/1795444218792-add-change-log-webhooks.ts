import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddChangeLogWebhooks1795444218792 implements MigrationInterface {
  name = 'AddChangeLogWebhooks1795444218792';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_objectchange',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'time', type: 'datetime', precision: 3 },
        { name: 'user_name', type: 'varchar', length: '150' },
        { name: 'request_id', type: 'uuid' },
        { name: 'action', type: 'varchar', length: '50' },
        { name: 'changed_object_type', type: 'varchar', length: '100', nullable: true },
        { name: 'changed_object_id', type: 'uuid', nullable: true },
        { name: 'object_repr', type: 'varchar', length: '200' },
        { name: 'object_data', type: 'text', nullable: true },
        { name: 'object_data_v2', type: 'text', nullable: true },
        { name: 'user_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['user_id'] },
        { columns: ['changed_object_type', 'changed_object_id'] },
        { columns: ['request_id'] },
        { columns: ['time'] },
      ],
      foreignKeys: [
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_webhook',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'content_types', type: 'text' },
        { name: 'name', type: 'varchar', length: '150' },
        { name: 'type_create', type: 'boolean' },
        { name: 'type_update', type: 'boolean' },
        { name: 'type_delete', type: 'boolean' },
        { name: 'payload_url', type: 'varchar', length: '500' },
        { name: 'enabled', type: 'boolean' },
        { name: 'http_method', type: 'varchar', length: '30' },
        { name: 'http_content_type', type: 'varchar', length: '100' },
        { name: 'additional_headers', type: 'text' },
        { name: 'body_template', type: 'text' },
        { name: 'secret', type: 'varchar', length: '255' },
        { name: 'ssl_verification', type: 'boolean' },
        { name: 'ca_file_path', type: 'varchar', length: '4096', nullable: true },
      ],
      uniques: [
        { columns: ['name'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_webhookdelivery',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'state', type: 'varchar', length: '20' },
        { name: 'attempts', type: 'integer' },
        { name: 'next_attempt_at', type: 'datetime', precision: 3 },
        { name: 'lease_until', type: 'datetime', precision: 3, nullable: true },
        { name: 'url', type: 'varchar', length: '500' },
        { name: 'method', type: 'varchar', length: '30' },
        { name: 'headers', type: 'text' },
        { name: 'body', type: 'text' },
        { name: 'ssl_verification', type: 'boolean' },
        { name: 'ca_file_path', type: 'varchar', length: '4096', nullable: true },
        { name: 'last_error', type: 'text' },
        { name: 'created', type: 'datetime', precision: 3 },
        { name: 'webhook_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['webhook_id'] },
        { columns: ['state', 'next_attempt_at'] },
      ],
      foreignKeys: [
        { columns: ['webhook_id'], referencedTable: 'extras_webhook', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_webhookdelivery");
    await qr.dropTable("extras_webhook");
    await qr.dropTable("extras_objectchange");
  }
}
