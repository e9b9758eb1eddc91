/**
 * The floor of BENCHMARK.md: the rows of W1–W6 and W12 served by the thinnest handler possible on
 * netinv's own HTTP stack (express on the server of framework/http/express-server.ts) and database
 * drivers: one hand-written SQL query and JSON.stringify, no authentication, no serializer.
 * Started as its own process by the benchmark, configured by DATABASE_URL and PORT.
 */
import express, { type Request, type Response } from 'express';
import BetterSqlite3 from 'better-sqlite3';
import { Pool as PgPool } from 'pg';
import { createPool as createMysqlPool } from 'mysql2';
import { parseDatabaseUrl } from '../../framework/store/datasource';
import { expressServer } from '../../framework/http/express-server';

type Rows = Record<string, unknown>[];
/** Runs one SQL statement written with `?` placeholders. */
type Query = (sql: string, params: unknown[]) => Promise<Rows>;

function connect(databaseUrl: string): { query: Query; quote: (name: string) => string } {
  const parsed = parseDatabaseUrl(databaseUrl);
  if (parsed.dialect === 'sqlite') {
    const db = new BetterSqlite3(parsed.file as string, { readonly: true, fileMustExist: true });
    const statements = new Map<string, BetterSqlite3.Statement>();
    return {
      quote: (name) => `"${name}"`,
      query: async (sql, params) => {
        let stmt = statements.get(sql);
        if (!stmt) statements.set(sql, (stmt = db.prepare(sql)));
        return stmt.all(...params) as Rows;
      },
    };
  }
  if (parsed.dialect === 'postgres') {
    const pool = new PgPool({ connectionString: parsed.url, max: 10 });
    return {
      quote: (name) => `"${name}"`,
      query: async (sql, params) => {
        let i = 0;
        const text = sql.replace(/\?/g, () => `$${++i}`);
        return (await pool.query(text, params)).rows as Rows;
      },
    };
  }
  const pool = createMysqlPool({ uri: parsed.url, connectionLimit: 10, dateStrings: true });
  return {
    quote: (name) => `\`${name}\``,
    query: (sql, params) =>
      new Promise((resolve, reject) => pool.query(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as Rows)))),
  };
}

function main(): void {
  const { query, quote: q } = connect(process.env.DATABASE_URL ?? 'sqlite:./data/netinv.sqlite');
  const prefixOrder = `ORDER BY ${q('family')}, ${q('network')}, ${q('prefix_length')}, ${q('id')}`;
  const int = (req: Request, name: string) => Number(req.query[name] ?? 0);
  const text = (req: Request, name: string) => String(req.query[name] ?? '');
  const serve = (handler: (req: Request) => Promise<unknown>) => async (req: Request, res: Response) => {
    const body = JSON.stringify(await handler(req));
    res.setHeader('Content-Type', 'application/json');
    res.end(body);
  };

  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get('/floor/prefixes', serve((req) => query(`SELECT * FROM ${q('ipam_prefix')} ${prefixOrder} LIMIT ? OFFSET ?`, [int(req, 'limit'), int(req, 'offset')])));
  app.get('/floor/prefixes/:id', serve(async (req) => (await query(`SELECT * FROM ${q('ipam_prefix')} WHERE ${q('id')} = ?`, [req.params.id]))[0]));
  app.get('/floor/devices', serve((req) => query(`SELECT * FROM ${q('dcim_device')} ORDER BY ${q('_name')}, ${q('id')} LIMIT ?`, [int(req, 'limit')])));
  app.get(
    '/floor/prefixes-within',
    serve((req) =>
      query(
        `SELECT * FROM ${q('ipam_prefix')} WHERE ${q('family')} = 4 AND ${q('prefix_length')} > ? AND ${q('network')} >= ? AND ${q('network')} <= ? ${prefixOrder} LIMIT ?`,
        [int(req, 'length'), text(req, 'first'), text(req, 'last'), int(req, 'limit')],
      ),
    ),
  );
  app.get(
    '/floor/addresses-in',
    serve((req) =>
      query(
        `SELECT * FROM ${q('ipam_ipaddress')} WHERE ${q('family')} = 4 AND ${q('host')} >= ? AND ${q('host')} <= ? ORDER BY ${q('family')}, ${q('host')}, ${q('prefix_length')}, ${q('id')} LIMIT ?`,
        [text(req, 'first'), text(req, 'last'), int(req, 'limit')],
      ),
    ),
  );
  // W12: cabled interfaces in netinv's order (device name, device, interface name) with their
  // cable, the cable's far end and the stored path's destination, each with its device's name.
  // The dataset cables interfaces to interfaces, so the far end and the destination are joined
  // on the interface table only.
  const far = (end: string) => `CASE WHEN c.${q('termination_a_id')} = i.${q('id')} THEN c.${q(`termination_b_${end}`)} ELSE c.${q(`termination_a_${end}`)} END`;
  app.get(
    '/floor/cabled-interfaces',
    serve((req) =>
      query(
        `SELECT i.*, d.${q('name')} AS device_name,
          c.${q('label')} AS cable_label, c.${q('status_id')} AS cable_status_id,
          ${far('type')} AS cable_peer_type, pi.${q('id')} AS cable_peer_id, pi.${q('name')} AS cable_peer_name,
          pi.${q('device_id')} AS cable_peer_device_id, pd.${q('name')} AS cable_peer_device_name,
          p.${q('destination_type')} AS connected_endpoint_type, p.${q('is_active')} AS connected_endpoint_reachable,
          ei.${q('id')} AS connected_endpoint_id, ei.${q('name')} AS connected_endpoint_name,
          ei.${q('device_id')} AS connected_endpoint_device_id, ed.${q('name')} AS connected_endpoint_device_name
        FROM ${q('dcim_interface')} i
        JOIN ${q('dcim_device')} d ON d.${q('id')} = i.${q('device_id')}
        JOIN ${q('dcim_cable')} c ON c.${q('id')} = i.${q('cable_id')}
        LEFT JOIN ${q('dcim_interface')} pi ON pi.${q('id')} = ${far('id')}
        LEFT JOIN ${q('dcim_device')} pd ON pd.${q('id')} = pi.${q('device_id')}
        LEFT JOIN ${q('dcim_cablepath')} p ON p.${q('origin_type')} = 'dcim.interface' AND p.${q('origin_id')} = i.${q('id')}
        LEFT JOIN ${q('dcim_interface')} ei ON ei.${q('id')} = p.${q('destination_id')}
        LEFT JOIN ${q('dcim_device')} ed ON ed.${q('id')} = ei.${q('device_id')}
        ORDER BY d.${q('_name')}, d.${q('id')}, i.${q('_name')}, i.${q('id')} LIMIT ?`,
        [int(req, 'limit')],
      ),
    ),
  );
  // The server netinv itself listens with (requests born with Express's prototypes).
  const server = expressServer(app);
  server.keepAliveTimeout = 65_000;
  server.listen(Number(process.env.PORT ?? 8090), '127.0.0.1', () => process.stdout.write('floor ready\n'));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main();
