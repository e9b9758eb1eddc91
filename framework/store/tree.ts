import { TREE_PATH } from '../fields/tree-columns';
import type { ModelMeta } from '../metadata/model-meta';
import type { Params } from './params';

/** Subquery: ids of the rows of a tree `model` that are one of the nodes `ids` or a descendant of one. */
export function descendantsOf(model: ModelMeta, ids: Array<string | number>, params: Params): string {
  const q = params.dialect.quote;
  const nodes = `SELECT ${q('n')}.${q(TREE_PATH)} FROM ${q(model.table)} ${q('n')} WHERE ${q('n')}.${q('id')} IN (${params.list(ids)})`;
  return `SELECT ${q('d')}.${q('id')} FROM ${q(model.table)} ${q('d')} WHERE EXISTS (SELECT 1 FROM (${nodes}) ${q('np')} WHERE ${q('d')}.${q(TREE_PATH)} LIKE ${params.dialect.concat(`${q('np')}.${q(TREE_PATH)}`, "'%'")})`;
}
