import pino, { type DestinationStream, type Logger as Pino } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
/** `json`: one JSON object per line; `text`: one readable line per event. */
export type LogFormat = 'json' | 'text';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'text'];

/**
 * The process's log (pino): every event on stderr, at NETINV_LOG_LEVEL and above, as JSON or text
 * (NETINV_LOG_FORMAT). Events carry a message and fields; an Error given as `error` is written as
 * its stack, its causes' stacks after it.
 */
export class Logger {
  private out: Pino;

  constructor(level: LogLevel = 'info', format: LogFormat = 'text') {
    this.out = pino(
      {
        level,
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        serializers: { error: errorText },
      },
      format === 'json' ? jsonStream : textStream,
    );
  }

  get level(): LogLevel {
    return this.out.level as LogLevel;
  }

  /** Whether events at `level` are written (work done only for them can be skipped). */
  logs(level: Exclude<LogLevel, 'silent'>): boolean {
    return this.out.isLevelEnabled(level);
  }

  /** A logger adding `bindings` to each of its events (a request's id…). */
  child(bindings: Record<string, unknown>): Logger {
    const child = Object.create(Logger.prototype) as Logger;
    child.out = this.out.child(bindings);
    return child;
  }

  debug(msg: string, data?: Record<string, unknown>): void {
    this.out.debug(data ?? {}, msg);
  }
  info(msg: string, data?: Record<string, unknown>): void {
    this.out.info(data ?? {}, msg);
  }
  warn(msg: string, data?: Record<string, unknown>): void {
    this.out.warn(data ?? {}, msg);
  }
  error(msg: string, data?: Record<string, unknown>): void {
    this.out.error(data ?? {}, msg);
  }
}

type ErrorLike = { name?: string; message: string; stack?: string; cause?: unknown };

/**
 * Errors are recognised by their shape, not by `instanceof Error`: a native driver keeps the
 * error class of the realm that first loaded it (a test sandbox), so its errors may come from
 * another realm's Error.
 */
function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string' && (typeof (value as ErrorLike).stack === 'string' || typeof (value as ErrorLike).name === 'string');
}

/** An error's stack, then each cause's (a few levels deep); other values as they are. */
function errorText(value: unknown): unknown {
  if (!isErrorLike(value)) return value;
  const lines = [value.stack ?? `${value.name}: ${value.message}`];
  let cause = value.cause;
  for (let depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
    lines.push(`caused by: ${isErrorLike(cause) ? cause.stack ?? `${cause.name}: ${cause.message}` : String(cause)}`);
    cause = isErrorLike(cause) ? cause.cause : undefined;
  }
  return lines.join('\n');
}

// process.stderr is looked up at each write, so that whoever replaces it (tests) sees the lines.
const jsonStream: DestinationStream = {
  write(line: string) {
    process.stderr.write(line);
  },
};

const textStream: DestinationStream = {
  write(line: string) {
    process.stderr.write(textLine(line));
  },
};

const OMITTED = new Set(['time', 'level', 'msg', 'pid']);
const REQUEST_FIELDS = ['method', 'path', 'status', 'duration_ms'];

/**
 * One JSON event as text: `<time> <LEVEL> <message> key=value…`; a request reads
 * `GET /api/dcim/sites/ 200 3.1ms user=admin request_id=…`. Values with several lines (stacks)
 * follow on lines of their own, indented.
 */
export function textLine(json: string): string {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = String(event.level ?? '').toUpperCase().padEnd(5);
  const isRequest = event.msg === 'request' && REQUEST_FIELDS.every((k) => k in event);
  const head = isRequest ? `${String(event.method)} ${String(event.path)} ${String(event.status)} ${String(event.duration_ms)}ms` : String(event.msg ?? '');
  const inline: string[] = [];
  const blocks: string[] = [];
  for (const [key, value] of Object.entries(event)) {
    if (OMITTED.has(key) || (isRequest && REQUEST_FIELDS.includes(key))) continue;
    if (typeof value === 'string' && value.includes('\n')) blocks.push(value.replace(/^/gm, '    '));
    else inline.push(`${key}=${textValue(value)}`);
  }
  return `${[String(event.time ?? ''), level, head, ...inline].join(' ')}\n${blocks.map((b) => `${b}\n`).join('')}`;
}

function textValue(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value);
}
