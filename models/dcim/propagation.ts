/**
 * Moving a rack group or a rack to another site or location moves what it holds (Nautobot's
 * post-save signals): child groups, racks and power panels follow a group, devices follow their rack. Each
 * object takes the new site; a location outside the new location becomes that location when its
 * type allows the object's model, else none; with no new location, a location outside the new
 * site is cleared. As in Nautobot these saves skip validation and are logged as changes.
 */
import type { Id, ModelClass, Values, WriteContext } from '../../framework';
import { Device } from './device';
import { LocationType } from './location-type';
import { Location } from './location';
import { PowerPanel } from './power-panel';
import { baseSiteOf, lineageOf } from './location-rules';
import { Rack } from './rack';
import { RackGroup } from './rack-group';

/** Whether the holder's site or location changed in this save. */
export function moved(values: Values, wc: WriteContext): boolean {
  if (wc.creating || !wc.current) return false;
  return wc.current.site !== values.site || (wc.current.location ?? null) !== (values.location ?? null);
}

async function allows(wc: WriteContext, location: Id, label: string): Promise<boolean> {
  const loc = await wc.store.get(Location, location);
  const type = loc ? await wc.store.get(LocationType, loc.location_type as Id) : null;
  return ((type?.content_types as string[] | undefined) ?? []).includes(label);
}

/** Gives each object the holder's site, and a location consistent with the holder's. */
async function follow(wc: WriteContext, cls: ModelClass, objects: Values[], site: Id, location: Id | null): Promise<Values[]> {
  const label = wc.registry.forClass(cls).label;
  const changed: Values[] = [];
  for (const obj of objects) {
    const patch: Values = {};
    if (obj.site !== site) patch.site = site;
    const own = (obj.location as Id | null) ?? null;
    if (own) {
      const lineage = await lineageOf(wc, own);
      if (location) {
        if (!lineage.some((l) => l.id === location)) patch.location = (await allows(wc, location, label)) ? location : null;
      } else if (baseSiteOf(lineage) !== site) {
        patch.location = null;
      }
    }
    if (Object.keys(patch).length) {
      await wc.store.update(cls, obj.id as Id, patch);
      await wc.updated(cls, [obj.id as Id]);
      changed.push({ ...obj, ...patch });
    }
  }
  return changed;
}

/** A rack's devices follow it. */
export async function moveRackContents(wc: WriteContext, rack: Id, site: Id, location: Id | null): Promise<void> {
  await follow(wc, Device, await wc.store.find(Device, { rack }), site, location);
}

/** A group's descendant groups, their racks (with the racks' devices) and power panels follow it. */
export async function moveGroupContents(wc: WriteContext, group: Id, site: Id, location: Id | null): Promise<void> {
  const groups = [group];
  for (let i = 0; i < groups.length; i++) {
    const children = await wc.store.find(RackGroup, { parent: groups[i] });
    await follow(wc, RackGroup, children, site, location);
    groups.push(...children.map((c) => c.id as Id));
  }
  for (const rack of await wc.store.find(Rack, { group__in: groups })) {
    const [after] = await follow(wc, Rack, [rack], site, location);
    const now = after ?? rack;
    await moveRackContents(wc, rack.id as Id, now.site as Id, (now.location as Id | null) ?? null);
  }
  await follow(wc, PowerPanel, await wc.store.find(PowerPanel, { rack_group__in: groups }), site, location);
}
