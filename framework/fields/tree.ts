import { Index, JoinColumn, ManyToOne } from 'typeorm';
import { Params } from '../store/params';
import { ValidationError } from '../errors';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions } from '../metadata/types';
import type { WriteContext } from '../serializer/write-context';
import { applyColumn } from './common';
import { foreignKeyKind } from './foreign-key';
import { integerKind } from './integer';
import type { FieldKind } from './kind';
import { TREE_DEPTH, TREE_PATH, TREE_SORT } from './tree-columns';

export interface TreeParentOptions extends FieldOptions {
  /** Field ordering siblings (default `name`). */
  sortBy?: string;
  related?: string;
}

/** Separator in the hidden sort key: below every printable character, so a node precedes its children. */
const SORT_SEPARATOR = '\u0001';

export { TREE_PATH, TREE_SORT, TREE_DEPTH };

/**
 * The `parent` of a tree model (regions, tenant groups). Besides the foreign key it maintains three
 * hidden columns: the path of ids from the root (descendant filters), a sort key (depth-first
 * order with siblings by name) and the depth, updated for the whole subtree when a node moves.
 */
export const treeParentKind: FieldKind & ResolvingKind = {
  ...foreignKeyKind,
  name: 'tree-parent',
  treeParent: true,
  afterEverySave: true,
  decorate(proto, property, options: TreeParentOptions) {
    const cls = (proto as { constructor: Function }).constructor;
    ManyToOne(() => cls, { nullable: true, onDelete: 'NO ACTION', onUpdate: 'NO ACTION' })(proto, property);
    JoinColumn({ name: options.column ?? `${property}_id` })(proto, property);
    Index()(proto, property);
  },
  resolve(field: FieldMeta, registry: Registry) {
    field.target = field.model;
    void registry;
  },
  async afterWrite(field, id, _value, wc) {
    await placeNode(field, id, wc);
  },
};

async function placeNode(field: FieldMeta, id: string | number, wc: WriteContext): Promise<void> {
  const model = field.model;
  const q = wc.tx.dialect.quote;
  const p = (n: number) => wc.tx.dialect.placeholder(n);
  const sortBy = field.opts<TreeParentOptions>().sortBy ?? 'name';
  const cols = `${q('id')}, ${q(field.column as string)}, ${q(sortBy)}, ${q(TREE_PATH)}, ${q(TREE_SORT)}`;
  // The depth column exists only where the model declares @TreeDepth; it follows from the path.
  const hasDepth = model.fields.some((f) => f.column === TREE_DEPTH);
  const depthOf = (treePath: string) => treePath.split('/').length - 3;
  const [self] = await wc.tx.rows(`SELECT ${cols} FROM ${q(model.table)} WHERE ${q('id')} = ${p(1)}`, [id]);
  if (!self) return;
  const parentId = self[1] as string | null;
  let path = `/${id}/`;
  let sort = String(self[2]);
  if (parentId !== null) {
    const [parent] = await wc.tx.rows(`SELECT ${cols} FROM ${q(model.table)} WHERE ${q('id')} = ${p(1)}`, [parentId]);
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
    wc.tx.run(update, hasDepth ? [nodePath, nodeSort, depthOf(nodePath), nodeId] : [nodePath, nodeSort, nodeId]);
  await write(path, sort, id);
  if (oldPath === '') return; // just created: no descendants yet
  const params = new Params(wc.tx.dialect);
  const descendants = await wc.tx.rows(
    `SELECT ${cols} FROM ${q(model.table)} WHERE ${q(TREE_PATH)} LIKE ${params.add(`${oldPath.replace(/[!%_]/g, (c) => `!${c}`)}%`)} ESCAPE '!' AND ${q('id')} <> ${params.add(id)}`,
    params.values,
  );
  for (const d of descendants) {
    await write(path + String(d[3]).slice(oldPath.length), sort + String(d[4]).slice(oldSort.length), d[0]);
  }
}

/** `_depth`: read-only tree level, 0 for roots, present in nested forms too. */
export const treeDepthKind: FieldKind = {
  ...integerKind,
  name: 'tree-depth',
  decorate(proto, property) {
    applyColumn(proto, property, { name: TREE_DEPTH, type: 'integer', nullable: false });
  },
  column: () => TREE_DEPTH,
  parse: undefined,
  store: (_field, value) => ({ [TREE_DEPTH]: value ?? 0 }),
  defaultValue: () => 0,
  lookups: undefined,
};
