import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddGroupsPermissionsSessions1795435276251 implements MigrationInterface {
  name = 'AddGroupsPermissionsSessions1795435276251';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'users_group',
      columns: [
        { name: 'id', type: 'integer', primary: true, increment: true },
        { name: 'name', type: 'varchar', length: '150' },
      ],
      uniques: [
        { columns: ['name'] },
      ],
    });
    await createTable(qr, {
      name: 'users_objectpermission',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'enabled', type: 'boolean' },
        { name: 'object_types', type: 'text' },
        { name: 'actions', type: 'text', nullable: true },
        { name: 'constraints', type: 'text', nullable: true },
      ],
    });
    await createTable(qr, {
      name: 'users_objectpermission_groups',
      columns: [
        { name: 'objectpermission_id', type: 'uuid', primary: true, references: true },
        { name: 'group_id', type: 'integer', primary: true, references: true },
      ],
      indices: [
        { columns: ['objectpermission_id'] },
        { columns: ['group_id'] },
      ],
      foreignKeys: [
        { columns: ['objectpermission_id'], referencedTable: 'users_objectpermission', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['group_id'], referencedTable: 'users_group', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await qr.addColumn("users_user", new TableColumn(tableColumn(qr, {"name":"config_data","type":"text","nullable":true})));
    await createTable(qr, {
      name: 'users_objectpermission_users',
      columns: [
        { name: 'objectpermission_id', type: 'uuid', primary: true, references: true },
        { name: 'user_id', type: 'uuid', primary: true, references: true },
      ],
      indices: [
        { columns: ['objectpermission_id'] },
        { columns: ['user_id'] },
      ],
      foreignKeys: [
        { columns: ['objectpermission_id'], referencedTable: 'users_objectpermission', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
    await createTable(qr, {
      name: 'users_session',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'key', type: 'varchar', length: '64' },
        { name: 'csrf', type: 'varchar', length: '64' },
        { name: 'expires', type: 'datetime', precision: 3 },
        { name: 'user_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['user_id'] },
      ],
      uniques: [
        { columns: ['key'] },
      ],
      foreignKeys: [
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'users_user_groups',
      columns: [
        { name: 'user_id', type: 'uuid', primary: true, references: true },
        { name: 'group_id', type: 'integer', primary: true, references: true },
      ],
      indices: [
        { columns: ['user_id'] },
        { columns: ['group_id'] },
      ],
      foreignKeys: [
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
        { columns: ['group_id'], referencedTable: 'users_group', referencedColumns: ['id'], onDelete: 'CASCADE', onUpdate: 'CASCADE' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("users_user_groups");
    await qr.dropTable("users_session");
    await qr.dropTable("users_objectpermission_users");
    await qr.dropColumn("users_user", "config_data");
    await qr.dropTable("users_objectpermission_groups");
    await qr.dropTable("users_objectpermission");
    await qr.dropTable("users_group");
  }
}
