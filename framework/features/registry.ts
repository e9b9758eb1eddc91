import type { Executor } from '../db/executor';
import type { Registry } from '../metadata/registry';

/**
 * Work a feature does once per request before rendering (custom field definitions…). Providers
 * register here at assembly; the framework calls them without knowing what they are.
 */
export interface RequestFeature {
  prepare(db: Executor, features: Map<string, unknown>): Promise<void>;
}

export function requestFeatures(registry: Registry): RequestFeature[] {
  return ((registry as unknown as { requestFeatures?: RequestFeature[] }).requestFeatures ??= []);
}

export function addRequestFeature(registry: Registry, feature: RequestFeature): void {
  requestFeatures(registry).push(feature);
}

export async function prepareFeatures(registry: Registry, db: Executor, features: Map<string, unknown>): Promise<void> {
  for (const f of requestFeatures(registry)) await f.prepare(db, features);
}
