import { Client as PgClient } from 'pg';
import { createConnection } from 'mysql2/promise';

/** The databases `--databases` names; `all` is the three. */
export type DatabaseName = 'sqlite' | 'postgres' | 'mariadb';
const NAMES: readonly DatabaseName[] = ['sqlite', 'postgres', 'mariadb'];

export function parseDatabases(spec: string): DatabaseName[] {
  if (spec === 'all') return [...NAMES];
  const names = spec.split(',').map((n) => n.trim().toLowerCase().replace(/^mysql$/, 'mariadb'));
  for (const n of names) if (!NAMES.includes(n as DatabaseName)) throw new Error(`unknown database ${n}: expected all or a list of ${NAMES.join(', ')}`);
  return names as DatabaseName[];
}

/**
 * Where each database's run goes: SQLite in a new temporary file; the servers in a database named
 * netinv_bench (dropped and created again; the name must contain "bench"), at the address of
 * NETINV_BENCH_POSTGRES_URL or NETINV_BENCH_MYSQL_URL when set, else the local default.
 */
export function benchDatabaseUrl(name: DatabaseName): string | undefined {
  if (name === 'sqlite') return undefined;
  if (name === 'postgres') return process.env.NETINV_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/netinv_bench';
  return process.env.NETINV_BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/netinv_bench';
}

/** Why the database server cannot be reached, or null when it can (SQLite always can). */
export async function reachable(url: string | undefined): Promise<string | null> {
  if (!url) return null;
  const server = new URL(url);
  try {
    if (server.protocol.startsWith('postgres')) {
      server.pathname = '/postgres';
      const client = new PgClient({ connectionString: server.toString(), connectionTimeoutMillis: 3000 });
      await client.connect();
      await client.end();
    } else {
      server.pathname = '/';
      const conn = await createConnection({ uri: server.toString().replace(/^mariadb:/, 'mysql:'), connectTimeout: 3000 });
      await conn.end();
    }
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
