import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Devices are listed by (`_name`, id): an index in that order serves a page without a sort. */
export class DeviceOrderIndex1795990000003 implements MigrationInterface {
  name = 'DeviceOrderIndex1795990000003';

  async up(qr: QueryRunner): Promise<void> {
    await qr.createIndex('dcim_device', new TableIndex({ name: 'IDX_625d8a57f669489e9245920074', columnNames: ['_name', 'id'], isUnique: false }));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropIndex('dcim_device', 'IDX_625d8a57f669489e9245920074');
  }
}
