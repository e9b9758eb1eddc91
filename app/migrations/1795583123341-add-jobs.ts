import { TableColumn, TableForeignKey, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTable, tableColumn } from '../../framework/store/migration-schema';

/** Drafted by generators/migration.ts; reviewed before commit. */
export class AddJobs1795583123341 implements MigrationInterface {
  name = 'AddJobs1795583123341';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'extras_job',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'date' },
        { name: 'last_updated', type: 'datetime', precision: 3 },
        { name: '_custom_field_data', type: 'text' },
        { name: 'source', type: 'varchar', length: '50' },
        { name: 'module_name', type: 'varchar', length: '100' },
        { name: 'job_class_name', type: 'varchar', length: '100' },
        { name: 'grouping', type: 'varchar', length: '255' },
        { name: 'grouping_override', type: 'boolean' },
        { name: 'name', type: 'varchar', length: '100' },
        { name: 'name_override', type: 'boolean' },
        { name: 'slug', type: 'varchar', length: '320' },
        { name: 'description', type: 'text' },
        { name: 'description_override', type: 'boolean' },
        { name: 'installed', type: 'boolean' },
        { name: 'enabled', type: 'boolean' },
        { name: 'is_job_hook_receiver', type: 'boolean' },
        { name: 'is_job_button_receiver', type: 'boolean' },
        { name: 'has_sensitive_variables', type: 'boolean' },
        { name: 'has_sensitive_variables_override', type: 'boolean' },
        { name: 'approval_required', type: 'boolean' },
        { name: 'approval_required_override', type: 'boolean' },
        { name: 'commit_default', type: 'boolean' },
        { name: 'commit_default_override', type: 'boolean' },
        { name: 'hidden', type: 'boolean' },
        { name: 'hidden_override', type: 'boolean' },
        { name: 'read_only', type: 'boolean' },
        { name: 'read_only_override', type: 'boolean' },
        { name: 'soft_time_limit', type: 'integer' },
        { name: 'soft_time_limit_override', type: 'boolean' },
        { name: 'time_limit', type: 'integer' },
        { name: 'time_limit_override', type: 'boolean' },
        { name: 'task_queues', type: 'text', nullable: true },
        { name: 'task_queues_override', type: 'boolean' },
      ],
      uniques: [
        { columns: ['slug'] },
        { columns: ['source', 'module_name', 'job_class_name'] },
        { columns: ['grouping', 'name'] },
      ],
    });
    await createTable(qr, {
      name: 'extras_scheduledjob',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'name', type: 'varchar', length: '200' },
        { name: 'task', type: 'varchar', length: '200' },
        { name: 'interval', type: 'varchar', length: '30' },
        { name: 'queue', type: 'varchar', length: '200', nullable: true },
        { name: 'job_class', type: 'varchar', length: '255' },
        { name: 'last_run_at', type: 'datetime', precision: 3, nullable: true },
        { name: 'total_run_count', type: 'integer' },
        { name: 'date_changed', type: 'datetime', precision: 3 },
        { name: 'description', type: 'text' },
        { name: 'approval_required', type: 'boolean' },
        { name: 'approved_at', type: 'datetime', precision: 3, nullable: true },
        { name: 'crontab', type: 'varchar', length: '255' },
        { name: 'start_time', type: 'datetime', precision: 3 },
        { name: 'next_run_at', type: 'datetime', precision: 3, nullable: true },
        { name: 'kwargs', type: 'text', nullable: true },
        { name: 'enabled', type: 'boolean' },
        { name: 'user_id', type: 'uuid', nullable: true, references: true },
        { name: 'job_model_id', type: 'uuid', nullable: true, references: true },
        { name: 'approved_by_user_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['user_id'] },
        { columns: ['job_model_id'] },
        { columns: ['approved_by_user_id'] },
      ],
      foreignKeys: [
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['job_model_id'], referencedTable: 'extras_job', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['approved_by_user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_jobresult',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'created', type: 'datetime', precision: 3 },
        { name: 'completed', type: 'datetime', precision: 3, nullable: true },
        { name: 'name', type: 'varchar', length: '255' },
        { name: 'obj_type', type: 'varchar', length: '100' },
        { name: 'status', type: 'varchar', length: '50' },
        { name: 'data', type: 'text', nullable: true },
        { name: 'job_id', type: 'uuid' },
        { name: 'job_kwargs', type: 'text', nullable: true },
        { name: 'run_args', type: 'text', nullable: true },
        { name: 'run_after', type: 'datetime', precision: 3 },
        { name: 'lease_until', type: 'datetime', precision: 3, nullable: true },
        { name: 'worker', type: 'varchar', length: '100' },
        { name: 'cancel_requested', type: 'boolean' },
        { name: 'job_model_id', type: 'uuid', nullable: true, references: true },
        { name: 'user_id', type: 'uuid', nullable: true, references: true },
        { name: 'schedule_id', type: 'uuid', nullable: true, references: true },
      ],
      indices: [
        { columns: ['job_model_id'] },
        { columns: ['user_id'] },
        { columns: ['schedule_id'] },
        { columns: ['status', 'run_after'] },
      ],
      foreignKeys: [
        { columns: ['job_model_id'], referencedTable: 'extras_job', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['user_id'], referencedTable: 'users_user', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
        { columns: ['schedule_id'], referencedTable: 'extras_scheduledjob', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await createTable(qr, {
      name: 'extras_joblogentry',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'absolute_url', type: 'varchar', length: '255', nullable: true },
        { name: 'created', type: 'datetime', precision: 3 },
        { name: 'grouping', type: 'varchar', length: '100' },
        { name: 'log_level', type: 'varchar', length: '32' },
        { name: 'log_object', type: 'varchar', length: '200', nullable: true },
        { name: 'message', type: 'text' },
        { name: 'job_result_id', type: 'uuid', references: true },
      ],
      indices: [
        { columns: ['job_result_id'] },
      ],
      foreignKeys: [
        { columns: ['job_result_id'], referencedTable: 'extras_jobresult', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable("extras_joblogentry");
    await qr.dropTable("extras_jobresult");
    await qr.dropTable("extras_scheduledjob");
    await qr.dropTable("extras_job");
  }
}
