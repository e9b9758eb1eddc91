import type { ModelMeta } from '../metadata/model-meta';

/**
 * Columns of each unique constraint or index by name, per model, as the database schema names
 * them: MySQL reports a violated constraint by name only. Recorded once the schema is known
 * (after the DataSource is built), kept apart from the frozen registry.
 */
const CONSTRAINTS = new WeakMap<ModelMeta, ReadonlyMap<string, readonly string[]>>();

export function recordUniqueConstraints(model: ModelMeta, byName: ReadonlyMap<string, readonly string[]>): void {
  CONSTRAINTS.set(model, byName);
}

/** Columns of the named unique constraint of `model`, if recorded. */
export function uniqueConstraintColumns(model: ModelMeta, name: string): readonly string[] | undefined {
  return CONSTRAINTS.get(model)?.get(name);
}
