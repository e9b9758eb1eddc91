import type { Executor } from '../store/executor';
import { Store } from '../store/store';
import { NotFound, PermissionDenied, ProtectedError, ValidationError, WriteConflict } from '../errors';
import { DEADLOCK_ATTEMPTS, pauseAfterDeadlock } from '../store/deadlocks';
import type { ForeignKeyViolation } from '../store/dialect/types';
import { pyTypeName } from '../fields/common';
import { parseId } from '../fields/foreign-key';
import { and, fieldTest, type Predicate } from '../query/predicate';
import type { RequestContext } from '../http/context';
import type { Reply } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import type { Json } from '../metadata/types';
import type { Id } from '../query/id';

import type { Actor, Values } from '../serializer/write-context';
import {
  expectObject,
  insertObjects,
  parseObject,
  saveObject,
  uniqueMessage,
  uniqueViolationError,
  validateObject,
  type WriteScope,
} from '../serializer/writer';
import { deleteObjects, protectingDependents } from '../serializer/writer';
import { renderByIds, renderTagged, renderWritten, visible, wantsBrief } from './read';
import { checkIfMatch, entityTag } from './etag';
import type { LockedObject } from '../store/objects';

function actorOf(ctx: RequestContext): Actor | null {
  return ctx.user ? { id: ctx.user.id, username: ctx.user.username, isSuperuser: ctx.user.isSuperuser } : null;
}

function scopeOf(ctx: RequestContext, tx: Executor): WriteScope {
  return {
    tx,
    registry: ctx.registry,
    version: ctx.version as NonNullable<RequestContext['version']>,
    actor: actorOf(ctx),
    features: ctx.features,
    requestId: ctx.changeId,
    listeners: ctx.listeners,
    maxJsonDepth: ctx.config.maxJsonDepth,
    viewable: (model) => ctx.viewable(model),
  };
}

/** Attempts of a write whose foreign keys a racing transaction broke: each new one sees what that transaction committed. */
const FOREIGN_KEY_ATTEMPTS = 3;

export interface TransactionOptions {
  /**
   * The write reads everything it checks inside `fn`, so it may run again when the database
   * refuses a foreign key a racing transaction broke: the new attempt gives the unraced answer
   * (a delete's 409 naming its dependents, a write's 400 for a related object that is gone).
   */
  rerun?: boolean;
  /** The ids a delete removes, for the 409 when the race outlasts the attempts. */
  deleting?: Id[];
}

/**
 * Runs a write in one transaction; a unique violation raised by the database becomes a 400, a
 * foreign-key violation (a race with another transaction) a 409 for a delete and a 400 for a write.
 * Write listeners (change log, webhooks) finish their work inside it and hear of the commit.
 */
export async function inTransaction<T>(ctx: RequestContext, model: ModelMeta, fn: (tx: Executor) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  for (let attempt = 1, deadlocks = 0; ; attempt++) {
    try {
      return await transactionOnce(ctx, model, fn);
    } catch (err) {
      // A deadlock's victim was rolled back whole; everything `fn` acts on it reads inside, so it
      // runs again (see store/deadlocks.ts).
      if (ctx.db.dialect.isDeadlock(err)) {
        if (++deadlocks >= DEADLOCK_ATTEMPTS) throw new WriteConflict();
        await pauseAfterDeadlock(deadlocks);
        continue;
      }
      const violation = ctx.db.dialect.foreignKeyViolation(err);
      if (!violation) throw err;
      if (options.rerun && attempt < FOREIGN_KEY_ATTEMPTS) continue;
      throw await foreignKeyError(ctx, model, violation, options.deleting ?? []);
    }
  }
}

/** The client's answer to a foreign-key violation the writer's own checks could not foresee. */
async function foreignKeyError(ctx: RequestContext, model: ModelMeta, violation: ForeignKeyViolation, deleting: Id[]): Promise<Error> {
  if (violation.referenced) return new ProtectedError(await protectingDependents(ctx.db.reader, model, deleting));
  const field = violation.table === model.table ? model.fields.find((f) => f.column && violation.columns?.includes(f.column)) : undefined;
  const message = 'Related object not found: it was deleted while this request ran.';
  return field ? ValidationError.field(field.name, message) : ValidationError.nonField(message);
}

async function transactionOnce<T>(ctx: RequestContext, model: ModelMeta, fn: (tx: Executor) => Promise<T>): Promise<T> {
  const listeners = ctx.listeners;
  let scope: WriteScope | null = null;
  try {
    const result = await ctx.db.transaction(async (tx) => {
      scope = scopeOf(ctx, tx);
      const out = await fn(tx);
      for (const listener of listeners) await listener.committing?.(scope);
      return out;
    });
    for (const listener of listeners) {
      try {
        listener.committed?.(scope as unknown as WriteScope);
      } catch (err) {
        ctx.logger.error('after-commit listener failed', { error: err });
      }
    }
    return result;
  } catch (err) {
    if (scope) for (const listener of listeners) listener.rolledBack?.(scope);
    const violation = ctx.db.dialect.uniqueViolation(err);
    if (violation) {
      const mapped = uniqueViolationError(model, violation.columns, violation.constraint);
      throw mapped ?? ValidationError.nonField('The object conflicts with an existing one.');
    }
    throw err;
  }
}

/** Objects written must satisfy the caller's constraints for the action, else 403 and rollback. */
async function ensurePermitted(tx: Executor, model: ModelMeta, ids: Id[], restrict: Predicate): Promise<void> {
  if (restrict.kind === 'const' && restrict.value) return;
  const permitted = await new Store(tx).count(model, and([restrict, fieldTest(model.pk, 'exact', ids)]));
  if (permitted !== new Set(ids).size) throw new PermissionDenied();
}

/** Values within one bulk create that would collide with each other (rather than a 500). */
function duplicateWithinBatch(model: ModelMeta, all: Values[]): Array<Record<string, string[]>> {
  const sets = [...model.fields.filter((f) => f.options.unique && f.column).map((f) => [f.name]), ...(model.options.uniqueTogether ?? [])];
  const errors: Array<Record<string, string[]>> = all.map(() => ({}));
  for (const set of sets) {
    const seen = new Set<string>();
    all.forEach((values, i) => {
      if (set.some((n) => values[n] === null || values[n] === undefined)) return;
      const key = JSON.stringify(set.map((n) => values[n]));
      if (seen.has(key)) {
        const [field, message] = uniqueMessage(model, set);
        (errors[i][field] ??= []).push(message);
      }
      seen.add(key);
    });
  }
  return errors;
}

export async function createView(ctx: RequestContext, model: ModelMeta, body: unknown, restrict: Predicate): Promise<Reply> {
  const many = Array.isArray(body);
  const items = many ? (body as unknown[]) : [body];
  const ids = await inTransaction(ctx, model, (tx) => createObjects(ctx, tx, model, items, many, restrict), { rerun: true });
  const db = ctx.db.reader;
  const brief = wantsBrief(ctx, model);
  if (many) return { status: 201, body: await renderInOrder(ctx, model, ids, brief) };
  const { body: obj, etag } = await renderTagged(ctx, model, ids[0], db, brief);
  return { status: 201, body: obj, headers: { Location: String(obj.url ?? ''), ETag: etag } };
}

/** Rendered objects in the order of `ids` (bulk creates answer in request order). */
export function renderInOrder(ctx: RequestContext, model: ModelMeta, ids: Id[], brief = false): Promise<Json[]> {
  return renderWritten(ctx, model, ids, ctx.db.reader, brief);
}

/**
 * Creates objects inside the caller's transaction: every item validated first (errors aligned
 * with the items when `many`), then saved, then checked against the caller's constraints.
 */
export async function createObjects(ctx: RequestContext, tx: Executor, model: ModelMeta, items: unknown[], many: boolean, restrict: Predicate): Promise<Id[]> {
  const scope = scopeOf(ctx, tx);
  const prepared: Array<{ values: Values; wc: Awaited<ReturnType<typeof parseObject>>['wc'] }> = [];
  const errors: Array<Record<string, unknown>> = [];
  let failed = false;
  for (const item of items) {
    try {
      const parsed = await parseObject(model, item, scope, null, false);
      await validateObject(model, parsed.values, parsed.wc);
      prepared.push(parsed);
      errors.push({});
    } catch (err) {
      if (!(err instanceof ValidationError) || !many) throw err;
      failed = true;
      errors.push(Array.isArray(err.detail) ? { non_field_errors: err.detail } : (err.detail as Record<string, unknown>));
    }
  }
  if (!failed && many) {
    const dup = duplicateWithinBatch(model, prepared.map((p) => p.values));
    if (dup.some((e) => Object.keys(e).length)) throw new ValidationError(dup);
  }
  if (failed) throw new ValidationError(errors);
  let created: Id[] = [];
  if (many && insertsInBulk(model)) {
    await insertObjects(model, prepared.map((p) => p.values), scope);
    created = prepared.map((p) => p.values.id as Id);
  } else {
    for (const p of prepared) created.push(await saveObject(model, p.values, p.wc));
  }
  await ensurePermitted(tx, model, created, restrict);
  return created;
}

/**
 * Whether a bulk create may write its rows in multi-row INSERTs: no save hook may need each
 * object as it is saved, and the rows carry their own (UUID) keys. Write listeners hear of each
 * object after the inserts, still in the transaction.
 */
function insertsInBulk(model: ModelMeta): boolean {
  return !model.integerPk && !model.hook('beforeSave') && !model.hook('afterSave');
}

/**
 * The stored objects the caller may change, their rows locked until the transaction ends: the
 * first read of an update or delete, so that what it validates and writes starts from the last
 * committed state and concurrent writers of one object take turns.
 */
export async function loadPermitted(ctx: RequestContext, model: ModelMeta, tx: Executor, ids: Id[], restrict: Predicate): Promise<LockedObject[]> {
  return new Store(tx).findForUpdate(model, and([visible(ctx, model, restrict), fieldTest(model.pk, 'exact', ids)]));
}

/** The object the caller may change, locked, that If-Match (if sent) allows to change; else 404 or 412. */
async function loadForChange(ctx: RequestContext, model: ModelMeta, tx: Executor, id: Id, restrict: Predicate): Promise<Values> {
  const [locked] = await loadPermitted(ctx, model, tx, [id], restrict);
  if (!locked) throw new NotFound();
  checkIfMatch(ctx, entityTag(locked.values.id as Id, locked.version));
  return locked.values;
}

export async function updateView(ctx: RequestContext, model: ModelMeta, id: Id, body: unknown, partial: boolean, restrict: Predicate): Promise<Reply> {
  if (Array.isArray(body)) throw ValidationError.nonField('Invalid data. Expected a dictionary, but got list.');
  await inTransaction(ctx, model, async (tx) => {
    const current = await loadForChange(ctx, model, tx, id, restrict);
    const { values, wc } = await parseObject(model, body, scopeOf(ctx, tx), current, partial);
    await validateObject(model, values, wc);
    await saveObject(model, values, wc);
    await ensurePermitted(tx, model, [id], restrict);
  }, { rerun: true });
  const { body: obj, etag } = await renderTagged(ctx, model, id, ctx.db.reader, wantsBrief(ctx, model));
  return { status: 200, body: obj, headers: { ETag: etag } };
}

/** Shape check of a bulk body: an array of objects each carrying a valid id (array-aligned errors). */
function bulkIds(model: ModelMeta, body: unknown): Id[] {
  if (!Array.isArray(body)) throw ValidationError.nonField(`Expected a list of items but got type "${pyTypeName(body)}".`);
  const errors: Array<Record<string, string[]>> = [];
  const ids: Id[] = [];
  let failed = false;
  for (const item of body) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      errors.push({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${pyTypeName(item)}.`] });
      failed = true;
      continue;
    }
    const raw = (item as Record<string, unknown>).id;
    if (raw === undefined || raw === null || raw === '') {
      errors.push({ id: ['This field is required.'] });
      failed = true;
      continue;
    }
    const id = parseId(model, raw);
    if (id === null) {
      errors.push({ id: [model.integerPk ? 'A valid integer is required.' : 'Must be a valid UUID.'] });
      failed = true;
      continue;
    }
    errors.push({});
    ids.push(id);
  }
  if (failed) throw new ValidationError(errors);
  return ids;
}

export async function bulkUpdateView(ctx: RequestContext, model: ModelMeta, body: unknown, partial: boolean, restrict: Predicate): Promise<Reply> {
  const ids = bulkIds(model, body);
  const items = new Map<Id, unknown>();
  (body as Array<Record<string, unknown>>).forEach((item, i) => items.set(ids[i], item));
  const updated = await inTransaction(ctx, model, async (tx) => {
    const scope = scopeOf(ctx, tx);
    const rows = await loadPermitted(ctx, model, tx, [...items.keys()], restrict);
    const done: Id[] = [];
    for (const { values: current } of rows) {
      const id = current.id as Id;
      const { values, wc } = await parseObject(model, items.get(id), scope, current, partial);
      await validateObject(model, values, wc);
      await saveObject(model, values, wc);
      done.push(id);
    }
    await ensurePermitted(tx, model, done, restrict);
    return done;
  }, { rerun: true });
  return { status: 200, body: await renderByIds(ctx, model, updated, ctx.db.reader, wantsBrief(ctx, model)) };
}

export async function destroyView(ctx: RequestContext, model: ModelMeta, id: Id, restrict: Predicate): Promise<Reply> {
  await inTransaction(ctx, model, async (tx) => {
    await loadForChange(ctx, model, tx, id, restrict);
    await deleteObjects(model, [id], scopeOf(ctx, tx));
  }, { rerun: true, deleting: [id] });
  return { status: 204 };
}

export async function bulkDestroyView(ctx: RequestContext, model: ModelMeta, body: unknown, restrict: Predicate): Promise<Reply> {
  const ids = bulkIds(model, body);
  await inTransaction(ctx, model, async (tx) => {
    const rows = await loadPermitted(ctx, model, tx, ids, restrict);
    await deleteObjects(model, rows.map((r) => r.values.id as Id), scopeOf(ctx, tx));
  }, { rerun: true, deleting: ids });
  return { status: 204 };
}

export { expectObject };
