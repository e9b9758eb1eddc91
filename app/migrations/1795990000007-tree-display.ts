import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';
import { selectRows, tableColumn, updateRows, type ColumnSpec } from '../../framework/store/migration-schema';

/** The trees whose display is their names from the root down (TreeParentOptions.display). */
const TABLES = ['dcim_locationtype', 'dcim_location'];

const COLUMN: ColumnSpec = { name: '_tree_display', type: 'text' };

/** How the names are joined (framework/store/tree.ts DISPLAY_SEPARATOR when this was written). */
const SEPARATOR = ' → ';

/**
 * `_tree_display` of location types and locations: each node's display kept with the node, so
 * that a nested location is read with one join instead of one per ancestor. Added nullable,
 * filled from the names of each node's ancestors, then made NOT NULL as the entity declares it.
 */
export class TreeDisplay1795990000007 implements MigrationInterface {
  name = 'TreeDisplay1795990000007';

  async up(qr: QueryRunner): Promise<void> {
    for (const table of await qr.getTables(TABLES)) {
      const nullable = new TableColumn(tableColumn(qr, { ...COLUMN, nullable: true }));
      await qr.addColumn(table, nullable);
      for (const [id, display] of displays(await selectRows(qr, table.name, ['id', 'parent_id', 'name']))) {
        await updateRows(qr, table.name, { _tree_display: display }, { id });
      }
      await qr.changeColumn(table.name, nullable.name, new TableColumn(tableColumn(qr, COLUMN)));
    }
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const table of (await qr.getTables(TABLES)).reverse()) await qr.dropColumn(table, COLUMN.name);
  }
}

/** Each node's names from the root down, joined; a node whose chain loops (never written so) stops at the repeat. */
function displays(rows: Array<Record<string, unknown>>): Map<unknown, string> {
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  const out = new Map<unknown, string>();
  for (const row of rows) {
    const names: string[] = [];
    const seen = new Set<string>();
    for (let node: Record<string, unknown> | undefined = row; node && !seen.has(String(node.id)); node = byId.get(String(node.parent_id))) {
      seen.add(String(node.id));
      names.push(String(node.name));
    }
    out.set(row.id, names.reverse().join(SEPARATOR));
  }
  return out;
}
