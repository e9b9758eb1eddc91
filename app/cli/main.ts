#!/usr/bin/env node
import 'reflect-metadata';
import { ConfigError } from '../config';
import { PluginError } from '../../framework/plugins';
import { onlyKnown, parseArgs, UsageError } from './args';
import { CommandError, createSuperuserCommand, createTokenCommand, migrateCommand, serveCommand, workerCommand } from './commands';

const HELP = `Usage: netinv <command> [options]

Commands:
  serve [--workers N] [--port P] [--host H]
                         apply migrations and serve the API (default http://127.0.0.1:8080/api/)
  migrate                apply schema migrations to the configured database and exit
  worker                 run queued jobs (and due schedules) without serving HTTP
  createsuperuser --username U --password P [--email E]
                         create a superuser (fails if the user exists)
  createtoken --username U [--key K] [--read-only] [--expires ISO8601] [--description D]
                         create an API token for U and print its key

Configuration comes from the environment (DATABASE_URL, PORT, HOST, NETINV_*, NETINV_PLUGINS);
see README.md.
`;

const BOOLEANS = new Set(['help', 'read-only']);

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs(argv, BOOLEANS);
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (args.options.has('help') || args.command === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  try {
    switch (args.command) {
      case 'serve':
        onlyKnown(args, ['workers', 'port', 'host']);
        await serveCommand(args);
        return -1; // keeps running
      case 'worker':
        onlyKnown(args, []);
        await workerCommand();
        return -1; // keeps running
      case 'migrate':
        onlyKnown(args, []);
        await migrateCommand();
        return 0;
      case 'createsuperuser':
        onlyKnown(args, ['username', 'password', 'email']);
        await createSuperuserCommand(args);
        return 0;
      case 'createtoken':
        onlyKnown(args, ['username', 'key', 'read-only', 'expires', 'description']);
        await createTokenCommand(args);
        return 0;
      case undefined:
        process.stderr.write(`Error: no command given\n\n${HELP}`);
        return 2;
      default:
        process.stderr.write(`Error: unknown command ${args.command}\n\n${HELP}`);
        return 2;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`Error: ${err.message}\n\n${HELP}`);
      return 2;
    }
    if (err instanceof CommandError || err instanceof ConfigError || err instanceof PluginError) {
      process.stderr.write(`Error: ${err.message}\n`);
      return 1;
    }
    process.stderr.write(`Error: ${(err as Error).stack ?? err}\n`);
    return 1;
  }
}

main(process.argv.slice(2)).then((code) => {
  if (code >= 0) process.exit(code);
});
