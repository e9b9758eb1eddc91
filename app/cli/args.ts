export class UsageError extends Error {}

export interface ParsedArgs {
  command: string | undefined;
  options: Map<string, string | true>;
}

/** `--name value`, `--name=value` and bare `--flag`; flags listed in `booleans` never take a value. */
export function parseArgs(argv: string[], booleans: ReadonlySet<string>): ParsedArgs {
  const options = new Map<string, string | true>();
  let command: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
      if (eq > 0) options.set(name, arg.slice(eq + 1));
      else if (booleans.has(name)) options.set(name, true);
      else {
        const value = argv[i + 1];
        if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
        options.set(name, value);
        i++;
      }
    } else if (arg === '-h') options.set('help', true);
    else if (command === undefined) command = arg;
    else throw new UsageError(`unexpected argument: ${arg}`);
  }
  return { command, options };
}

export function requireOption(args: ParsedArgs, name: string): string {
  const v = args.options.get(name);
  if (v === undefined || v === true || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

export function optional(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  return v === true ? undefined : v;
}

export function onlyKnown(args: ParsedArgs, known: string[]): void {
  for (const name of args.options.keys()) if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
}
