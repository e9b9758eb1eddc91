export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** One JSON line per event on stderr, filtered by NETINV_LOG_LEVEL. */
export class Logger {
  constructor(readonly level: LogLevel = 'info', private readonly bindings: Record<string, unknown> = {}) {}
  child(bindings: Record<string, unknown>): Logger {
    return new Logger(this.level, { ...this.bindings, ...bindings });
  }
  private write(level: LogLevel, msg: string, data?: Record<string, unknown>): void {
    if (ORDER[level] < ORDER[this.level]) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...this.bindings, ...data })}\n`);
  }
  debug(msg: string, data?: Record<string, unknown>): void {
    this.write('debug', msg, data);
  }
  info(msg: string, data?: Record<string, unknown>): void {
    this.write('info', msg, data);
  }
  warn(msg: string, data?: Record<string, unknown>): void {
    this.write('warn', msg, data);
  }
  error(msg: string, data?: Record<string, unknown>): void {
    this.write('error', msg, data);
  }
}
