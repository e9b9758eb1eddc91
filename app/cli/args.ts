import { InvalidArgumentError } from 'commander';

/** A command-line mistake that no option parser caught: exit 2, as commander's own errors. */
export class UsageError extends Error {}

/** A value, not empty and not the next option (`--username --password x` leaves --username without one). */
export function text(value: string): string {
  if (value === '') throw new InvalidArgumentError('must not be empty.');
  if (value.startsWith('--')) throw new InvalidArgumentError('needs a value, not another option.');
  return value;
}

export function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('must be an integer from 0 to 65535.');
  return Number(value);
}

export function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a positive integer.');
  return Number(value);
}

export function tokenKey(value: string): string {
  if (!/^[0-9a-fA-F]{40}$/.test(value)) throw new InvalidArgumentError('must be 40 hexadecimal characters.');
  return value.toLowerCase();
}
