import { limitClause } from './dialect/types';
import type { ModelMeta } from '../metadata/model-meta';
import type { Values } from '../metadata/types';
import type { Predicate } from '../query/predicate';
import type { Id } from '../query/id';
import { compilePredicate } from './compile-predicate';
import type { Database } from './executor';
import { Params } from './params';
import { Store } from './store';

/** Which rows of a queue table are claimable, in which order, and what a claim writes. */
export interface ClaimSpec {
  /** Rows ready to be taken (state and due time). */
  ready: Predicate;
  /** Column order of the claim, oldest first (a field name). */
  orderBy: string;
  /** At most this many rows per claim. */
  limit: number;
  /** Attributes a row must still have to be taken (its state), checked by the conditional update. */
  expect: Values;
  /** What the claim writes: the new state, the lease, the claiming worker. */
  set: Values;
}

/**
 * Takes ready rows of a queue table for one worker, at least once and never by two workers at the
 * same time: the rows are read with FOR UPDATE SKIP LOCKED where the database has it (PostgreSQL,
 * MySQL/MariaDB: concurrent claimers pass over each other's rows instead of waiting), and each is
 * taken by an UPDATE conditional on its state, which alone decides on SQLite (one writer).
 */
export async function claimRows(db: Database, model: ModelMeta, spec: ClaimSpec): Promise<Id[]> {
  return db.transaction(async (tx) => {
    const q = tx.dialect.quote;
    const params = new Params(tx.dialect);
    const where = compilePredicate(spec.ready, model, 't0', params);
    const order = model.field(spec.orderBy)?.column ?? spec.orderBy;
    const pk = `${q('t0')}.${q(model.pk.column as string)}`;
    const rows = await tx.rows(
      `SELECT ${pk} FROM ${q(model.table)} ${q('t0')} WHERE ${where} ORDER BY ${q('t0')}.${q(order)}, ${pk} ${limitClause(tx.dialect, params.add(spec.limit))}${tx.dialect.forUpdateSkipLocked}`,
      params.values,
    );
    const store = new Store(tx);
    const claimed: Id[] = [];
    for (const [id] of rows) {
      if ((await store.updateWhere(model, { ...spec.expect, id }, spec.set)) === 1) claimed.push(id as Id);
    }
    return claimed;
  });
}
