import { randomUUID } from 'node:crypto';
import { validateSync } from 'class-validator';
import type { Executor } from '../store/executor';
import { Params } from '../store/params';
import { FieldError, FieldErrorCollector, ValidationError } from '../errors';
import { pyTypeName } from '../fields/common';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { ApiVersion } from '../versioning/version';
import type { Id } from './select';
import type { Actor, Values, WriteContext } from './write-context';
import { loadValues } from './values';
import { ormFilter } from '../filterset/orm';
// Deleting runs the same hooks and listeners as writing; the two modules call each other only at run time.
import { deleteObjects } from '../views/deleter';

export interface WriteScope {
  readonly tx: Executor;
  readonly registry: Registry;
  readonly version: ApiVersion;
  readonly actor: Actor | null;
  readonly features: Map<string, unknown>;
  /** The HTTP request this write belongs to: change records of one request share it. */
  readonly requestId?: string;
}

/** Events features subscribe to (change logging, webhooks). */
export interface WriteListener {
  saved?(model: ModelMeta, id: Id, action: 'create' | 'update', scope: WriteScope): Promise<void>;
  deleting?(model: ModelMeta, ids: Id[], scope: WriteScope): Promise<void>;
  /** The request's writes are done and its transaction is about to commit; a throw rolls it back. */
  committing?(scope: WriteScope): Promise<void>;
  /** The transaction committed; failures here never reach the client. */
  committed?(scope: WriteScope): void;
  /** The transaction rolled back: state buffered for it is dropped. */
  rolledBack?(scope: WriteScope): void;
}

export function writeListeners(registry: Registry): WriteListener[] {
  return ((registry as unknown as { listeners?: WriteListener[] }).listeners ??= []);
}

export function addWriteListener(registry: Registry, listener: WriteListener): void {
  writeListeners(registry).push(listener);
}

/** The write context of one object; also what deletion hooks of a model receive. */
export function writeContext(
  model: ModelMeta,
  scope: WriteScope,
  id: Id,
  current: Values | null,
  partial: boolean,
  sent: ReadonlySet<string> = new Set(),
): WriteContext {
  return {
    sent,
    tx: scope.tx,
    registry: scope.registry,
    version: scope.version,
    model,
    id,
    creating: current === null,
    partial,
    current,
    actor: scope.actor,
    features: scope.features,
    find(cls, attributes) {
      const target = scope.registry.forClass(cls);
      return loadValues(scope.tx, target, ormFilter(target, attributes));
    },
    async create(cls, body) {
      const target = scope.registry.forClass(cls);
      const parsed = await parseObject(target, body, scope, null, false);
      await validateObject(target, parsed.values, parsed.wc);
      return saveObject(target, parsed.values, parsed.wc);
    },
    remove(cls, ids) {
      return deleteObjects(scope.registry.forClass(cls), ids, scope);
    },
  };
}

/** DRF's message for a body that is not an object. */
export function expectObject(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw ValidationError.nonField(`Invalid data. Expected a dictionary, but got ${pyTypeName(body)}.`);
  }
  return body as Record<string, unknown>;
}

function newId(model: ModelMeta): Id {
  return model.integerPk ? 0 : randomUUID();
}

/**
 * Parses one object body into internal values: present keys through their kind; absent keys take
 * defaults on create, stay as stored on update, and are errors when required (POST and PUT).
 */
export async function parseObject(
  model: ModelMeta,
  body: unknown,
  scope: WriteScope,
  current: Values | null,
  partial: boolean,
): Promise<{ values: Values; wc: WriteContext }> {
  const data = expectObject(body);
  const id = current ? (current.id as Id) : newId(model);
  const wc = writeContext(model, scope, id, current, partial, new Set(Object.keys(data)));
  const errors = new FieldErrorCollector();
  const values: Values = current ? { ...current } : { id };
  for (const field of model.fields) {
    if (field.name === 'id') continue;
    const writable = !field.readOnly && !!field.kind.parse && field.inVersion(scope.version);
    const present = writable && Object.prototype.hasOwnProperty.call(data, field.name);
    if (present) {
      try {
        values[field.name] = await (field.kind.parse as NonNullable<FieldMeta['kind']['parse']>)(field, data[field.name], wc);
      } catch (err) {
        if (err instanceof FieldError) errors.add(field.name, err.messages);
        else if (err instanceof ValidationError && !Array.isArray(err.detail)) {
          for (const [k, v] of Object.entries(err.detail)) errors.set(k, v);
        } else throw err;
      }
      continue;
    }
    if (writable && field.required && (!current || !partial)) {
      errors.add(field.name, 'This field is required.');
      continue;
    }
    if (!current) {
      const d = field.defaultValue();
      if (d !== undefined) values[field.name] = d;
    }
  }
  if (!errors.empty) {
    // DRF validates every field before answering: report the constraints of the fields that did parse too.
    const parsed = { ...values };
    for (const name of Object.keys(errors.errors)) delete parsed[name];
    checkConstraints(model, parsed, errors);
    errors.throwIfAny();
  }
  await prepareValues(model, values, wc);
  return { values, wc };
}

/** Values derived from parsed ones (natural-key columns, default statuses), before validation. */
export async function prepareValues(model: ModelMeta, values: Values, wc: WriteContext): Promise<void> {
  const prepare = model.hook('prepare') as ((values: Values, wc: WriteContext) => unknown) | undefined;
  if (prepare) await prepare(values, wc);
  for (const field of model.fields) await field.kind.prepare?.(field, values, wc);
}

/** class-validator constraints declared by the field decorators. */
function checkConstraints(model: ModelMeta, values: Values, errors: FieldErrorCollector): void {
  const instance = Object.create((model.cls as unknown as { prototype: object }).prototype) as Record<string, unknown>;
  for (const f of model.fields) if (values[f.name] !== undefined && values[f.name] !== null) instance[f.name] = values[f.name];
  for (const error of validateSync(instance, { skipMissingProperties: true, forbidUnknownValues: false })) {
    errors.add(error.property, Object.values(error.constraints ?? {}));
  }
}

/** Fields or field sets that a row with `values` would duplicate. */
export async function uniqueConflicts(model: ModelMeta, values: Values, tx: Executor, id: Id): Promise<string[][]> {
  const sets: string[][] = [
    ...model.fields.filter((f) => f.options.unique && f.column).map((f) => [f.name]),
    ...(model.options.uniqueTogether ?? []),
  ];
  const conflicts: string[][] = [];
  const q = tx.dialect.quote;
  for (const set of sets) {
    const fields = set.map((n) => model.field(n) as FieldMeta);
    if (fields.some((f) => values[f.name] === null || values[f.name] === undefined)) continue;
    const params = new Params(tx.dialect);
    const conditions = fields.map((f) => {
      const stored = f.kind.store ? f.kind.store(f, values[f.name], tx.dialect)[f.column as string] : values[f.name];
      return `${q(f.column as string)} = ${params.add(stored)}`;
    });
    conditions.push(`${q(model.pk.column as string)} <> ${params.add(id)}`);
    const rows = await tx.rows(`SELECT 1 FROM ${q(model.table)} WHERE ${conditions.join(' AND ')} LIMIT 1`, params.values);
    if (rows.length) conflicts.push(set);
  }
  return conflicts;
}

export function uniqueMessage(model: ModelMeta, set: string[]): [string, string] {
  if (set.length === 1) {
    const field = model.field(set[0]) as FieldMeta;
    return [field.name, `${model.verboseName} with this ${field.verboseName} already exists.`];
  }
  return ['non_field_errors', `The fields ${set.join(', ')} must make a unique set.`];
}

/** Field constraints, uniqueness, then the model's own clean(): Django's full_clean order. */
export async function validateObject(model: ModelMeta, values: Values, wc: WriteContext): Promise<void> {
  const errors = new FieldErrorCollector();
  checkConstraints(model, values, errors);
  errors.throwIfAny();
  for (const set of await uniqueConflicts(model, values, wc.tx, wc.id)) {
    const [key, message] = uniqueMessage(model, set);
    errors.add(key, message);
  }
  errors.throwIfAny();
  for (const field of model.fields) await field.kind.validate?.(field, values, wc);
  const clean = model.hook('clean') as ((values: Values, wc: WriteContext) => unknown) | undefined;
  if (clean) await clean(values, wc);
}

/** Column values of a row. */
function rowOf(model: ModelMeta, values: Values, dialect: Executor['dialect']): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of model.fields) {
    if (!f.kind.store || !f.column) continue;
    if (values[f.name] === undefined) continue;
    Object.assign(row, f.kind.store(f, values[f.name], dialect));
  }
  return row;
}

/** Inserts or updates the row, then link tables and other out-of-row state. */
export async function saveObject(model: ModelMeta, values: Values, wc: WriteContext): Promise<Id> {
  const tx = wc.tx;
  const q = tx.dialect.quote;
  const beforeSave = model.hook('beforeSave') as ((values: Values, wc: WriteContext) => unknown) | undefined;
  if (beforeSave) await beforeSave(values, wc);
  const row = rowOf(model, values, tx.dialect);
  const params = new Params(tx.dialect);
  if (wc.creating) {
    if (model.integerPk) delete row[model.pk.column as string];
    const cols = Object.keys(row);
    const insert = `INSERT INTO ${q(model.table)} (${cols.map(q).join(', ')}) VALUES (${params.list(cols.map((c) => row[c]))})`;
    if (model.integerPk) {
      // The database numbers the row; the rest of the write (links, hooks) needs that number.
      const id = await tx.insertReturningId(insert, params.values, model.pk.column as string);
      values.id = id;
      (wc as { id: Id }).id = id;
    } else {
      await tx.run(insert, params.values);
    }
  } else {
    const pk = model.pk.column as string;
    const cols = Object.keys(row).filter((c) => c !== pk);
    if (cols.length) {
      const sets = cols.map((c) => `${q(c)} = ${params.add(row[c])}`).join(', ');
      await tx.run(`UPDATE ${q(model.table)} SET ${sets} WHERE ${q(pk)} = ${params.add(wc.id)}`, params.values);
    }
  }
  for (const f of model.fields) {
    if (f.kind.afterWrite && f.inVersion(wc.version) && (values[f.name] !== undefined || f.kind.name === 'tree-parent')) {
      await f.kind.afterWrite(f, wc.id, values[f.name], wc, wc.creating);
    }
  }
  const afterSave = model.hook('afterSave') as ((values: Values, wc: WriteContext) => unknown) | undefined;
  if (afterSave) await afterSave(values, wc);
  for (const listener of writeListeners(wc.registry)) {
    await listener.saved?.(model, wc.id, wc.creating ? 'create' : 'update', wc);
  }
  return wc.id;
}

/**
 * A unique violation the database reported (two requests raced past the check): turned into the
 * same 400 the check would have given.
 */
export function uniqueViolationError(model: ModelMeta, columns: string[] | undefined, constraint: string | undefined): ValidationError | null {
  let cols = columns;
  if ((!cols || cols.length === 0) && constraint) cols = (model.extra.uniqueConstraints as Map<string, string[]> | undefined)?.get(constraint);
  if (!cols || cols.length === 0) return null;
  const names = cols.map((c) => model.fields.find((f) => f.column === c)?.name ?? c);
  const [key, message] = uniqueMessage(model, names);
  return new ValidationError({ [key]: [message] });
}

/**
 * Writes some fields of a stored object directly, without validation or hooks: for server-owned
 * state such as a user's saved preferences.
 */
export async function storeFields(tx: Executor, model: ModelMeta, id: Id, values: Values): Promise<void> {
  const q = tx.dialect.quote;
  const row = rowOf(model, values, tx.dialect);
  const cols = Object.keys(row);
  if (!cols.length) return;
  const params = new Params(tx.dialect);
  const sets = cols.map((c) => `${q(c)} = ${params.add(row[c])}`).join(', ');
  await tx.run(`UPDATE ${q(model.table)} SET ${sets} WHERE ${q(model.pk.column as string)} = ${params.add(id)}`, params.values);
}

/** Inserts server-owned state directly (no validation or hooks); returns the new id. */
export async function insertFields(tx: Executor, model: ModelMeta, values: Values): Promise<Id> {
  const q = tx.dialect.quote;
  const full: Values = { id: randomUUID(), ...values };
  const row = rowOf(model, full, tx.dialect);
  const cols = Object.keys(row);
  const params = new Params(tx.dialect);
  await tx.run(`INSERT INTO ${q(model.table)} (${cols.map(q).join(', ')}) VALUES (${params.list(cols.map((c) => row[c]))})`, params.values);
  return full.id as Id;
}

/**
 * Bound values per multi-row INSERT. A statement with more parameters than the database accepts
 * fails outright: SQLite's default limit is 32,766 (SQLITE_MAX_VARIABLE_NUMBER since 3.32),
 * PostgreSQL's and MySQL's 65,535. 30,000 is a round number under the smallest of them. It is not
 * a setting: it bounds what every supported database accepts, and a higher value only fails.
 */
const MAX_BOUND_VALUES = 30_000;

/**
 * Inserts many rows of server-owned state (no validation or hooks) in as few statements as the
 * databases' parameter limits allow; every row must set the same fields.
 */
export async function insertRows(tx: Executor, model: ModelMeta, rows: Values[]): Promise<void> {
  if (rows.length === 0) return;
  const q = tx.dialect.quote;
  const stored = rows.map((values) => rowOf(model, values, tx.dialect));
  const cols = Object.keys(stored[0]);
  const perStatement = Math.max(1, Math.floor(MAX_BOUND_VALUES / cols.length));
  for (let start = 0; start < stored.length; start += perStatement) {
    const params = new Params(tx.dialect);
    const tuples = stored.slice(start, start + perStatement).map((row) => `(${params.list(cols.map((c) => row[c]))})`);
    await tx.run(`INSERT INTO ${q(model.table)} (${cols.map(q).join(', ')}) VALUES ${tuples.join(', ')}`, params.values);
  }
}

/** Deletes the objects matching Django-style attributes directly (server-owned state). */
export async function deleteWhere(tx: Executor, model: ModelMeta, attributes: Record<string, unknown>): Promise<number> {
  const ids = (await loadValues(tx, model, ormFilter(model, attributes), false)).map((v) => v.id as Id);
  if (ids.length === 0) return 0;
  const q = tx.dialect.quote;
  const params = new Params(tx.dialect);
  return tx.run(`DELETE FROM ${q(model.table)} WHERE ${q(model.pk.column as string)} IN (${params.list(ids)})`, params.values);
}

const MAX_ROWS_PER_INSERT = 500;

/**
 * Inserts already parsed and validated objects in multi-row statements, then their out-of-row
 * state (link tables), then tells the write listeners (change logging) of each object: for bulk
 * creates, where one INSERT per object would dominate. Save hooks do not run; UUID primary keys
 * only.
 */
export async function insertObjects(model: ModelMeta, objects: readonly Values[], scope: WriteScope): Promise<void> {
  if (objects.length === 0) return;
  if (model.integerPk) throw new Error(`insertObjects: ${model.label} numbers its rows; insert them one by one`);
  const tx = scope.tx;
  const q = tx.dialect.quote;
  const rows = objects.map((values) => rowOf(model, values, tx.dialect));
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const perStatement = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_BOUND_VALUES / columns.length)));
  const head = `INSERT INTO ${q(model.table)} (${columns.map(q).join(', ')}) VALUES `;
  for (let start = 0; start < rows.length; start += perStatement) {
    const params = new Params(tx.dialect);
    const tuples = rows.slice(start, start + perStatement).map((row) => `(${params.list(columns.map((c) => row[c] ?? null))})`);
    await tx.run(head + tuples.join(', '), params.values);
  }
  const linked = model.fields.filter((f) => f.kind.afterWrite && f.inVersion(scope.version));
  const listeners = writeListeners(scope.registry);
  for (const values of objects) {
    const wc = writeContext(model, scope, values.id as Id, null, false);
    for (const f of linked) {
      if (values[f.name] !== undefined || f.kind.name === 'tree-parent') await f.kind.afterWrite?.(f, wc.id, values[f.name], wc, true);
    }
    for (const listener of listeners) await listener.saved?.(model, wc.id, 'create', wc);
  }
}
