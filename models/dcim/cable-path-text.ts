import type { Id } from '../../framework';

/**
 * How CablePath.path writes its nodes: `label:id` texts joined by commas. The trace writes it,
 * the trace views read it, and the node index (CablePathNode) holds one row per distinct text.
 */

/** A node of a path: a content-type label and an object id. */
export interface Node {
  label: string;
  id: Id;
}

export function nodeText(n: Node): string {
  return `${n.label}:${n.id}`;
}

export function pathText(nodes: readonly Node[]): string {
  return nodes.map(nodeText).join(',');
}

export function parseNodes(text: string): Node[] {
  if (!text) return [];
  return text.split(',').map((s) => {
    const at = s.indexOf(':');
    return { label: s.slice(0, at), id: s.slice(at + 1) };
  });
}

/** The distinct node texts of a stored `path`: the node index holds one row per node of a path. */
export function nodeTextsOf(text: string): string[] {
  return text ? [...new Set(text.split(','))] : [];
}
