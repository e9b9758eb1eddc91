import { newRowId } from './row-ids';
import type { KindStore } from '../fields/kind';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { ModelClass, Values } from '../metadata/types';
import { ormFilter } from '../query/orm';
import type { Id } from '../query/id';
import { and, fieldTest, isPredicate, not, type Predicate } from '../query/predicate';
import type { Database, Executor } from './executor';
import { kindQueries, type KindQueries } from './kind-store';
import { findFieldValues, findLocked, findValues, rowOf, type LockedObject } from './objects';
import { countRows, deleteRows, insertRow, insertRowBatches, lockRow, selectIds, selectPaths, updateRows, updateRowsWhere, type RowSelection } from './rows';

/** A model by class (model and plugin code) or by its metadata (framework code). */
export type ModelRef = ModelClass | ModelMeta;

/**
 * Which objects: a Django-style attribute dictionary (`{ vrf: id, prefix__net_equals: '10.0.0.0/8' }`),
 * a predicate, or a list of primary keys.
 */
export type Where = Record<string, unknown> | Predicate | readonly Id[];

/**
 * The one way to read and write objects of any model, bound to a connection or a transaction.
 * Reads return stored values (what field kinds load); writes here are server-owned state and run
 * no validation, hooks or listeners: API writes go through the serializer's writer, which builds
 * on the same store. Field kinds see it through the narrow KindStore port.
 */
export class Store implements KindStore {
  private readonly kinds: KindQueries;

  /** Without a registry, models are named by their metadata only. */
  constructor(
    readonly db: Executor,
    readonly registry: Registry | null = null,
  ) {
    this.kinds = kindQueries(db);
  }

  /** Metadata of a model given by class or metadata. */
  model(ref: ModelRef): ModelMeta {
    if (typeof ref !== 'function') return ref;
    if (!this.registry) throw new Error(`Store.model: ${ref.name} named by class on a store without a registry`);
    return this.registry.forClass(ref);
  }

  /** The selection a `Where` stands for on `model`. */
  selection(model: ModelMeta, where: Where, exceptId?: Id): RowSelection {
    let selection: RowSelection = Array.isArray(where) ? (where as readonly Id[]) : isPredicate(where) ? where : ormFilter(model, where as Record<string, unknown>);
    if (exceptId !== undefined) {
      const base = Array.isArray(selection) ? fieldTest(model.pk, 'exact', [...(selection as readonly Id[])]) : (selection as Predicate);
      selection = and([base, not(fieldTest(model.pk, 'exact', [exceptId]))]);
    }
    return selection;
  }

  /** Stored values of the matching objects, in primary-key order. */
  find(ref: ModelRef, where: Where = {}): Promise<Values[]> {
    const model = this.model(ref);
    return findValues(this.db, model, this.selection(model, where));
  }

  /** Stored values of the named fields (and the primary key) of the matching objects, in primary-key order. */
  findFields(ref: ModelRef, where: Where, names: readonly string[]): Promise<Values[]> {
    const model = this.model(ref);
    return findFieldValues(this.db, model, this.selection(model, where), names);
  }

  /**
   * Stored values and row versions of the matching objects, in primary-key order, their rows
   * locked until the transaction ends and read as last committed: the state an update or delete
   * starts from, so that concurrent writers of one object take turns instead of overwriting each
   * other, and a version compared in the same transaction (If-Match) cannot change before the write.
   */
  findForUpdate(ref: ModelRef, where: Where): Promise<LockedObject[]> {
    const model = this.model(ref);
    return findLocked(this.db, model, this.selection(model, where));
  }

  /** Stored values of one object, or null when there is none. */
  async get(ref: ModelRef, id: Id): Promise<Values | null> {
    const [values] = await findValues(this.db, this.model(ref), [id], false);
    return values ?? null;
  }

  /** Number of matching objects, one object (`exceptId`) left out. */
  count(ref: ModelRef, where: Where = {}, options: { exceptId?: Id } = {}): Promise<number> {
    const model = this.model(ref);
    return countRows(this.db, model, this.selection(model, where, options.exceptId));
  }

  /** Whether any object matches. */
  async exists(ref: ModelRef, where: Where): Promise<boolean> {
    const model = this.model(ref);
    return (await selectIds(this.db, model, this.selection(model, where), 1)).length > 0;
  }

  /** Primary keys of the matching objects (at most `limit`), in no particular order. */
  ids(ref: ModelRef, where: Where, limit?: number): Promise<Id[]> {
    const model = this.model(ref);
    return selectIds(this.db, model, this.selection(model, where), limit);
  }

  /**
   * Stored column values (as the database returns them) along foreign-key paths (`user.username`),
   * one statement with the joins the paths need: for hot paths such as authentication.
   */
  pluck(ref: ModelRef, where: Where, paths: readonly string[]): Promise<Array<Record<string, unknown>>> {
    const model = this.model(ref);
    const selection = this.selection(model, where);
    return selectPaths(this.db, model, Array.isArray(selection) ? fieldTest(model.pk, 'exact', [...(selection as readonly Id[])]) : (selection as Predicate), paths);
  }

  /** Inserts server-owned state (no validation or hooks); returns the new id. */
  async insert(ref: ModelRef, values: Values): Promise<Id> {
    const model = this.model(ref);
    const full: Values = model.integerPk ? { ...values } : { id: newRowId(), ...values };
    const row = rowOf(model, full);
    if (model.integerPk) delete row[model.pk.column as string];
    const numbered = await insertRow(this.db, model, row);
    return numbered ?? (full.id as Id);
  }

  /** Inserts many objects of server-owned state in few statements; every object sets the same fields. */
  insertMany(ref: ModelRef, objects: readonly Values[]): Promise<void> {
    const model = this.model(ref);
    return insertRowBatches(this.db, model, objects.map((values) => rowOf(model, values)));
  }

  /** Writes some fields of stored objects directly, without validation or hooks. */
  async update(ref: ModelRef, ids: Id | readonly Id[], values: Values): Promise<number> {
    const model = this.model(ref);
    return updateRows(this.db, model, Array.isArray(ids) ? ids : [ids as Id], rowOf(model, values));
  }

  /**
   * Writes fields of the objects matching `where` in one statement, only while they still match
   * (a compare-and-set between processes); returns how many changed.
   */
  async updateWhere(ref: ModelRef, where: Where, values: Values): Promise<number> {
    const model = this.model(ref);
    const selection = this.selection(model, where);
    const predicate = Array.isArray(selection) ? fieldTest(model.pk, 'exact', [...(selection as readonly Id[])]) : (selection as Predicate);
    return updateRowsWhere(this.db, model, predicate, rowOf(model, values));
  }

  /** Deletes matching objects directly (server-owned state: no protection checks or hooks). */
  async delete(ref: ModelRef, where: Where): Promise<number> {
    const model = this.model(ref);
    const ids = Array.isArray(where) ? (where as readonly Id[]) : await this.ids(model, where);
    return deleteRows(this.db, model, ids);
  }

  /** Locks one object's row until the transaction ends (allocation from a parent prefix). */
  lock(ref: ModelRef, id: Id): Promise<void> {
    return lockRow(this.db, this.model(ref), id);
  }

  // -- what field kinds ask beyond finding objects (KindStore) --------------------------------
  idsForContentType: KindStore['idsForContentType'] = (model, field, ids, label) => this.kinds.idsForContentType(model, field, ids, label);
  statusFor: KindStore['statusFor'] = (statuses, slug, label) => this.kinds.statusFor(statuses, slug, label);
  statusesFor: KindStore['statusesFor'] = (statuses, label) => this.kinds.statusesFor(statuses, label);
  takenValues: KindStore['takenValues'] = (field, value, exceptId) => this.kinds.takenValues(field, value, exceptId);
  linkedIds: KindStore['linkedIds'] = (field, ownerIds) => this.kinds.linkedIds(field, ownerIds);
  replaceLinks: KindStore['replaceLinks'] = (field, ownerId, targets, created, known) => this.kinds.replaceLinks(field, ownerId, targets, created, known);
  addLinks: KindStore['addLinks'] = (field, pairs) => this.kinds.addLinks(field, pairs);
  placeTreeNode: KindStore['placeTreeNode'] = (parent, id) => this.kinds.placeTreeNode(parent, id);
}

/** Runs `fn` in one transaction with a store bound to it: everything or nothing is written. */
export function inTransaction<T>(database: Database, registry: Registry, fn: (store: Store) => Promise<T>): Promise<T> {
  return database.transaction((tx) => fn(new Store(tx, registry)));
}
