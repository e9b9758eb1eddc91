/** What a Progress writes to: process.stderr, or any stream with write (and isTTY when a terminal). */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProgressOptions {
  /** Names the work in plain lines, e.g. `migrations`. */
  title: string;
  stream?: ProgressStream;
  /** Width of the bar drawn on a terminal. */
  width?: number;
}

/**
 * Progress of long command-line work on stderr. On a terminal a one-line bar redrawn in place
 * (at most every 100 ms); otherwise (a pipe, a file, a CI log) plain lines: one for each new label
 * and one at each further tenth of the total, so that logs stay short and readable.
 */
export class Progress {
  private done = 0;
  private lastDraw = 0;
  private drawn = false;
  private readonly labels = new Set<string>();
  private lastTenth = 0;
  private readonly started = Date.now();
  private readonly stream: ProgressStream;
  private readonly tty: boolean;
  private readonly title: string;
  private readonly width: number;

  constructor(private readonly total: number, options: ProgressOptions) {
    this.stream = options.stream ?? process.stderr;
    this.tty = this.stream.isTTY === true;
    this.title = options.title;
    this.width = options.width ?? 30;
  }

  advance(count: number, label: string): void {
    this.done += count;
    const now = Date.now();
    const share = this.total > 0 ? Math.min(1, this.done / this.total) : 1;
    const seconds = ((now - this.started) / 1000).toFixed(1);
    if (this.tty) {
      if (now - this.lastDraw < 100 && this.done < this.total) return;
      this.lastDraw = now;
      this.drawn = true;
      const filled = Math.round(share * this.width);
      const bar = '#'.repeat(filled) + '.'.repeat(this.width - filled);
      this.stream.write(`\r[${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${seconds}s ${label.padEnd(24)}`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (this.labels.has(label) && tenth <= this.lastTenth) return;
    this.labels.add(label);
    this.lastTenth = tenth;
    this.stream.write(`${this.title}: ${this.done}/${this.total} ${label} (${seconds}s)\n`);
  }

  /** Ends the bar's line (on a terminal) and returns the seconds since the start. */
  finish(): number {
    if (this.tty && this.drawn) this.stream.write('\n');
    return (Date.now() - this.started) / 1000;
  }
}
