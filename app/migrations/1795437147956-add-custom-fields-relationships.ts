import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddCustomFieldsRelationships1795437147956 implements MigrationInterface {
  name = 'AddCustomFieldsRelationships1795437147956';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_computedfield',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'label', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'content_type', type: 'varchar', length: '100' },
        { name: 'template', type: 'text' },
        { name: 'fallback_value', type: 'varchar', length: '500' },
        { name: 'weight', type: 'integer' },
      ],
      uniques: [
        { columns: ['slug'] },
        { columns: ['content_type', 'label'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_customfield',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'content_types', type: 'text' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'label', type: 'varchar', length: '50' },
        { name: 'name', type: 'varchar', length: '50' },
        { name: 'slug', type: 'varchar', length: '50' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'required', type: 'boolean' },
        { name: 'filter_logic', type: 'varchar', length: '50' },
        { name: 'default', type: 'text', nullable: true },
        { name: 'weight', type: 'integer' },
        { name: 'validation_minimum', type: 'bigint', nullable: true },
        { name: 'validation_maximum', type: 'bigint', nullable: true },
        { name: 'validation_regex', type: 'varchar', length: '500' },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_customfieldchoice',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'value', type: 'varchar', length: '100' },
        { name: 'weight', type: 'integer' },
        { name: 'field_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['field_id'] },
      ],
      uniques: [
        { columns: ['field_id', 'value'] },
      ],
      foreignKeys: [
        { columns: ['field_id'], referencedTable: 'extras_customfield', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_relationship',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'slug', type: 'varchar', length: '100' },
        { name: 'description', type: 'varchar', length: '200' },
        { name: 'type', type: 'varchar', length: '50' },
        { name: 'required_on', type: 'varchar', length: '12' },
        { name: 'source_type', type: 'varchar', length: '100' },
        { name: 'source_label', type: 'varchar', length: '50' },
        { name: 'source_hidden', type: 'boolean' },
        { name: 'source_filter', type: 'text', nullable: true },
        { name: 'destination_type', type: 'varchar', length: '100' },
        { name: 'destination_label', type: 'varchar', length: '50' },
        { name: 'destination_hidden', type: 'boolean' },
        { name: 'destination_filter', type: 'text', nullable: true },
      ],
      uniques: [
        { columns: ['name'] },
        { columns: ['slug'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_relationshipassociation',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'source_type', type: 'varchar', length: '100' },
        { name: 'source_id', type: 'uuid' },
        { name: 'destination_type', type: 'varchar', length: '100' },
        { name: 'destination_id', type: 'uuid' },
        { name: 'relationship_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['relationship_id'] },
        { columns: ['source_type', 'source_id'] },
        { columns: ['destination_type', 'destination_id'] },
      ],
      uniques: [
        { columns: ['relationship_id', 'source_type', 'source_id', 'destination_type', 'destination_id'] },
      ],
      foreignKeys: [
        { columns: ['relationship_id'], referencedTable: 'extras_relationship', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_relationshipassociation");
    await qr.dropTable("extras_relationship");
    await qr.dropTable("extras_customfieldchoice");
    await qr.dropTable("extras_customfield");
    await qr.dropTable("extras_computedfield");
  }
}
