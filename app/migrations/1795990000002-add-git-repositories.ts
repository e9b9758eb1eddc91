import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/**
 * Git repositories, and the owner of devices' and virtual machines' local context data (the
 * repository that provides it; not shown in the API). Drafted by generators/migration.ts;
 * reviewed before commit.
 */
export class AddGitRepositories1795990000002 implements MigrationInterface {
  name = 'AddGitRepositories1795990000002';

  async up(qr: QueryRunner): Promise<void> {
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"local_context_data_owner_content_type","type":"varchar","length":"100","nullable":true})));
    await qr.addColumn("dcim_device", new TableColumn(tableColumn(qr, {"name":"local_context_data_owner_object_id","type":"uuid","nullable":true})));
    await qr.createIndex("dcim_device", new TableIndex({"name":"IDX_623f4ef71783556cf4ff59f9fe","columnNames":["local_context_data_owner_content_type","local_context_data_owner_object_id"],"isUnique":false}));
    await createTable(qr, {
      name: 'extras_gitrepository',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'remote_url', type: 'varchar', length: '255' },
        { name: 'branch', type: 'varchar', length: '64' },
        { name: '_token', type: 'varchar', length: '200' },
        { name: 'username', type: 'varchar', length: '64' },
        { name: 'current_head', type: 'varchar', length: '48' },
        { name: 'provided_contents', type: 'text', nullable: true },
        { name: '_version', type: 'integer', default: 1 },
        { name: 'secrets_group_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['secrets_group_id'] },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
      foreignKeys: [
        { columns: ['secrets_group_id'], referencedTable: 'extras_secretsgroup', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await qr.addColumn("virtualization_virtualmachine", new TableColumn(tableColumn(qr, {"name":"local_context_data_owner_content_type","type":"varchar","length":"100","nullable":true})));
    await qr.addColumn("virtualization_virtualmachine", new TableColumn(tableColumn(qr, {"name":"local_context_data_owner_object_id","type":"uuid","nullable":true})));
    await qr.createIndex("virtualization_virtualmachine", new TableIndex({"name":"IDX_744324a4f5b9b13985a3ebdef6","columnNames":["local_context_data_owner_content_type","local_context_data_owner_object_id"],"isUnique":false}));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropIndex("virtualization_virtualmachine", "IDX_744324a4f5b9b13985a3ebdef6");
    await qr.dropColumn("virtualization_virtualmachine", "local_context_data_owner_object_id");
    await qr.dropColumn("virtualization_virtualmachine", "local_context_data_owner_content_type");
    await qr.dropTable("extras_gitrepository");
    await qr.dropIndex("dcim_device", "IDX_623f4ef71783556cf4ff59f9fe");
    await qr.dropColumn("dcim_device", "local_context_data_owner_object_id");
    await qr.dropColumn("dcim_device", "local_context_data_owner_content_type");
  }
}
