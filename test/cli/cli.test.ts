/**
 * The `netinv` command of CONTRACT.md, run from the compiled output as a user runs it: outputs,
 * exit codes (0 success, 1 failure, 2 usage) and a served API reachable with a created token.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Progress } from '../../app/progress';
import { freshDatabaseUrl } from '../helpers/database';

const MAIN = path.resolve(__dirname, '../../dist/app/cli/main.js');
let databaseUrl: string;

function netinv(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const res = spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
    cwd,
  });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** stderr without the line that names the database in use. */
function withoutDatabaseLine(stderr: string): string {
  return stderr.replace(/^Database: .*\n/m, '');
}

/** A port something else already listens on, and the way to free it. */
async function busyPort(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Runs the CLI asynchronously (the tests' own servers must keep answering meanwhile); killed after 90 s. */
function netinvAsync(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Pids of the processes whose environment holds NAME=value (Linux /proc). */
function processesWithEnv(name: string, value: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`${name}=${value}`)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), writes `input` once `waitFor` appears
 * in its output, and returns everything the terminal showed and the exit status.
 */
function onTerminal(args: string[], input: string, waitFor: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, MAIN, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'silent', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!sent && output.includes(waitFor)) {
        sent = true;
        child.stdin.write(input);
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const hasScript = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;
const withTerminal = hasScript ? test : test.skip;

beforeAll(async () => {
  databaseUrl = await freshDatabaseUrl({ persistent: true });
});

test('--help lists every command and exits 0', () => {
  const res = netinv(['--help']);
  expect(res.code).toBe(0);
  for (const command of ['serve', 'migrate', 'worker', 'createsuperuser', 'createtoken']) expect(res.stdout).toContain(command);
});

test('netinv alone says no command was given, lists the commands and exits 2', () => {
  const res = netinv([]);
  expect(res.code).toBe(2);
  expect(res.stderr).toMatch(/^Error: no command given\n/);
  for (const command of ['serve', 'migrate', 'worker', 'createsuperuser', 'createtoken']) expect(res.stderr).toContain(command);
  expect(res.stdout).toBe('');
});

test('--version prints the version of package.json and exits 0', () => {
  const { version } = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string };
  const res = netinv(['--version']);
  expect(res.code).toBe(0);
  expect(res.stdout).toBe(`${version}\n`);
});

test('<command> --help shows that command\'s options and exits 0', () => {
  const serve = netinv(['serve', '--help']);
  expect(serve.code).toBe(0);
  expect(serve.stdout).toMatch(/^Usage: netinv serve /);
  for (const option of ['--port <port>', '--host <host>', '--workers <n>']) expect(serve.stdout).toContain(option);
  expect(serve.stdout).not.toContain('--username');
  const token = netinv(['help', 'createtoken']);
  expect(token.code).toBe(0);
  for (const option of ['--username <name>', '--key <key>', '--read-only', '--expires <iso8601>', '--description <text>']) expect(token.stdout).toContain(option);
  expect(token.stdout).not.toContain('--workers');
});

test.each([
  [['frobnicate'], "unknown command 'frobnicate'"],
  [['createsuperuser', '--username', 'x'], '--password is required when standard input is not a terminal'],
  [['createsuperuser', '--password', 'x'], "required option '--username <name>' not specified"],
  [['createsuperuser', '--username'], "option '--username <name>' argument missing"],
  [['createsuperuser', '--username', '--password', 'x'], "option '--username <name>' argument '--password' is invalid"],
  [['createtoken', '--username', 'x', '--colour', 'red'], "unknown option '--colour'"],
  [['serve', '--colour'], "unknown option '--colour'"],
  [['migrate', 'now'], "too many arguments for 'migrate'"],
  [['createtoken', '--username', 'x', '--key', 'not-hex'], "option '--key <key>' argument 'not-hex' is invalid. must be 40 hexadecimal characters"],
  [['serve', '--workers', 'zero'], "option '--workers <n>' argument 'zero' is invalid. must be a positive integer"],
  [['serve', '--workers', '0'], "option '--workers <n>' argument '0' is invalid. must be a positive integer"],
  [['serve', '--port', 'abc'], "option '--port <port>' argument 'abc' is invalid. must be an integer from 0 to 65535"],
  [['serve', '--port', '70000'], "option '--port <port>' argument '70000' is invalid"],
])('usage error %j → exit 2 with a message naming it', (args, message) => {
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

test('migrate applies the schema once, then has nothing to do; off a terminal, one plain progress line per migration', () => {
  const first = netinv(['migrate']);
  expect(first.code).toBe(0);
  expect(first.stdout).toMatch(/^Applied /);
  const applied = first.stdout.trim().replace(/^Applied /, '').split(', ');
  const lines = withoutDatabaseLine(first.stderr).split('\n').filter(Boolean);
  expect(first.stderr).not.toContain('\r');
  expect(lines).toEqual(applied.map((name, i) => expect.stringMatching(new RegExp(`^migrations: ${i + 1}/${applied.length} ${name} \\(\\d+\\.\\ds\\)$`))));
  const second = netinv(['migrate']);
  expect(second.code).toBe(0);
  expect(second.stdout).toBe('No migrations to apply.\n');
  expect(withoutDatabaseLine(second.stderr)).toBe('');
});

withTerminal('migrate on a terminal draws one progress bar, redrawn in place', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-cli-'));
  const res = await onTerminal(['migrate'], '', '\u0000', { DATABASE_URL: `sqlite:${path.join(dir, 'tty.sqlite')}` });
  expect(res.code).toBe(0);
  expect(res.output).toMatch(/\r\[#{30}\] 100% \d+\.\ds \w+/);
  expect(res.output).not.toMatch(/^migrations: /m);
});

test('the database in use is named on start: a relative SQLite path made absolute, a new file said to be created', () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-cli-')));
  const env = { DATABASE_URL: 'sqlite:./state/relative.sqlite' };
  const first = netinv(['migrate'], env, dir);
  expect(first.code).toBe(0);
  expect(first.stderr.split('\n')[0]).toBe(`Database: sqlite:${path.join(dir, 'state/relative.sqlite')} (created a new database file)`);
  expect(fs.existsSync(path.join(dir, 'state/relative.sqlite'))).toBe(true);
  const again = netinv(['createsuperuser', '--username', 'rel', '--password', 'pw-rel-123'], env, dir);
  expect(again.code).toBe(0);
  expect(again.stderr).toBe(`Database: sqlite:${path.join(dir, 'state/relative.sqlite')}\n`);
});

describe('an unreachable database: one line naming it, password masked, no stack, exit 1', () => {
  const env = { DATABASE_URL: 'postgres://netinv:secret@127.0.0.1:1/netinv' };
  test.each([
    [['migrate']],
    [['createsuperuser', '--username', 'x', '--password', 'y']],
    [['createtoken', '--username', 'x']],
    [['worker']],
    [['serve', '--port', '1']],
  ])('%j', async (args) => {
    const res = await netinvAsync(args, env);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^Error: cannot connect to database postgres:\/\/netinv:\*\*\*@127\.0\.0\.1:1\/netinv: .*ECONNREFUSED.*\n$/);
    expect(res.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(res.stderr).not.toContain('secret');
    expect(res.stderr).not.toMatch(/^\s+at /m);
    expect(res.stdout).toBe('');
  }, 120_000);
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
  expect(res.stdout).toMatch(/^Applied (.*, )?InitialBgp\d{13}, AddBgpObjectVersions\d{13}, AutonomousSystemStatus\d{13}\n$/);
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
  expect(withoutDatabaseLine(again.stderr)).toBe('Error: user ops already exists\n');
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
  expect(withoutDatabaseLine(duplicate.stderr)).toMatch(/^Error: key: /);
  const badDate = netinv(['createtoken', '--username', 'ops', '--expires', 'tomorrow']);
  expect(badDate.code).toBe(1);
  expect(withoutDatabaseLine(badDate.stderr)).toMatch(/^Error: expires: Datetime has wrong format/);
  const nobody = netinv(['createtoken', '--username', 'nobody']);
  expect(nobody.code).toBe(1);
  expect(withoutDatabaseLine(nobody.stderr)).toBe('Error: no user named nobody\n');
});

/**
 * `netinv serve` with the given arguments, once it says it is serving: its first output, and a
 * stop that sends SIGTERM and gives the exit code. Each wait has a deadline whose failure quotes
 * what the process wrote to stderr (at log level warn), so a stuck start or stop says where.
 */
async function startServe(args: string[]) {
  const child = spawn(process.execPath, [MAIN, 'serve', ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, NETINV_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const within = <T>(what: string, ms: number, promise: Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve ${args.join(' ')}: no ${what} within ${ms / 1000} s; stderr:\n${stderr}`)), ms);
      promise.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    try {
      return await within('exit after SIGTERM', 15_000, exited);
    } finally {
      child.kill('SIGKILL');
    }
  };
  try {
    const out = await within(
      '"serving" line',
      40_000,
      new Promise<string>((resolve, reject) => {
        let text = '';
        child.stdout.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes('serving')) resolve(text);
        });
        void exited.then((code) => reject(new Error(`serve exited with ${code}; stderr:\n${stderr}`)));
      }),
    );
    return { child, out, stop, stderr: () => stderr };
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }
}

test('serve answers with a created token and stops cleanly on SIGTERM', async () => {
  const key = netinv(['createtoken', '--username', 'ops']).stdout.trim();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const serve = await startServe(['--port', String(port)]);
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/status/`, { headers: { Authorization: `Token ${key}`, Accept: 'application/json' }, signal: AbortSignal.timeout(20_000) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body['netinv-version']).toEqual(expect.any(String));
    const anonymous = await fetch(`http://127.0.0.1:${port}/api/dcim/sites/`, { signal: AbortSignal.timeout(20_000) });
    expect(anonymous.status).toBe(403);
  } finally {
    expect(await serve.stop()).toBe(0);
  }
  expect(withoutDatabaseLine(serve.stderr())).toBe('');
});

test('serve --workers 2 forks two serving processes and stops them on SIGTERM', async () => {
  const key = netinv(['createtoken', '--username', 'ops']).stdout.trim();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const serve = await startServe(['--port', String(port), '--workers', '2']);
  const child = serve.child;
  let workers: number[] = [];
  const workerPids = () => {
    try {
      return fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  };
  try {
    expect(serve.out).toMatch(/with 2 workers/);
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
    expect(await serve.stop()).toBe(0);
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

describe('serve on a port already in use', () => {
  test.each([[[] as string[]], [['--workers', '2']]])('%j: says which port, does not claim to serve, exits non-zero', async (extra) => {
    const busy = await busyPort();
    // Marks this run's processes, to find any worker left behind.
    const mark = `busy-${process.pid}-${Date.now()}`;
    try {
      const res = await netinvAsync(['serve', '--port', String(busy.port), ...extra], { NETINV_TEST_MARK: mark });
      expect(res.code).not.toBe(0);
      expect(res.code).not.toBeNull();
      expect(res.stdout).not.toContain('serving');
      // After the database line and any migration progress (when this test runs alone), the one error line.
      expect(withoutDatabaseLine(res.stderr).replace(/^migrations: .*\n/gm, '')).toBe(`Error: port ${busy.port} on 127.0.0.1 is already in use; stop the program using it or choose another port (--port or PORT)\n`);
    } finally {
      await busy.close();
    }
    if (fs.existsSync('/proc')) expect(processesWithEnv('NETINV_TEST_MARK', mark)).toEqual([]);
  }, 120_000);
});

describe('createsuperuser without --password on a terminal', () => {
  withTerminal('asks twice without echo and creates the user', async () => {
    const res = await onTerminal(['createsuperuser', '--username', 'prompted'], 'Hidden-pw-123\nHidden-pw-123\n', 'Password: ');
    expect(res.code).toBe(0);
    expect(res.output).toContain('Password (again): ');
    expect(res.output).toContain('Superuser prompted created.');
    expect(res.output).not.toContain('Hidden-pw-123');
    // The password was stored: the user exists now.
    const again = netinv(['createsuperuser', '--username', 'prompted', '--password', 'x']);
    expect(withoutDatabaseLine(again.stderr)).toBe('Error: user prompted already exists\n');
  });

  withTerminal.each([
    ['Hidden-pw-123\nOther-pw-456\n', 'the passwords do not match'],
    ['\n\n', 'the password must not be empty'],
  ])('refuses %j: %s, exit 1, no user', async (input, message) => {
    const res = await onTerminal(['createsuperuser', '--username', 'refused'], input, 'Password: ');
    expect(res.code).toBe(1);
    expect(res.output).toContain(`Error: ${message}`);
    expect(res.output).not.toContain('Superuser refused created.');
    expect(res.output).not.toMatch(/Hidden-pw-123|Other-pw-456/);
  });
});

describe('Progress (migrations, the benchmark dataset load)', () => {
  const stream = (isTTY: boolean) => {
    const writes: string[] = [];
    return { writes, isTTY, write: (text: string) => writes.push(text) };
  };

  test('off a terminal: plain lines, one per new label and one per tenth, no carriage return', () => {
    const out = stream(false);
    const progress = new Progress(100, { title: 'dataset', stream: out });
    for (let i = 0; i < 50; i++) progress.advance(1, i % 2 ? 'dcim.site' : 'dcim.region');
    for (let i = 0; i < 50; i++) progress.advance(1, 'ipam.prefix');
    progress.finish();
    expect(out.writes.join('')).not.toContain('\r');
    expect(out.writes.every((line) => /^dataset: \d+\/100 [\w.]+ \(\d+\.\ds\)\n$/.test(line))).toBe(true);
    const counts = out.writes.map((line) => Number(/: (\d+)\//.exec(line)?.[1]));
    expect(counts).toEqual([1, 2, 10, 20, 30, 40, 50, 51, 60, 70, 80, 90, 100]);
  });

  test('on a terminal: one bar redrawn with a carriage return, ended by a newline', () => {
    const out = stream(true);
    const progress = new Progress(3, { title: 'migrations', stream: out });
    for (const name of ['One1', 'Two2', 'Three3']) progress.advance(1, name);
    progress.finish();
    expect(out.writes.length).toBeGreaterThanOrEqual(2);
    expect(out.writes.slice(0, -1).every((text) => text.startsWith('\r[') && !text.includes('\n'))).toBe(true);
    expect(out.writes.at(-2)).toMatch(/^\r\[#{30}\] 100% \d+\.\ds Three3/);
    expect(out.writes.at(-1)).toBe('\n');
  });
});
