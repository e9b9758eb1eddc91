#!/usr/bin/env node
import 'reflect-metadata';
import cluster from 'node:cluster';
import { Command, CommanderError, Option } from 'commander';
import { netinvVersion } from '../version';
import { port, positiveInteger, text, tokenKey, UsageError } from './args';
import type { CreateSuperuserOptions, CreateTokenOptions, ServeOptions, WorkerFailure } from './commands';

/**
 * The `netinv` command line on commander: per-command help, --version, errors that name the unknown
 * option or command or the bad value. Exit status 0 on success, 1 on failure, 2 on a usage error.
 */

const FOOTER = `
Configuration comes from the environment (DATABASE_URL, PORT, HOST, NETINV_*, NETINV_PLUGINS);
see README.md. Run 'netinv <command> --help' for a command's options.`;

/** Set by the commands that keep running (serve, worker): main does not exit then. */
let keepsRunning = false;

/** The commands load the whole application: only when one runs, so that help, --version and usage errors answer at once. */
const commands = () => import('./commands');

function program(): Command {
  const netinv = new Command('netinv')
    .description('Network source of truth with a Nautobot 1.x compatible REST API.')
    .version(netinvVersion(), '-V, --version', 'print the version and exit')
    .helpOption('-h, --help', 'show this help and exit')
    .addHelpText('after', FOOTER)
    .exitOverride()
    .configureOutput({ outputError: (message, write) => write(message.replace(/^error: /, 'Error: ')) })
    .showHelpAfterError("(run 'netinv --help' for the commands)")
    .allowExcessArguments(false);

  const command = (name: string, description: string) =>
    netinv
      .command(name)
      .description(description)
      .helpOption('-h, --help', 'show this help and exit')
      .showHelpAfterError(`(run 'netinv ${name} --help' for its options)`)
      .allowExcessArguments(false);

  command('serve', 'apply migrations and serve the API (default http://127.0.0.1:8080/api/)')
    .addOption(new Option('--port <port>', 'listening port (default: PORT, else 8080)').argParser(port))
    .addOption(new Option('--host <host>', 'listening address (default: HOST, else 127.0.0.1)').argParser(text))
    .addOption(new Option('--workers <n>', 'processes sharing the port').argParser(positiveInteger).default(1))
    .action(async (options: ServeOptions) => {
      keepsRunning = true;
      await (await commands()).serveCommand(options);
    });

  command('migrate', 'apply schema migrations to the configured database and exit').action(async () => {
    await (await commands()).migrateCommand();
  });

  command('worker', 'run queued jobs (and due schedules) without serving HTTP').action(async () => {
    keepsRunning = true;
    await (await commands()).workerCommand();
  });

  command('createsuperuser', 'create a superuser (fails if the user exists)')
    .addOption(new Option('--username <name>', 'user name').argParser(text).makeOptionMandatory())
    .addOption(new Option('--password <password>', 'password (asked twice, hidden, when omitted on a terminal)').argParser(text))
    .addOption(new Option('--email <email>', 'e-mail address').argParser(text))
    .action(async (options: CreateSuperuserOptions) => {
      await (await commands()).createSuperuserCommand(options);
    });

  command('createtoken', 'create an API token for a user and print its key alone on stdout')
    .addOption(new Option('--username <name>', 'the user the token belongs to').argParser(text).makeOptionMandatory())
    .addOption(new Option('--key <key>', '40 hexadecimal characters (default: random)').argParser(tokenKey))
    .addOption(new Option('--read-only', 'the token cannot write'))
    .addOption(new Option('--expires <iso8601>', 'expiry date and time').argParser(text))
    .addOption(new Option('--description <text>', 'what the token is for').argParser(text))
    .action(async (options: CreateTokenOptions) => {
      await (await commands()).createTokenCommand(options);
    });

  return netinv;
}

/** A failure in one line on stderr; a worker of `serve --workers` tells its primary instead, which says it once. */
async function fail(message: string): Promise<void> {
  if (cluster.isWorker && process.send) {
    const report: WorkerFailure = { type: 'netinv:failed', message };
    await new Promise<void>((resolve) => process.send?.(report, undefined, {}, () => resolve()));
    return;
  }
  process.stderr.write(`Error: ${message}\n`);
}

async function main(argv: string[]): Promise<number> {
  const netinv = program();
  if (argv.length === 0) {
    process.stderr.write(`Error: no command given\n\n${netinv.helpInformation()}${FOOTER.slice(1)}\n`);
    return 2;
  }
  try {
    await netinv.parseAsync(argv, { from: 'user' });
    return keepsRunning ? -1 : 0;
  } catch (err) {
    // Help and --version end with exit code 0; commander's usage errors are already written.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UsageError) {
      process.stderr.write(`Error: ${err.message}\n`);
      return 2;
    }
    const [{ CommandError, ListenError }, { ConfigError }, { DatabaseError }, { PluginError }, { DatabaseUrlError }] = await Promise.all([
      commands(),
      import('../config'),
      import('../database'),
      import('../../framework/plugins'),
      import('../../framework/store/datasource'),
    ]);
    const known = [CommandError, ConfigError, PluginError, DatabaseError, DatabaseUrlError, ListenError];
    if (known.some((cls) => err instanceof cls)) {
      await fail((err as Error).message);
      return 1;
    }
    await fail(String((err as Error)?.stack ?? err));
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exit(code);
});
