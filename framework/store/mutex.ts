/** A FIFO async lock: SQLite has one writer, so write transactions take turns. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private held = 0;

  get locked(): boolean {
    return this.held > 0;
  }

  async acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => next);
    await previous;
    this.held++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.held--;
      release();
    };
  }
}
