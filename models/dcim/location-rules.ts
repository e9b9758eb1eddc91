import { ValidationError, type Id, type Values, type WriteContext } from '../../framework';
import { Location } from './location';
import { LocationType } from './location-type';
import { Site } from './site';

/** Ids of a location and its ancestors, the location first. */
export async function lineageOf(wc: WriteContext, id: Id): Promise<Values[]> {
  const chain: Values[] = [];
  let next: Id | null = id;
  // A tree never holds a cycle (placing a node under its descendant is refused), so this ends.
  while (next) {
    const node: Values | null = await wc.store.get(Location, next);
    if (!node) break;
    chain.push(node);
    next = (node.parent as Id | null) ?? null;
  }
  return chain;
}

/** The site of a location: its own, or the nearest ancestor's (Nautobot's `base_site`). */
export function baseSiteOf(lineage: Values[]): Id | null {
  for (const node of lineage) if (node.site) return node.site as Id;
  return null;
}

/**
 * Nautobot's checks of an object's `location` against its `site` and the location type's content
 * types: `noun` is the model's plural as the message names it (`Racks`, `Rack groups`).
 * Returns the location's lineage for further rules, or null when there is no location.
 */
export async function checkLocation(values: Values, wc: WriteContext, noun: string, options: { siteRequired?: boolean } = {}): Promise<Values[] | null> {
  if (!values.location) return null;
  const lineage = await lineageOf(wc, values.location as Id);
  const location = lineage[0];
  if (!location) return null;
  const site = (values.site as Id | null | undefined) ?? null;
  if ((site !== null || options.siteRequired) && baseSiteOf(lineage) !== site) {
    const siteName = site ? (await wc.store.get(Site, site))?.name : 'None';
    throw new ValidationError({ location: [`Location "${String(location.name)}" does not belong to site "${String(siteName)}".`] });
  }
  const type = await wc.store.get(LocationType, location.location_type as Id);
  const allowed = (type?.content_types as string[] | undefined) ?? [];
  if (!allowed.includes(wc.model.label)) {
    throw new ValidationError({ location: [`${noun} may not associate to locations of type "${String(type?.name)}".`] });
  }
  return lineage;
}
