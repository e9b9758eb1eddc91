import { getMetadataStorage, type MetadataStorage } from 'class-validator';

type Lookup = MetadataStorage['getTargetValidationMetadatas'];

/**
 * class-validator finds a class's constraints afresh on every validation, testing the class
 * against every class it holds constraints for (an `instanceof` each, a few hundred models): a
 * twentieth of a bulk create's time. The answer only changes when a constraint is declared, so it
 * is kept per class and lookup options until the next declaration.
 */
export function keepConstraintLookups(storage: MetadataStorage = getMetadataStorage()): void {
  const marked = storage as MetadataStorage & { netinvKeepsLookups?: boolean };
  if (marked.netinvKeepsLookups) return;
  marked.netinvKeepsLookups = true;
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const declare = storage.addValidationMetadata.bind(storage);
  const kept = new Map<Function, Map<string, ReturnType<Lookup>>>();
  storage.addValidationMetadata = (metadata) => {
    kept.clear();
    declare(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups?.join('\u0001') ?? ''}`;
    let byKey = kept.get(target);
    if (!byKey) kept.set(target, (byKey = new Map()));
    let found = byKey.get(key);
    // A copy each time: the caller owns the array it is given.
    if (!found) byKey.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found.slice();
  };
}
