import type { Executor } from '../store/executor';
import { clearReference, deleteLinkRows, deleteRows, idsReferencing } from '../store/rows';
import { ProtectedError } from '../errors';
import type { OnDelete } from '../fields/foreign-key';
import { linkOf } from '../fields/many-to-many';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import { displayStrings } from '../serializer/representation';
import type { Id } from '../serializer/select';
import { writeContext, writeListeners, type WriteScope } from '../serializer/writer';
import type { WriteContext } from '../serializer/write-context';

function onDeleteOf(field: FieldMeta): OnDelete {
  return (field.options as { onDelete?: OnDelete }).onDelete ?? 'protect';
}

interface Batch {
  model: ModelMeta;
  ids: Id[];
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
    for (const rel of m.reverse) {
      const referencing = await idsReferencing(tx, rel.model, rel.field.column as string, fresh);
      const dependents = referencing.filter((id) => !(seen.get(rel.model)?.has(id)));
      if (dependents.length === 0) continue;
      const action = onDeleteOf(rel.field);
      if (action === 'cascade') await collect(rel.model, dependents);
      else if (action === 'set_null') nullify.push({ model: rel.model, field: rel.field, ids: dependents });
      else protectedRows.push({ model: rel.model, ids: dependents });
    }
  };
  await collect(model, ids);

  const blocking = protectedRows
    .map((p) => ({ model: p.model, ids: p.ids.filter((id) => !(seen.get(p.model)?.has(id))) }))
    .filter((p) => p.ids.length);
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
  for (const listener of writeListeners(scope.registry)) {
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

/** Link-table rows owned by, or pointing at, the deleted objects. */
async function deleteLinks(registry: Registry, model: ModelMeta, ids: Id[], tx: Executor): Promise<void> {
  for (const f of model.fields) {
    if (f.kind.relation !== 'many-to-many' || !f.extra.link) continue;
    await deleteLinkRows(tx, linkOf(f), 'owner', ids);
  }
  for (const other of registry.models) {
    for (const f of other.fields) {
      if (f.kind.relation !== 'many-to-many' || f.target !== model || !f.extra.link) continue;
      const link = linkOf(f);
      if (link.discriminator) continue; // generic links (tags) point at their target through a foreign key
      await deleteLinkRows(tx, link, 'target', ids);
    }
  }
}
