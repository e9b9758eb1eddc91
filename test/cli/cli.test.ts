/**
 * The `netinv` command of CONTRACT.md, run from the compiled output as a user runs it: outputs,
 * exit codes (0 success, 1 failure, 2 usage) and a served API reachable with a created token.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freshDatabaseUrl } from '../helpers/database';

const MAIN = path.resolve(__dirname, '../../dist/app/cli/main.js');
let databaseUrl: string;

function netinv(args: string[], env: Record<string, string> = {}) {
  const res = spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl({ persistent: true });
});

test('--help lists every command and exits 0', () => {
  const res = netinv(['--help']);
  expect(res.code).toBe(0);
  for (const command of ['serve', 'migrate', 'createsuperuser', 'createtoken']) expect(res.stdout).toContain(command);
});

test.each([
  [[], 'no command given'],
  [['frobnicate'], 'unknown command frobnicate'],
  [['createsuperuser', '--username', 'x'], '--password is required'],
  [['createsuperuser', '--username'], '--username needs a value'],
  [['createtoken', '--username', 'x', '--colour', 'red'], 'unknown option --colour'],
  [['createtoken', '--username', 'x', '--key', 'not-hex'], '--key must be 40 hexadecimal characters'],
  [['serve', '--workers', 'zero'], '--workers must be a positive integer'],
])('usage error %j → exit 2 with a message', (args, message) => {
  const res = netinv(args);
  expect(res.code).toBe(2);
  expect(res.stderr).toContain(`Error: ${message}`);
  expect(res.stdout).toBe('');
});

test('a bad configuration exits 1 naming the variable', () => {
  const res = netinv(['migrate'], { NETINV_PAGINATE_COUNT: 'many' });
  expect(res.code).toBe(1);
  expect(res.stderr).toContain('NETINV_PAGINATE_COUNT=many');
  const url = netinv(['migrate'], { DATABASE_URL: 'oracle://db' });
  expect(url.code).toBe(1);
  expect(url.stderr).toMatch(/^Error: /);
});

test('migrate applies the schema once, then has nothing to do', () => {
  const first = netinv(['migrate']);
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/^Applied /);
  const second = netinv(['migrate']);
  expect(second.code).toBe(0);
  expect(second.stdout).toBe('No migrations to apply.\n');
});

test('migrate then applies an enabled plugin\'s migrations; a plugin that cannot load exits 1', () => {
  const repo = path.resolve(__dirname, '../..');
  const env = { NETINV_PLUGINS: './dist/plugins/netinv-bgp' };
  const res = spawnSync(process.execPath, [MAIN, 'migrate'], {
    cwd: repo,
    env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(res.status).toBe(0);
  // After the core migrations (applied by the test above when it ran), in that order.
  expect(res.stdout).toMatch(/^Applied (.*, )?InitialBgp\d{13}\n$/);
  const missing = netinv(['migrate'], { NETINV_PLUGINS: './no/such/plugin' });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/^Error: plugin \.\/no\/such\/plugin: cannot be loaded/);
});

test('createsuperuser creates once; a second time exits 1', () => {
  const res = netinv(['createsuperuser', '--username', 'ops', '--password', 'pw-ops-123', '--email', 'ops@example.net']);
  expect(res.code).toBe(0);
  expect(res.stdout).toBe('Superuser ops created.\n');
  const again = netinv(['createsuperuser', '--username', 'ops', '--password', 'other']);
  expect(again.code).toBe(1);
  expect(again.stderr).toBe('Error: user ops already exists\n');
});

test('createtoken prints the key alone; validation errors exit 1', () => {
  const res = netinv(['createtoken', '--username', 'ops']);
  expect(res.code).toBe(0);
  expect(res.stdout).toMatch(/^[0-9a-f]{40}\n$/);
  const key = 'AB'.repeat(20);
  const given = netinv(['createtoken', '--username', 'ops', '--key', key, '--read-only', '--description', 'ci', '--expires', '2999-01-01T00:00:00Z']);
  expect(given.code).toBe(0);
  expect(given.stdout).toBe(`${key.toLowerCase()}\n`);
  const duplicate = netinv(['createtoken', '--username', 'ops', '--key', key]);
  expect(duplicate.code).toBe(1);
  expect(duplicate.stderr).toMatch(/^Error: key: /);
  const badDate = netinv(['createtoken', '--username', 'ops', '--expires', 'tomorrow']);
  expect(badDate.code).toBe(1);
  expect(badDate.stderr).toMatch(/^Error: expires: Datetime has wrong format/);
  const nobody = netinv(['createtoken', '--username', 'nobody']);
  expect(nobody.code).toBe(1);
  expect(nobody.stderr).toBe('Error: no user named nobody\n');
});

test('serve answers with a created token and stops cleanly on SIGTERM', async () => {
  const key = netinv(['createtoken', '--username', 'ops']).stdout.trim();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', String(port)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('serving')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const res = await fetch(`http://127.0.0.1:${port}/api/status/`, { headers: { Authorization: `Token ${key}`, Accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body['netinv-version']).toEqual(expect.any(String));
    const anonymous = await fetch(`http://127.0.0.1:${port}/api/dcim/sites/`);
    expect(anonymous.status).toBe(403);
  } finally {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
});

test('serve --workers 2 forks two serving processes and stops them on SIGTERM', async () => {
  const key = netinv(['createtoken', '--username', 'ops']).stdout.trim();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', String(port), '--workers', '2'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let workers: number[] = [];
  const workerPids = () => {
    try {
      return fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  };
  try {
    const out = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('serving')) resolve(text);
      });
      child.on('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    expect(out).toMatch(/with 2 workers/);
    let status = 0;
    // The forked workers start as the machine allows: wait on their answer, up to a minute.
    for (const deadline = Date.now() + 60_000; Date.now() < deadline && status !== 200; ) {
      status = await fetch(`http://127.0.0.1:${port}/api/status/`, { headers: { Authorization: `Token ${key}`, Accept: 'application/json' } })
        .then((r) => r.status)
        .catch(() => 0);
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    if (fs.existsSync('/proc')) {
      workers = workerPids().map(Number);
      expect(workers).toHaveLength(2);
    }
  } finally {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }
  // The workers seen serving ended with the primary (its /proc entry is gone with it: ask for the pids).
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
      throw err;
    }
  };
  expect(workers.filter(alive)).toEqual([]);
});
