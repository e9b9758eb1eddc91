import { isObjectType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { ModelMeta } from '../metadata/model-meta';

/**
 * What each GraphQL field of a model's type reads of an object's REST representation: those keys
 * (none for `id`, `url` and relations found by the object's id), or null for the whole of it.
 */
export type RestNeeds = Map<string, readonly string[] | null>;

/** Kept in a model type's `extensions` so that a document can be mapped to the keys it reads. */
export interface ModelTypeInfo {
  model: ModelMeta;
  restNeeds: RestNeeds;
}

const EXTENSION = 'netinvModel';

export function modelTypeExtensions(info: ModelTypeInfo): Record<string, unknown> {
  return { [EXTENSION]: info };
}

/**
 * The REST keys a document reads of each model's objects, over every place the model's type is
 * selected (fragments included): objects are then read with those fields alone, not their whole
 * representation with every nested object and loader. A model absent from the map, or mapped to
 * null, is read whole.
 */
export function restKeysRead(schema: GraphQLSchema, document: DocumentNode): Map<ModelMeta, Set<string> | null> {
  const out = new Map<ModelMeta, Set<string> | null>();
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const parent = typeInfo.getParentType();
        const info = parent && isObjectType(parent) ? (parent.extensions[EXTENSION] as ModelTypeInfo | undefined) : undefined;
        const name = node.name.value;
        if (!info || name.startsWith('__')) return;
        const needs = info.restNeeds.get(name);
        let keys = out.get(info.model);
        if (keys === null) return;
        if (needs === null || needs === undefined) {
          out.set(info.model, null);
          return;
        }
        if (!keys) out.set(info.model, (keys = new Set()));
        for (const key of needs) keys.add(key);
      },
    }),
  );
  return out;
}
