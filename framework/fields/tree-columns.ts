/** Hidden columns a tree model keeps besides its parent (see tree.ts). */
export const TREE_PATH = '_tree_path';
export const TREE_SORT = '_tree_sort';
export const TREE_DEPTH = '_depth';
