/** A one-line progress bar on stderr, redrawn at most every 100 ms. */
export class Progress {
  private done = 0;
  private lastDraw = 0;
  private readonly started = Date.now();

  constructor(private readonly total: number, private readonly width = 30) {}

  advance(count: number, label: string): void {
    this.done += count;
    const now = Date.now();
    if (now - this.lastDraw < 100 && this.done < this.total) return;
    this.lastDraw = now;
    const share = Math.min(1, this.done / this.total);
    const filled = Math.round(share * this.width);
    const bar = '#'.repeat(filled) + '.'.repeat(this.width - filled);
    const seconds = ((now - this.started) / 1000).toFixed(1);
    process.stderr.write(`\r[${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${seconds}s ${label.padEnd(24)}`);
  }

  finish(): number {
    process.stderr.write('\n');
    return (Date.now() - this.started) / 1000;
  }
}
