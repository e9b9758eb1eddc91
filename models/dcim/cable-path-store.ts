import { newRowId, type Id, type Store, type Values } from '../../framework';
import { CablePath } from './cable-path';
import { CablePathNode } from './cable-path-node';
import { nodeText, nodeTextsOf, type Node } from './cable-path-text';

/**
 * Every write of a stored cable path, together with its rows in the node index (CablePathNode),
 * in the caller's transaction: after any of these, a path's node rows are exactly the nodes of
 * its `path` text. Nothing else writes either table.
 */

function nodeRows(pathId: Id, texts: readonly string[]): Values[] {
  return texts.map((node) => ({ id: newRowId(), cable_path: pathId, node }));
}

/** Stores a new path; `values` are CablePath's fields. */
export async function insertPath(store: Store, values: Values): Promise<Id> {
  const id = await store.insert(CablePath, values);
  const texts = nodeTextsOf(values.path as string);
  if (texts.length) await store.insertMany(CablePathNode, nodeRows(id, texts));
  return id;
}

/**
 * Writes a stored path again (traced in place): only the nodes it gained or lost are written, so
 * a retrace that finds the same route (a status change) touches no node row.
 */
export async function updatePath(store: Store, stored: Values, values: Values): Promise<void> {
  const id = stored.id as Id;
  await store.update(CablePath, id, values);
  if (values.path === undefined || values.path === stored.path) return;
  const before = new Set(nodeTextsOf(stored.path as string));
  const after = new Set(nodeTextsOf(values.path as string));
  const lost = [...before].filter((t) => !after.has(t));
  const gained = [...after].filter((t) => !before.has(t));
  if (lost.length) await store.delete(CablePathNode, { cable_path: id, node__in: lost });
  if (gained.length) await store.insertMany(CablePathNode, nodeRows(id, gained));
}

/** Deletes stored paths and their node rows (which point at them, so go first). */
export async function deletePaths(store: Store, ids: readonly Id[]): Promise<void> {
  if (ids.length === 0) return;
  await store.delete(CablePathNode, { cable_path__in: ids });
  await store.delete(CablePath, ids);
}

/**
 * The stored paths through any of `nodes`, in primary-key order: one indexed read of the node
 * rows, then the paths by primary key.
 */
export async function pathsThrough(store: Store, nodes: readonly Node[]): Promise<Values[]> {
  if (nodes.length === 0) return [];
  const rows = await store.pluck(CablePathNode, { node__in: nodes.map(nodeText) }, ['cable_path']);
  const ids = [...new Set(rows.map((r) => r.cable_path as Id))];
  return ids.length ? store.find(CablePath, ids) : [];
}
