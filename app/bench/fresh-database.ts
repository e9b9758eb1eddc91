import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client as PgClient } from 'pg';
import { createConnection } from 'mysql2/promise';
import { parseDatabaseUrl } from '../../framework/store/datasource';

/**
 * The empty database the benchmark loads. Without DATABASE_URL: a new SQLite file in a temporary
 * directory. With a PostgreSQL or MySQL/MariaDB URL: that database is dropped and created again,
 * so its name must contain "bench" (a guard against pointing the benchmark at real data).
 */
export async function freshDatabase(databaseUrl: string | undefined): Promise<string> {
  if (!databaseUrl) return `sqlite:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-bench-')), 'bench.sqlite')}`;
  const parsed = parseDatabaseUrl(databaseUrl);
  if (parsed.dialect === 'sqlite') {
    const file = parsed.file as string;
    if (file === ':memory:') throw new Error('the benchmark needs a database file that two processes can open');
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
    return databaseUrl;
  }
  const url = new URL(parsed.url as string);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/bench/i.test(name)) throw new Error(`refusing to drop database "${name}": the benchmark's database name must contain "bench"`);
  if (parsed.dialect === 'postgres') {
    const admin = new URL(url);
    admin.pathname = '/postgres';
    const client = new PgClient({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    } finally {
      await client.end();
    }
  } else {
    const admin = new URL(url);
    admin.pathname = '/';
    const conn = await createConnection({ uri: admin.toString() });
    try {
      await conn.query(`DROP DATABASE IF EXISTS \`${name.replace(/`/g, '``')}\``);
      await conn.query(`CREATE DATABASE \`${name.replace(/`/g, '``')}\` CHARACTER SET utf8mb4`);
    } finally {
      await conn.end();
    }
  }
  return databaseUrl;
}
