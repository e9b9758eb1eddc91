import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client as PgClient } from 'pg';
import { createConnection } from 'mysql2/promise';

/**
 * The database a test file runs on: in-memory SQLite by default; with NETINV_TEST_DATABASE_URL a
 * PostgreSQL or MySQL database of its own per Jest worker, emptied before each test file.
 */
export async function freshDatabaseUrl(options: { persistent?: boolean; suffix?: string } = {}): Promise<string> {
  const base = process.env.NETINV_TEST_DATABASE_URL;
  if (!base || base.startsWith('sqlite:')) {
    // Separate processes (the CLI) need a file to share; it lives in a fresh temporary directory.
    if (options.persistent) return `sqlite:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-test-')), 'netinv.sqlite')}`;
    return base || 'sqlite::memory:';
  }
  const url = new URL(base);
  const worker = process.env.JEST_WORKER_ID ?? '0';
  // A second app in one test file needs a database of its own (suffix).
  const name = `${url.pathname.replace(/^\//, '') || 'test'}_w${worker}${options.suffix ? `_${options.suffix}` : ''}`;
  const target = new URL(base);
  target.pathname = `/${name}`;
  if (url.protocol.startsWith('postgres')) {
    const admin = new PgClient({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${name}"`);
      // Test data need not survive a crash: commits do not wait for the disk.
      await admin.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
    } finally {
      await admin.end();
    }
  } else {
    const admin = await createConnection({ uri: base.replace(/^mariadb:/, 'mysql:') });
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
    } finally {
      await admin.end();
    }
  }
  return target.toString();
}

export function dialectUnderTest(): 'sqlite' | 'postgres' | 'mysql' {
  const base = process.env.NETINV_TEST_DATABASE_URL || 'sqlite:';
  if (base.startsWith('postgres')) return 'postgres';
  if (base.startsWith('mysql') || base.startsWith('mariadb')) return 'mysql';
  return 'sqlite';
}
