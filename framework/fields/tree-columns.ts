/** Hidden columns a tree model keeps besides its parent (see tree.ts). */
export const TREE_PATH = '_tree_path';
export const TREE_SORT = '_tree_sort';
export const TREE_DEPTH = '_depth';
/** Where the tree keeps a node's display (its ancestors' and its own names, from the root), when it declares one. */
export const TREE_DISPLAY = '_tree_display';
