import { ValidationError } from '../errors';
import type { TreeParentOptions } from '../fields/tree';
import { TREE_DEPTH, TREE_PATH, TREE_SORT } from '../fields/tree-columns';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { escapeLike } from './dialect/types';
import type { Executor } from './executor';
import { Params } from './params';

/** Subquery: ids of the rows of a tree `model` that are one of the nodes `ids` or a descendant of one. */
export function descendantsOf(model: ModelMeta, ids: Array<string | number>, params: Params): string {
  const q = params.dialect.quote;
  const nodes = `SELECT ${q('n')}.${q(TREE_PATH)} FROM ${q(model.table)} ${q('n')} WHERE ${params.in(`${q('n')}.${q('id')}`, ids)}`;
  return `SELECT ${q('d')}.${q('id')} FROM ${q(model.table)} ${q('d')} WHERE EXISTS (SELECT 1 FROM (${nodes}) ${q('np')} WHERE ${q('d')}.${q(TREE_PATH)} LIKE ${params.dialect.concat(`${q('np')}.${q(TREE_PATH)}`, "'%'")})`;
}

/** Separator in the hidden sort key: below every printable character, so a node precedes its children. */
const SORT_SEPARATOR = '\u0001';

/**
 * Recomputes a tree node's path of ids from the root, its sort key (depth-first, siblings by the
 * parent field's `sortBy`) and its depth, from its parent; when the node moved, its subtree's too.
 */
export async function placeTreeNode(db: Executor, field: FieldMeta, id: Id): Promise<void> {
  const model = field.model;
  const q = db.dialect.quote;
  const p = (n: number) => db.dialect.placeholder(n);
  const sortBy = field.opts<TreeParentOptions>().sortBy ?? 'name';
  const cols = `${q('id')}, ${q(field.column as string)}, ${q(sortBy)}, ${q(TREE_PATH)}, ${q(TREE_SORT)}`;
  // The depth column exists only where the model declares @TreeDepth; it follows from the path.
  const hasDepth = model.fields.some((f) => f.column === TREE_DEPTH);
  const depthOf = (treePath: string) => treePath.split('/').length - 3;
  const [self] = await db.rows(`SELECT ${cols} FROM ${q(model.table)} WHERE ${q('id')} = ${p(1)}`, [id]);
  if (!self) return;
  const parentId = self[1] as string | null;
  let path = `/${id}/`;
  let sort = String(self[2]);
  if (parentId !== null) {
    const [parent] = await db.rows(`SELECT ${cols} FROM ${q(model.table)} WHERE ${q('id')} = ${p(1)}`, [parentId]);
    const parentPath = String(parent[3]);
    if (parentId === id || parentPath.includes(`/${id}/`)) {
      throw new ValidationError({ [field.name]: ['A node cannot be made a descendant of itself.'] });
    }
    path = `${parentPath}${id}/`;
    sort = `${parent[4]}${SORT_SEPARATOR}${sort}`;
  }
  const oldPath = String(self[3]);
  const oldSort = String(self[4]);
  if (oldPath === path && oldSort === sort) return;
  const update = hasDepth
    ? `UPDATE ${q(model.table)} SET ${q(TREE_PATH)} = ${p(1)}, ${q(TREE_SORT)} = ${p(2)}, ${q(TREE_DEPTH)} = ${p(3)} WHERE ${q('id')} = ${p(4)}`
    : `UPDATE ${q(model.table)} SET ${q(TREE_PATH)} = ${p(1)}, ${q(TREE_SORT)} = ${p(2)} WHERE ${q('id')} = ${p(3)}`;
  const write = (nodePath: string, nodeSort: string, nodeId: unknown) =>
    db.run(update, hasDepth ? [nodePath, nodeSort, depthOf(nodePath), nodeId] : [nodePath, nodeSort, nodeId]);
  await write(path, sort, id);
  if (oldPath === '') return; // just created: no descendants yet
  const params = new Params(db.dialect);
  const descendants = await db.rows(
    `SELECT ${cols} FROM ${q(model.table)} WHERE ${q(TREE_PATH)} LIKE ${params.add(`${escapeLike(oldPath)}%`)} ESCAPE '!' AND ${q('id')} <> ${params.add(id)}`,
    params.values,
  );
  for (const d of descendants) {
    await write(path + String(d[3]).slice(oldPath.length), sort + String(d[4]).slice(oldSort.length), d[0]);
  }
}
