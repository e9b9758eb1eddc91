import type BetterSqlite3 from 'better-sqlite3';
import type { Mutex } from './mutex';
import type { QueryStats } from './query-counter';

/**
 * Group commit for SQLite's one writer connection. A COMMIT writes every page the transaction
 * dirtied to the write-ahead log, and concurrent requests dirty the same pages (the right edge of
 * each key index, the change log's): committing them one by one writes those pages once per
 * request, an eighth of a single-object write's time. So the write transactions that run in one
 * turn of the event loop share one database transaction, each in a savepoint of its own, and one
 * COMMIT at the end of the turn makes all of them durable together.
 *
 * Each transaction still succeeds or fails alone: a failure rolls back to its savepoint, leaving
 * the others' writes in place. Nobody is told of success before the COMMIT: `transaction`
 * resolves only once its group has committed, and rejects if that COMMIT fails, so a response
 * never reports a write that is not in the database.
 */
export class CommitGroups {
  private open: CommitGroup | null = null;
  private readonly begin: BetterSqlite3.Statement;
  private readonly savepoint: BetterSqlite3.Statement;
  private readonly release: BetterSqlite3.Statement;
  private readonly rollbackTo: BetterSqlite3.Statement;
  private readonly commit: BetterSqlite3.Statement;
  private readonly rollback: BetterSqlite3.Statement;

  /**
   * `turns`: the mutex write transactions take turns on (the group's COMMIT takes one too);
   * `stats`: where COMMITs are counted; `forget`: drops the local copies of caches whose tables a committed group wrote.
   */
  constructor(
    private readonly conn: BetterSqlite3.Database,
    private readonly turns: Mutex,
    private readonly stats: QueryStats,
    private readonly forget: (changed: string[]) => void,
  ) {
    this.begin = conn.prepare('BEGIN IMMEDIATE');
    this.savepoint = conn.prepare('SAVEPOINT netinv_write');
    this.release = conn.prepare('RELEASE netinv_write');
    this.rollbackTo = conn.prepare('ROLLBACK TO netinv_write');
    this.commit = conn.prepare('COMMIT');
    this.rollback = conn.prepare('ROLLBACK');
  }

  /**
   * Runs `work` in a savepoint of the current group (opening one when none is), then waits for
   * the group's COMMIT. `work` returns its result and the caches its writes changed, which are
   * forgotten once the COMMIT is done.
   */
  async run<T>(work: () => Promise<{ result: T; changed: string[] }>): Promise<T> {
    const release = await this.turns.acquire();
    let group: CommitGroup;
    let result: T;
    try {
      group = this.open ?? this.openGroup();
      this.savepoint.run();
      try {
        const done = await work();
        this.release.run();
        result = done.result;
        group.changed.push(...done.changed);
        group.members++;
      } catch (err) {
        if (this.conn.inTransaction) {
          this.rollbackTo.run();
          this.release.run();
        } else {
          // SQLite rolled the whole transaction back (disk full, I/O error): the writes of the
          // group's earlier members are gone with it, and they must hear so.
          group.lost = err;
          if (this.open === group) this.open = null;
        }
        throw err;
      }
    } finally {
      release();
    }
    await group.committed;
    return result;
  }

  /**
   * Runs a write outside any transaction (an autocommit statement): made on the read connection
   * while the writer holds a group's lock, it would wait in SQLite's busy handler, which blocks
   * the thread the group's COMMIT needs. So it waits for that COMMIT when the group only waits for
   * the end of the turn. While a transaction runs, waiting could mean waiting for the caller
   * itself (a write sent through the wrong executor from inside a transaction): such a write meets
   * SQLite's busy timeout instead, an error rather than a hang.
   */
  async outside<T>(write: () => T): Promise<T> {
    // A failed COMMIT is its members' to report; this write only needs the lock gone.
    while (this.open && !this.turns.locked) await this.open.committed.catch(() => undefined);
    return write();
  }

  private openGroup(): CommitGroup {
    this.begin.run();
    const group = new CommitGroup();
    this.open = group;
    setImmediate(() => void this.finish(group));
    return group;
  }

  private async finish(group: CommitGroup): Promise<void> {
    const release = await this.turns.acquire();
    try {
      if (this.open === group) this.open = null;
      if (group.lost !== undefined) return group.fail(group.lost);
      try {
        if (group.members === 0) this.rollback.run();
        else {
          this.commit.run();
          this.stats.commits++;
        }
      } catch (err) {
        if (this.conn.inTransaction) this.conn.exec('ROLLBACK');
        return group.fail(err);
      }
      this.forget(group.changed);
      group.succeed();
    } finally {
      release();
    }
  }
}

class CommitGroup {
  /** Caches changed by the members' writes. */
  readonly changed: string[] = [];
  /** Transactions whose writes the group holds. */
  members = 0;
  /** Why SQLite rolled the group back before its COMMIT, if it did. */
  lost: unknown = undefined;
  readonly committed: Promise<void>;
  private settle!: { resolve: () => void; reject: (err: unknown) => void };

  constructor() {
    this.committed = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    // A group whose every member failed has nobody waiting on it.
    this.committed.catch(() => undefined);
  }
  succeed(): void {
    this.settle.resolve();
  }
  fail(err: unknown): void {
    this.settle.reject(err);
  }
}
