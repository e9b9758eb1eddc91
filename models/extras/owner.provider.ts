import { Store, nestedObjects, type ComputedValueProvider, type Id, type Json } from '../../framework';

/**
 * `owner` of the records a Git repository manages (config contexts, their schemas, export
 * templates): the owner named by `owner_content_type` + `owner_object_id` in its nested form, or
 * null. One read of the pairs and one per owner model for a page.
 */
export const ownerProvider: ComputedValueProvider = {
  async load(field, ids, rc) {
    const model = field.model;
    const out = new Map<Id, Json>();
    const rows = await new Store(rc.db).pluck(model, ids, ['id', 'owner_content_type', 'owner_object_id']);
    const byType = new Map<string, Id[]>();
    for (const row of rows) {
      out.set(row.id as Id, null);
      const label = row.owner_content_type as string | null;
      if (!label || !row.owner_object_id) continue;
      byType.set(label, [...(byType.get(label) ?? []), row.owner_object_id as Id]);
    }
    for (const [label, ownerIds] of byType) {
      const target = model.registry?.get(label);
      if (!target?.path) continue;
      const nested = await nestedObjects(target, ownerIds, rc);
      for (const row of rows) {
        if (row.owner_content_type === label && row.owner_object_id) out.set(row.id as Id, (nested.get(row.owner_object_id as Id) as Json | undefined) ?? null);
      }
    }
    return out;
  },
};
