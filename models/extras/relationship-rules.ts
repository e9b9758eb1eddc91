import { filterQuery, filterSetFor, ValidationError, type Json, type ModelMeta, type WriteContext } from '../../framework';

export const SYMMETRIC_TYPES = new Set(['symmetric-one-to-one', 'symmetric-many-to-many']);

/** A relationship's text form: its name with underscores shown as spaces. */
export function relationshipDisplay(name: string): string {
  return name.replace(/_/g, ' ');
}

/** `dcim.Site`: the model label with the class name, as Nautobot's messages print it. */
export function classLabel(model: ModelMeta): string {
  return `${model.app.label}.${model.cls.name}`;
}

/**
 * A side filter is a dictionary of the side model's filter parameters and values, checked as the
 * list endpoint would check them.
 */
export async function checkSideFilter(wc: WriteContext, model: ModelMeta, side: 'source' | 'destination', filter: Json): Promise<void> {
  if (filter === null || filter === undefined) return;
  const key = `${side}_filter`;
  const label = classLabel(model);
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new ValidationError({ [key]: [`Filter for ${label} must be a dictionary`] });
  const filters = filterSetFor(model);
  const messages: string[] = [];
  try {
    await filters.parse(filterQuery(filter), { db: wc.tx }, false);
  } catch (err) {
    if (!(err instanceof ValidationError) || Array.isArray(err.detail)) throw err;
    for (const [name, errors] of Object.entries(err.detail)) messages.push(`'${name}': ${(errors as string[]).join(', ')}`);
  }
  for (const name of Object.keys(filter)) {
    if (!filters.filters.has(name)) messages.push(`'${name}' is not a valid filter parameter for ${label} object`);
  }
  if (messages.length) throw new ValidationError({ [key]: messages });
}
