/**
 * Keeps the query planner's statistics current after bulk writes. PostgreSQL's autovacuum
 * analyzes a table only on its next round (a minute later by default) and MariaDB recalculates
 * on its own thresholds: until then a table loaded with 50,000 rows is planned as if it held a
 * few, with bitmap scans and whole-table sorts. So each table that received at least `threshold`
 * rows is analyzed shortly after, outside any request's transaction, once per burst of writes.
 * On PostgreSQL the table is vacuumed too: a freshly loaded table has no visibility map, so
 * counts and id lists could not be answered from its indexes alone.
 */
export class TableStatistics {
  private readonly inserted = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private queue: Promise<void> = Promise.resolve();
  /** Where a failed ANALYZE is reported (the app points it at its log). */
  onError: (err: unknown, table: string) => void = (err, table) => process.emitWarning(`ANALYZE of ${table} failed: ${String(err)}`);

  constructor(
    private readonly analyze: (table: string) => Promise<void>,
    readonly threshold = 1000,
    private readonly delayMs = 1000,
  ) {}

  /**
   * Counts rows written to `table`. The ANALYZE is scheduled by `committed()`: run while the
   * writing transaction is still open, it would not see the rows.
   */
  noteInserted(table: string, rows: number): void {
    this.inserted.set(table, (this.inserted.get(table) ?? 0) + rows);
  }

  /** A transaction committed (or an autocommit write ran): tables past the threshold are due. */
  committed(): void {
    for (const [table, total] of this.inserted) {
      if (total < this.threshold || this.timers.has(table)) continue;
      // A little later, so that a burst of transactions costs one ANALYZE.
      const timer = setTimeout(() => {
        this.timers.delete(table);
        this.enqueue(table);
      }, this.delayMs);
      timer.unref();
      this.timers.set(table, timer);
    }
  }

  /** Analyzes now every table written since its last ANALYZE (a bulk load before it exits). */
  async flush(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const table of [...this.inserted.keys()]) this.enqueue(table);
    await this.queue;
  }

  /** One ANALYZE at a time: they run beside the requests and need not compete with each other. */
  private enqueue(table: string): void {
    this.inserted.delete(table);
    this.queue = this.queue.then(() => this.analyze(table)).catch((err: unknown) => this.onError(err, table));
  }
}
