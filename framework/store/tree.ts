import { ValidationError } from '../errors';
import type { TreeParentOptions } from '../fields/tree';
import { TREE_DEPTH, TREE_DISPLAY, TREE_PATH, TREE_SORT } from '../fields/tree-columns';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { escapeLike } from './dialect/types';
import type { Executor, Row } from './executor';
import { Params } from './params';

/** Subquery: ids of the rows of a tree `model` that are one of the nodes `ids` or a descendant of one. */
export function descendantsOf(model: ModelMeta, ids: Array<string | number>, params: Params): string {
  const q = params.dialect.quote;
  const nodes = `SELECT ${q('n')}.${q(TREE_PATH)} FROM ${q(model.table)} ${q('n')} WHERE ${params.in(`${q('n')}.${q('id')}`, ids)}`;
  return `SELECT ${q('d')}.${q('id')} FROM ${q(model.table)} ${q('d')} WHERE EXISTS (SELECT 1 FROM (${nodes}) ${q('np')} WHERE ${q('d')}.${q(TREE_PATH)} LIKE ${params.dialect.concat(`${q('np')}.${q(TREE_PATH)}`, "'%'")})`;
}

/** Separator in the hidden sort key: below every printable character, so a node precedes its children. */
const SORT_SEPARATOR = '\u0001';

/** Between the names of a node's display (TreeParentOptions.display). */
export const DISPLAY_SEPARATOR = ' → ';

/** A node's hidden tree columns, as placeTreeNode computes them. */
interface Placement {
  path: string;
  sort: string;
  /** Absent where the tree keeps no display. */
  display?: string;
}

/**
 * Recomputes a tree node's path of ids from the root, its sort key (depth-first, siblings by the
 * parent field's `sortBy`), its depth and, where the tree keeps one, its display, from its parent;
 * when any of them changed, its subtree's too.
 */
export async function placeTreeNode(db: Executor, field: FieldMeta, id: Id): Promise<void> {
  const model = field.model;
  const q = db.dialect.quote;
  const p = (n: number) => db.dialect.placeholder(n);
  const options = field.opts<TreeParentOptions>();
  const sortBy = options.sortBy ?? 'name';
  const displayBy = options.display;
  const cols = [q('id'), q(field.column as string), q(sortBy), q(TREE_PATH), q(TREE_SORT)];
  if (displayBy) cols.push(q(model.field(displayBy)?.column ?? displayBy), q(TREE_DISPLAY));
  const select = `SELECT ${cols.join(', ')} FROM ${q(model.table)}`;
  const placementOf = (row: Row): Placement => ({ path: String(row[3]), sort: String(row[4]), ...(displayBy ? { display: String(row[6]) } : {}) });
  // The depth column exists only where the model declares @TreeDepth; it follows from the path.
  const hasDepth = model.fields.some((f) => f.column === TREE_DEPTH);
  const depthOf = (treePath: string) => treePath.split('/').length - 3;
  const [self] = await db.rows(`${select} WHERE ${q('id')} = ${p(1)}`, [id]);
  if (!self) return;
  const parentId = self[1] as string | null;
  const placed: Placement = { path: `/${id}/`, sort: String(self[2]), ...(displayBy ? { display: String(self[5]) } : {}) };
  if (parentId !== null) {
    const [parentRow] = await db.rows(`${select} WHERE ${q('id')} = ${p(1)}`, [parentId]);
    const parent = placementOf(parentRow);
    if (parentId === id || parent.path.includes(`/${id}/`)) {
      throw new ValidationError({ [field.name]: ['A node cannot be made a descendant of itself.'] });
    }
    placed.path = `${parent.path}${id}/`;
    placed.sort = `${parent.sort}${SORT_SEPARATOR}${placed.sort}`;
    if (displayBy) placed.display = `${parent.display}${DISPLAY_SEPARATOR}${placed.display}`;
  }
  const old = placementOf(self);
  if (old.path === placed.path && old.sort === placed.sort && old.display === placed.display) return;
  const set = [TREE_PATH, TREE_SORT, ...(displayBy ? [TREE_DISPLAY] : []), ...(hasDepth ? [TREE_DEPTH] : [])];
  const update = `UPDATE ${q(model.table)} SET ${set.map((c, i) => `${q(c)} = ${p(i + 1)}`).join(', ')} WHERE ${q('id')} = ${p(set.length + 1)}`;
  const write = (node: Placement, nodeId: unknown) =>
    db.run(update, [node.path, node.sort, ...(displayBy ? [node.display] : []), ...(hasDepth ? [depthOf(node.path)] : []), nodeId]);
  await write(placed, id);
  if (old.path === '') return; // just created: no descendants yet
  const params = new Params(db.dialect);
  const descendants = await db.rows(
    `${select} WHERE ${q(TREE_PATH)} LIKE ${params.add(`${escapeLike(old.path)}%`)} ESCAPE '!' AND ${q('id')} <> ${params.add(id)}`,
    params.values,
  );
  // Each descendant's columns begin with the node's old ones: the node's new ones replace them.
  const moved = (value: string | undefined, from: string | undefined, to: string | undefined) => (value === undefined ? undefined : `${to}${value.slice((from as string).length)}`);
  for (const d of descendants) {
    const node = placementOf(d);
    await write({ path: moved(node.path, old.path, placed.path) as string, sort: moved(node.sort, old.sort, placed.sort) as string, display: moved(node.display, old.display, placed.display) }, d[0]);
  }
}
