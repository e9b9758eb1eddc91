import type { Dialect } from './dialect/types';

/**
 * PostgreSQL and InnoDB break a deadlock by rolling one of its transactions back whole; the
 * application's part is to run that transaction again (InnoDB's manual: "always be prepared to
 * re-issue a transaction if it fails due to a deadlock"). A transaction that reads everything it
 * acts on inside itself may: the new attempt starts from what the winner committed.
 */

/** Attempts of a transaction the database keeps choosing as a deadlock's victim. */
export const DEADLOCK_ATTEMPTS = 5;
const FIRST_PAUSE_MS = 10;

/** The pause before attempt `failed + 1`: growing, and jittered so that two victims do not meet again. */
export function pauseAfterDeadlock(failed: number): Promise<void> {
  const ms = FIRST_PAUSE_MS * failed * (1 + Math.random());
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `transaction` again while the database rolls it back as a deadlock's victim, up to DEADLOCK_ATTEMPTS times. */
export async function retryingDeadlocks<T>(dialect: Dialect, transaction: () => Promise<T>): Promise<T> {
  for (let failed = 0; ; ) {
    try {
      return await transaction();
    } catch (err) {
      if (!dialect.isDeadlock(err) || ++failed >= DEADLOCK_ATTEMPTS) throw err;
      await pauseAfterDeadlock(failed);
    }
  }
}
