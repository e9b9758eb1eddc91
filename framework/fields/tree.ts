import { Index, JoinColumn, ManyToOne } from 'typeorm';
import type { FieldMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions } from '../metadata/types';
import { applyColumn } from './common';
import { foreignKeyKind } from './foreign-key';
import { integerKind } from './integer';
import type { FieldKind } from './kind';
import { TREE_DEPTH, TREE_DISPLAY, TREE_PATH, TREE_SORT } from './tree-columns';

export interface TreeParentOptions extends FieldOptions {
  /** Field ordering siblings (default `name`). */
  sortBy?: string;
  related?: string;
  /** Read as the bare id of the parent, not its nested form (inventory items). */
  asId?: boolean;
  /**
   * The field whose values from the root down, joined by ` → `, make the node's `display`: kept in
   * a hidden column (TREE_DISPLAY) rewritten with the subtree's, so that reading the display of a
   * nested node costs no join per ancestor, however deep the tree.
   */
  display?: string;
}

export { TREE_PATH, TREE_SORT, TREE_DEPTH, TREE_DISPLAY };

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
    await wc.store.placeTreeNode(field, id);
  },
};

export interface TreeDepthOptions extends FieldOptions {
  /** Null when the object is embedded in another and in create responses (Nautobot's `tree_depth`). */
  computedOnReads?: boolean;
}

/** `_depth`: read-only tree level, 0 for roots, present in nested forms too. */
export const treeDepthKind: FieldKind = {
  ...integerKind,
  name: 'tree-depth',
  decorate(proto, property) {
    applyColumn(proto, property, { name: TREE_DEPTH, type: 'integer', nullable: false });
  },
  column: () => TREE_DEPTH,
  reader(field, scope, mode) {
    // Locations and their types compute the depth only when reading their own endpoint
    // (django-tree-queries): embedded in another object, and in a create's response, it is null.
    const onlyOnReads = field.opts<TreeDepthOptions>().computedOnReads === true;
    if (mode.nested && onlyOnReads) return () => null;
    const i = scope.column(TREE_DEPTH);
    return (row, rc) => (row[i] === null || row[i] === undefined || (onlyOnReads && rc.creating) ? null : Number(row[i]));
  },
  parse: undefined,
  store: (_field, value) => ({ [TREE_DEPTH]: value ?? 0 }),
  defaultValue: () => 0,
  lookups: undefined,
};
