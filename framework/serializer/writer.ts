import { unstorableInput } from './storable-input';
import type { RequestData } from '../metadata/request-data';
import { newRowId } from '../store/row-ids';
import { validateSync } from 'class-validator';
import { keepConstraintLookups } from './constraint-lookups';
import type { Executor } from '../store/executor';
import { changedColumns, columnValue, rowOf } from '../store/objects';
import { insertRow, insertRowBatches, rowWithValues, updateRows } from '../store/rows';
import { clearReference, deleteLinkRows, deleteRows, idsReferencing, idsReferencingGeneric } from '../store/rows';
import { genericNames } from '../fields/generic-foreign-key';
import { ProtectedError } from '../errors';
import type { OnDelete } from '../fields/foreign-key';
import { linkOf } from '../fields/many-to-many';
import { displayStrings } from './representation';
import { Store } from '../store/store';
import { uniqueConstraintColumns } from '../store/unique-constraints';
import { FieldError, FieldErrorCollector, ValidationError } from '../errors';
import { pyTypeName } from '../fields/common';
import type { FieldMeta, ModelMeta, ReverseRelation } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { ApiVersion } from '../versioning/version';
import type { Id } from '../query/id';
import type { Actor, Values, WriteContext } from './write-context';
import type { WriteListener, WriteScope } from './write-scope';

export type { WriteListener, WriteScope };

/** The write context of one object; also what deletion hooks of a model receive. */
export function writeContext(
  model: ModelMeta,
  scope: WriteScope,
  id: Id,
  current: Values | null,
  partial: boolean,
  sent: ReadonlySet<string> = new Set(),
): WriteContext {
  const store = new Store(scope.tx, scope.registry);
  return {
    sent,
    tx: scope.tx,
    store,
    listeners: scope.listeners,
    registry: scope.registry,
    version: scope.version,
    model,
    id,
    creating: current === null,
    partial,
    current,
    actor: scope.actor,
    features: scope.features,
    viewable: scope.viewable,
    async create(cls, body, options = {}) {
      const target = scope.registry.forClass(cls);
      const parsed = await parseObject(target, body, options.unlogged ? { ...scope, listeners: [] } : scope, null, false);
      await validateObject(target, parsed.values, parsed.wc);
      return saveObject(target, parsed.values, parsed.wc);
    },
    remove(cls, ids) {
      return deleteObjects(scope.registry.forClass(cls), ids, scope);
    },
    async updated(cls, ids) {
      const target = scope.registry.forClass(cls);
      for (const id of ids) for (const listener of scope.listeners) await listener.saved?.(target, id, 'update', scope);
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
  return model.integerPk ? 0 : newRowId();
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
      const unstorable = unstorableInput(data[field.name], scope.maxJsonDepth);
      if (unstorable) {
        errors.add(field.name, unstorable);
        continue;
      }
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
  for (const field of preparedFields(model)) {
    // Most fields prepare synchronously (an automatic date): awaiting only the ones that return a
    // promise keeps a bulk write from queueing a microtask per field of every object.
    const pending = field.kind.prepare?.(field, values, wc);
    if (pending) await pending;
  }
}

const PREPARED_FIELDS = new WeakMap<ModelMeta, readonly FieldMeta[]>();

function preparedFields(model: ModelMeta): readonly FieldMeta[] {
  let fields = PREPARED_FIELDS.get(model);
  if (!fields) PREPARED_FIELDS.set(model, (fields = model.fields.filter((f) => f.kind.prepare)));
  return fields;
}

keepConstraintLookups();

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
  for (const set of sets) {
    const fields = set.map((n) => model.field(n) as FieldMeta);
    if (fields.some((f) => values[f.name] === null || values[f.name] === undefined)) continue;
    const columns: Record<string, unknown> = {};
    for (const f of fields) columns[f.column as string] = columnValue(f, values[f.name]);
    if (await rowWithValues(tx, model, columns, id)) conflicts.push(set);
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

/** Inserts or updates the row, then link tables and other out-of-row state. */
export async function saveObject(model: ModelMeta, values: Values, wc: WriteContext): Promise<Id> {
  const tx = wc.tx;
  const beforeSave = model.hook('beforeSave') as ((values: Values, wc: WriteContext) => unknown) | undefined;
  if (beforeSave) await beforeSave(values, wc);
  const row = rowOf(model, values);
  if (wc.creating) {
    if (model.integerPk) delete row[model.pk.column as string];
    const numbered = await insertRow(tx, model, row);
    if (numbered !== undefined) {
      // The database numbers the row; the rest of the write (links, hooks) needs that number.
      values.id = numbered;
      (wc as { id: Id }).id = numbered;
    }
  } else {
    // Only the columns this write changes: the others stay as concurrent writers left them.
    const changed = wc.current ? changedColumns(model, wc.current, values) : row;
    delete changed[model.pk.column as string];
    await updateRows(tx, model, [wc.id], changed, true);
  }
  for (const f of model.fields) {
    if (!f.kind.afterWrite || !f.inVersion(wc.version)) continue;
    const value = values[f.name];
    // What an update neither sent nor changed (the tags of a PATCH of the description) is stored already.
    const kept = !wc.creating && wc.current !== null && !wc.sent.has(f.name) && value === wc.current[f.name];
    if (f.kind.afterEverySave || (value !== undefined && !kept)) await f.kind.afterWrite(f, wc.id, value, wc, wc.creating);
  }
  const afterSave = model.hook('afterSave') as ((values: Values, wc: WriteContext) => unknown) | undefined;
  if (afterSave) await afterSave(values, wc);
  for (const listener of wc.listeners) {
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
  if ((!cols || cols.length === 0) && constraint) cols = uniqueConstraintColumns(model, constraint)?.slice();
  if (!cols || cols.length === 0) return null;
  const names = cols.map((c) => model.fields.find((f) => f.column === c)?.name ?? c);
  const [key, message] = uniqueMessage(model, names);
  return new ValidationError({ [key]: [message] });
}

/** Rows per multi-row INSERT of a bulk create: large enough to amortise the statement, small enough to keep each short. */
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
  const rows = objects.map((values) => rowOf(model, values));
  await insertRowBatches(tx, model, rows, MAX_ROWS_PER_INSERT);
  const linked = model.fields.filter((f) => f.kind.afterWrite && f.inVersion(scope.version));
  // Link tables of every object at once where the kind can; the rest object by object.
  const together = linked.filter((f) => f.kind.afterCreateMany && !f.kind.afterEverySave);
  const apart = linked.filter((f) => !together.includes(f));
  if (together.length) {
    const wc = writeContext(model, scope, objects[0].id as Id, null, false);
    for (const f of together) {
      const created = objects.filter((values) => values[f.name] !== undefined).map((values) => ({ id: values.id as Id, value: values[f.name] }));
      if (created.length) await f.kind.afterCreateMany?.(f, created, wc);
    }
  }
  const listeners = scope.listeners;
  for (const values of objects) {
    const wc = writeContext(model, scope, values.id as Id, null, false);
    for (const f of apart) {
      if (values[f.name] !== undefined || f.kind.afterEverySave) await f.kind.afterWrite?.(f, wc.id, values[f.name], wc, true);
    }
    for (const listener of listeners) await listener.saved?.(model, wc.id, 'create', wc);
  }
}

// -- Deleting: the same hooks and listeners as writing ---------------------------------------

function onDeleteOf(field: FieldMeta): OnDelete {
  return (field.options as { onDelete?: OnDelete }).onDelete ?? 'protect';
}

/**
 * What keeps objects from being deleted, read as it stands now: the objects referencing them through
 * a PROTECT relation (the 409 of a delete whose dependents a racing transaction committed).
 */
export async function protectingDependents(db: Executor, model: ModelMeta, ids: Id[]): Promise<Array<{ display: string; id: Id }>> {
  const out: Array<{ display: string; id: Id }> = [];
  for (const rel of model.reverse) {
    if (onDeleteOf(rel.field) !== 'protect') continue;
    const referencing = await idsReferencing(db, rel.model, rel.field.column as string, ids);
    out.push(...(await displayStrings(db, rel.model, referencing)));
  }
  return out;
}

interface Batch {
  model: ModelMeta;
  ids: Id[];
}

/**
 * The reverse relations of a model, each model that others of them point at with a required
 * foreign key before those others (a device type's rear port templates before its front port
 * templates): batches are deleted in the reverse order of collection, so rows pointing at rows
 * deleted in the same request go first.
 */
function referencedFirst(relations: readonly ReverseRelation[]): ReverseRelation[] {
  const ordered: ReverseRelation[] = [];
  const placed = new Set<ReverseRelation>();
  const visiting = new Set<ReverseRelation>();
  const place = (rel: ReverseRelation): void => {
    if (placed.has(rel) || visiting.has(rel)) return;
    visiting.add(rel);
    const required = rel.model.fields.filter((f) => f.target && f.target !== rel.model && !f.nullable && f.kind.relation === 'foreign-key');
    for (const other of relations) if (other !== rel && required.some((f) => f.target === other.model)) place(other);
    visiting.delete(rel);
    placed.add(rel);
    ordered.push(rel);
  };
  relations.forEach(place);
  return ordered;
}

/**
 * Deletes objects the way Django's collector does, from metadata: PROTECT references block the
 * whole delete (409 listing the dependents), CASCADE references are deleted first, SET_NULL ones
 * are cleared, link-table rows go with their owner.
 */
export async function deleteObjects(model: ModelMeta, ids: Id[], scope: WriteScope): Promise<void> {
  if (ids.length === 0) return;
  const tx = scope.tx;
  const batches: Batch[] = [];
  const seen = new Map<ModelMeta, Set<Id>>();
  const protectedRows: Array<{ model: ModelMeta; ids: Id[] }> = [];
  const nullify: Array<{ model: ModelMeta; field: FieldMeta; ids: Id[] }> = [];

  const collect = async (m: ModelMeta, list: Id[]): Promise<void> => {
    const known = seen.get(m) ?? new Set<Id>();
    seen.set(m, known);
    const fresh = list.filter((id) => !known.has(id));
    if (fresh.length === 0) return;
    fresh.forEach((id) => known.add(id));
    batches.push({ model: m, ids: fresh });
    for (const rel of referencedFirst(m.reverse)) {
      const referencing = await idsReferencing(tx, rel.model, rel.field.column as string, fresh);
      const dependents = referencing.filter((id) => !(seen.get(rel.model)?.has(id)));
      if (dependents.length === 0) continue;
      const action = onDeleteOf(rel.field);
      if (action === 'cascade') await collect(rel.model, dependents);
      else if (action === 'set_null') nullify.push({ model: rel.model, field: rel.field, ids: dependents });
      else protectedRows.push({ model: rel.model, ids: dependents });
    }
    // Generic relations declared `onDelete: 'cascade'` (image attachments) go with their target.
    for (const g of genericCascades(scope.registry, m)) {
      const referencing = await idsReferencingGeneric(tx, g.model, g.typeColumn, g.idColumn, m.label, fresh);
      const dependents = referencing.filter((id) => !(seen.get(g.model)?.has(id)));
      if (dependents.length) await collect(g.model, dependents);
    }
  };
  await collect(model, ids);

  // An object protecting through two paths (a rack on the site and on one of its locations) is one blocker.
  const blockers = new Map<ModelMeta, Set<Id>>();
  for (const p of protectedRows) {
    const set = blockers.get(p.model) ?? new Set<Id>();
    for (const id of p.ids) if (!seen.get(p.model)?.has(id)) set.add(id);
    blockers.set(p.model, set);
  }
  const blocking = [...blockers].map(([m, set]) => ({ model: m, ids: [...set] })).filter((p) => p.ids.length);
  if (blocking.length) {
    const described = (await Promise.all(blocking.map((p) => displayStrings(tx, p.model, p.ids)))).flat();
    throw new ProtectedError(described);
  }

  // Model hooks and kinds keeping state outside the row (associations) run before anything is deleted.
  // `cascaded` tells a hook its objects go because something they belong to goes (Django calls a
  // model's own delete() only for the objects deleted directly).
  for (const b of batches) {
    const wc = writeContext(b.model, scope, b.ids[0], null, false);
    const beforeDelete = b.model.hook('beforeDelete') as ((ids: Id[], wc: WriteContext, cascaded: boolean) => unknown) | undefined;
    if (beforeDelete) await beforeDelete(b.ids, wc, b !== batches[0]);
    for (const f of b.model.fields) await f.kind.removed?.(f, b.ids, wc);
  }
  for (const listener of scope.listeners) {
    for (const b of batches) await listener.deleting?.(b.model, b.ids, scope);
  }

  for (const n of nullify) {
    const ids = n.ids.filter((id) => !(seen.get(n.model)?.has(id)));
    if (!ids.length) continue;
    await clearReference(tx, n.model, n.field.column as string, ids);
  }
  // Rows deleted together may point at each other (an interface and its LAG). MySQL checks foreign
  // keys row by row within a statement, so such references are cleared first.
  for (const b of batches) {
    for (const f of b.model.fields) {
      const targets = f.target ? seen.get(f.target) : undefined;
      if (!f.nullable || !f.column || !targets?.size || f.kind.relation !== 'foreign-key') continue;
      await clearReference(tx, b.model, f.column, b.ids, [...targets]);
    }
  }
  for (const b of [...batches].reverse()) {
    await deleteLinks(scope.registry, b.model, b.ids, tx);
    await deleteRows(tx, b.model, b.ids);
  }
}

/** Models whose cascading generic relation may point at `target`, with the relation's columns. */
function genericCascades(registry: Registry, target: ModelMeta): Array<{ model: ModelMeta; typeColumn: string; idColumn: string }> {
  const out: Array<{ model: ModelMeta; typeColumn: string; idColumn: string }> = [];
  for (const model of registry.models) {
    for (const f of model.fields) {
      const o = f.options as { onDelete?: string; relation?: string };
      if (f.kind.relation !== 'generic' || o.onDelete !== 'cascade') continue;
      const names = genericNames(o, f.name);
      const typeField = model.field(names.type);
      const idField = model.field(names.id);
      if (!typeField || !idField || !((typeField.resolved.targets as ModelMeta[] | undefined) ?? []).includes(target)) continue;
      out.push({ model, typeColumn: typeField.column as string, idColumn: idField.column as string });
    }
  }
  return out;
}

/** Link-table rows owned by, or pointing at, the deleted objects. */
async function deleteLinks(registry: Registry, model: ModelMeta, ids: Id[], tx: Executor): Promise<void> {
  for (const f of model.fields) {
    if (f.kind.relation !== 'many-to-many' || !f.resolved.link) continue;
    await deleteLinkRows(tx, linkOf(f), 'owner', ids);
  }
  for (const other of registry.models) {
    for (const f of other.fields) {
      if (f.kind.relation !== 'many-to-many' || f.target !== model || !f.resolved.link) continue;
      const link = linkOf(f);
      if (link.discriminator) continue; // generic links (tags) point at their target through a foreign key
      await deleteLinkRows(tx, link, 'target', ids);
    }
  }
}
