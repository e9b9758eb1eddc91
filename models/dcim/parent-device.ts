import { Store, nestedObjects, type ComputedValueProvider, type FieldMeta, type Id, type Json, type ModelMeta } from '../../framework';

/** The device bay model, whose `installed_device` points at the devices it holds. */
function bayModel(field: FieldMeta): ModelMeta | undefined {
  return field.model.reverse.find((r) => r.field.name === 'installed_device')?.model;
}

/**
 * `parent_device` of devices: the device whose bay holds this one, in nested form with the bay
 * (`device_bay`), or null. Read for a page of devices in a fixed number of queries, and in none
 * when the page's own statement shows that no device on it is installed in a bay.
 */
export const parentDevice: ComputedValueProvider = {
  select(field, scope) {
    const holder = bayModel(field)?.field('installed_device');
    if (!holder) return () => null;
    const index = scope.pointingId(holder);
    return (row) => row[index];
  },
  async load(field, ids, rc, selected) {
    const out = new Map<Id, Json>(ids.map((id) => [id, null]));
    const bay = bayModel(field);
    if (!bay || ids.length === 0) return out;
    if (selected && ids.every((id) => selected.get(id) === null || selected.get(id) === undefined)) return out;
    // The fields read are columns alone (a bay's tags are not needed here).
    const bays = await new Store(rc.db).findFields(bay, { installed_device__in: ids }, ['device', 'installed_device']);
    const parents = await nestedObjects(field.model, bays.map((b) => b.device as Id), rc);
    const bayForms = await nestedObjects(bay, bays.map((b) => b.id as Id), rc);
    for (const b of bays) {
      const parent = parents.get(b.device as Id);
      if (parent) out.set(b.installed_device as Id, { ...parent, device_bay: bayForms.get(b.id as Id) ?? null });
    }
    return out;
  },
};
