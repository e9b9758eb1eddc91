import { randomUUID } from 'node:crypto';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createTable, insertManyRows, selectRows } from '../../framework/store/migration-schema';

/**
 * The node index of cable paths (dcim.cablepathnode): one row per node of each stored path, so
 * that the paths through a cable or port are found by an index lookup instead of a text search
 * over every path. Existing paths get their rows from their `path` text.
 */
export class CablePathNodes1795990000004 implements MigrationInterface {
  name = 'CablePathNodes1795990000004';

  async up(qr: QueryRunner): Promise<void> {
    await createTable(qr, {
      name: 'dcim_cablepathnode',
      columns: [
        { name: 'id', type: 'uuid', primary: true },
        { name: 'node', type: 'varchar', length: '150' },
        { name: 'cable_path_id', type: 'uuid', references: true },
        { name: '_version', type: 'integer', default: 1 },
      ],
      indices: [
        { columns: ['cable_path_id'] },
      ],
      uniques: [
        { columns: ['node', 'cable_path_id'] },
      ],
      foreignKeys: [
        { columns: ['cable_path_id'], referencedTable: 'dcim_cablepath', referencedColumns: ['id'], onDelete: 'NO ACTION', onUpdate: 'NO ACTION' },
      ],
    });
    await insertManyRows(qr, 'dcim_cablepathnode', nodeRowsOf(await selectRows(qr, 'dcim_cablepath', ['id', 'path'])));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('dcim_cablepathnode');
  }
}

/**
 * The node rows of stored paths. `path` is `label:id` texts joined by commas (as the cable trace
 * wrote it when this migration was written: kept here so that later changes to the model code
 * cannot change what this migration does); a repeated node gets one row.
 */
function nodeRowsOf(paths: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  for (const p of paths) {
    const text = String(p.path ?? '');
    if (!text) continue;
    for (const node of new Set(text.split(','))) rows.push({ id: randomUUID(), node, cable_path_id: p.id, _version: 1 });
  }
  return rows;
}
