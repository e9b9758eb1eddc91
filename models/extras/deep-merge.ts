import type { Json, JsonObject } from '../../framework';

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Nautobot's `deepmerge`: where both sides hold an object under a key the two merge
 * recursively; anything else (lists, scalars, an object meeting a non-object) is replaced by
 * the later value. Lists are never concatenated. Neither input is modified.
 */
export function deepMerge(base: JsonObject, later: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(later)) {
    const current = out[key];
    out[key] = isObject(current) && isObject(value) ? deepMerge(current, value) : structuredClone(value);
  }
  return out;
}
