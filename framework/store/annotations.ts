import type { CountSpec } from '../fields/kind';
import { TREE_PATH } from '../fields/tree-columns';
import type { ModelMeta } from '../metadata/model-meta';
import type { Dialect } from './dialect/types';

/** The row a count is computed for: its model and its quoted alias in the SELECT. */
interface CountedRow {
  readonly model: ModelMeta;
  readonly dialect: Dialect;
}

/**
 * A correlated subquery counting the rows related to the object at `alias` (quoted), as one
 * column of the page's single SELECT. Its aliases are derived from the count's name.
 */
export function countExpression(spec: CountSpec, row: CountedRow, alias: string): string {
  const q = row.dialect.quote;
  const c = q(`${spec.name}_c`);
  const pk = `${alias}.${q(row.model.pk.column as string)}`;
  switch (spec.kind) {
    case 'generic': {
      // The label is the model's own (registry metadata), never client input.
      const label = `'${row.model.label.replace(/'/g, "''")}'`;
      return `(SELECT COUNT(*) FROM ${q(spec.target.table)} ${c} WHERE ${c}.${q(spec.type.column as string)} = ${label} AND ${c}.${q(spec.id.column as string)} = ${pk})`;
    }
    case 'links':
      // Many-to-many: rows of the link table pointing at this object.
      return `(SELECT COUNT(*) FROM ${q(spec.link.table)} ${c} WHERE ${c}.${q(spec.link.target)} = ${pk})`;
    case 'path': {
      const { hops, target } = spec;
      const fk = hops[0];
      if (hops.length > 1) {
        // Innermost: ids of the last hop's model pointing at this row; each outer hop selects by those.
        let ids = pk;
        for (let h = hops.length - 1; h >= 1; h--) {
          const hop = hops[h];
          const a = q(`${spec.name}_h${h}`);
          ids = `SELECT ${a}.${q(hop.model.pk.column as string)} FROM ${q(hop.model.table)} ${a} WHERE ${a}.${q(hop.column as string)} ${h === hops.length - 1 ? '=' : 'IN'} (${ids})`;
        }
        return `(SELECT COUNT(*) FROM ${q(target.table)} ${c} WHERE ${c}.${q(fk.column as string)} IN (${ids}))`;
      }
      if (!spec.subtree) {
        return `(SELECT COUNT(*) FROM ${q(target.table)} ${c} WHERE ${c}.${q(fk.column as string)} = ${pk})`;
      }
      const d = q(`${spec.name}_d`);
      const path = q(TREE_PATH);
      return (
        `(SELECT COUNT(*) FROM ${q(target.table)} ${c} WHERE ${c}.${q(fk.column as string)} IN ` +
        `(SELECT ${d}.${q('id')} FROM ${q(row.model.table)} ${d} WHERE ${d}.${path} LIKE ${row.dialect.concat(`${alias}.${path}`, "'%'")}))`
      );
    }
  }
}
