import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * On MySQL and MariaDB, text columns become LONGTEXT: TEXT holds 64 KB, too little for comments,
 * custom-field data, config-context data and change records. New tables get LONGTEXT from the
 * data source (framework/store/datasource.ts); this converts the ones made before. Other
 * databases' text has no such limit.
 */
export class MysqlLongText1795584295650 implements MigrationInterface {
  name = 'MysqlLongText1795584295650';

  async up(qr: QueryRunner): Promise<void> {
    await convert(qr, 'text', 'LONGTEXT');
  }

  async down(qr: QueryRunner): Promise<void> {
    await convert(qr, 'longtext', 'TEXT');
  }
}

async function convert(qr: QueryRunner, from: string, to: string): Promise<void> {
  const type = qr.connection.options.type;
  if (type !== 'mysql' && type !== 'mariadb') return;
  const columns = (await qr.query(
    'SELECT TABLE_NAME AS t, COLUMN_NAME AS c, IS_NULLABLE AS n FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND DATA_TYPE = ? ORDER BY TABLE_NAME, ORDINAL_POSITION',
    [from],
  )) as Array<{ t: string; c: string; n: string }>;
  for (const { t, c, n } of columns) {
    if (t === 'netinv_migrations') continue;
    await qr.query(`ALTER TABLE \`${t}\` MODIFY \`${c}\` ${to} ${n === 'YES' ? 'NULL' : 'NOT NULL'}`);
  }
}
