import { Store, nestedObjects, type ComputedValueProvider, type Id, type Json } from '../../framework';

/**
 * `parent_device` of devices: the device whose bay holds this one, in nested form with the bay
 * (`device_bay`), or null. Read for a page of devices in a fixed number of queries.
 */
export const parentDevice: ComputedValueProvider = {
  async load(field, ids, rc) {
    const out = new Map<Id, Json>(ids.map((id) => [id, null]));
    const bay = field.model.reverse.find((r) => r.field.name === 'installed_device')?.model;
    if (!bay || ids.length === 0) return out;
    const bays = await new Store(rc.db).find(bay, { installed_device__in: ids });
    const parents = await nestedObjects(field.model, bays.map((b) => b.device as Id), rc);
    const bayForms = await nestedObjects(bay, bays.map((b) => b.id as Id), rc);
    for (const b of bays) {
      const parent = parents.get(b.device as Id);
      if (parent) out.set(b.installed_device as Id, { ...parent, device_bay: bayForms.get(b.id as Id) ?? null });
    }
    return out;
  },
};
