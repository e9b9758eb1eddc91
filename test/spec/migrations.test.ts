import { CORE_MIGRATIONS } from '../../app/migrations';
/**
 * The migrations, applied to an empty database, produce exactly the schema the model metadata
 * declares: TypeORM's schema builder finds nothing to change.
 */
import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import { coreRegistry, dataSourceFor, migrate } from '../../app/database';
import { insertRows, selectRows } from '../../framework/store/migration-schema';
import { freshDatabaseUrl } from '../helpers/database';

// Each test applies every migration (and one undoes a part of them): DDL on MariaDB takes seconds
// a migration, and the migration list grows with the model set.
const MIGRATIONS_MS = 300_000;

/**
 * Runs `fn` on a fresh database migrated to just before `name` (every migration applied, then
 * `name` and every later one undone), with a query runner of its own.
 */
async function beforeMigration(name: string, fn: (ds: DataSource, qr: QueryRunner) => Promise<void>): Promise<void> {
  const ds = await dataSourceFor(await freshDatabaseUrl(), coreRegistry());
  await ds.initialize();
  const qr = ds.createQueryRunner();
  try {
    await migrate(ds);
    const at = CORE_MIGRATIONS.findIndex((m) => m.name === name);
    expect(at).toBeGreaterThan(0);
    for (let i = CORE_MIGRATIONS.length - 1; i >= at; i--) await ds.undoLastMigration({ transaction: 'each' });
    await fn(ds, qr);
  } finally {
    await qr.release();
    await ds.destroy();
  }
}

test('migrations produce exactly the schema the metadata declares', async () => {
  const ds = await dataSourceFor(await freshDatabaseUrl(), coreRegistry());
  await ds.initialize();
  try {
    const applied = await migrate(ds);
    expect(applied.length).toBeGreaterThan(0);
    const pending = await ds.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    expect(await migrate(ds)).toEqual([]);
  } finally {
    await ds.destroy();
  }
}, MIGRATIONS_MS);

test('the first migration seeds the built-in statuses', async () => {
  const ds = await dataSourceFor(await freshDatabaseUrl(), coreRegistry());
  await ds.initialize();
  try {
    await migrate(ds);
    const rows = (await ds.query('SELECT slug FROM extras_status ORDER BY slug')) as Array<{ slug: string }>;
    expect(rows.map((r) => r.slug)).toEqual([
      'active', 'available', 'connected', 'container', 'decommissioned', 'decommissioning', 'deprecated', 'deprovisioning',
      'dhcp', 'failed', 'inventory', 'maintenance', 'offline', 'planned', 'provisioning', 'reserved', 'retired', 'slaac',
      'staged', 'staging',
    ]);
  } finally {
    await ds.destroy();
  }
}, MIGRATIONS_MS);

// Undoes and redoes some twenty migrations: over a minute on MariaDB on a busy machine.
test('built-in statuses of devices, interfaces, VMs and VM interfaces; undone and redone by their migration', async () => {
  const ds = await dataSourceFor(await freshDatabaseUrl(), coreRegistry());
  await ds.initialize();
  const statusesOf = async (label: string): Promise<string[]> => {
    const rows = (await ds.query('SELECT slug, content_types FROM extras_status')) as Array<{ slug: string; content_types: string }>;
    return rows.filter((r) => (JSON.parse(r.content_types) as string[]).includes(label)).map((r) => r.slug).sort();
  };
  const expected: Record<string, string[]> = {
    'dcim.device': ['active', 'decommissioning', 'failed', 'inventory', 'offline', 'planned', 'staged'],
    'dcim.interface': ['active', 'decommissioning', 'failed', 'maintenance', 'planned'],
    'virtualization.virtualmachine': ['active', 'decommissioning', 'failed', 'offline', 'planned', 'staged'],
    'virtualization.vminterface': ['active', 'decommissioning', 'failed', 'maintenance', 'planned'],
  };
  try {
    await migrate(ds);
    for (const [label, slugs] of Object.entries(expected)) expect(await statusesOf(label)).toEqual(slugs);

    // Undone: the models' content types leave the statuses; statuses only they used go.
    // Undo down to (and including) the migration that added these models.
    const later = CORE_MIGRATIONS.length - CORE_MIGRATIONS.findIndex((m) => m.name.startsWith('AddDcimVirtualization'));
    for (let i = 0; i < later; i++) await ds.undoLastMigration({ transaction: 'each' });
    for (const label of Object.keys(expected)) expect(await statusesOf(label)).toEqual([]);
    const slugs = ((await ds.query('SELECT slug FROM extras_status')) as Array<{ slug: string }>).map((r) => r.slug);
    for (const gone of ['inventory', 'maintenance', 'staged']) expect(slugs).not.toContain(gone);
    expect(await statusesOf('dcim.powerfeed')).toEqual(['active', 'failed', 'offline', 'planned']);
    expect(await statusesOf('dcim.site')).toEqual(['active', 'decommissioning', 'planned', 'retired', 'staging']);

    // Redone: existing statuses gain the content types again, missing ones are created.
    await migrate(ds);
    for (const [label, slugs] of Object.entries(expected)) expect(await statusesOf(label)).toEqual(slugs);
    const [inventory] = (await ds.query("SELECT name, color FROM extras_status WHERE slug = 'inventory'")) as Array<{ name: string; color: string }>;
    expect(inventory).toEqual({ name: 'Inventory', color: '9e9e9e' });
  } finally {
    await ds.destroy();
  }
}, MIGRATIONS_MS);

test('the cable path node index is filled from the paths stored before it', async () => {
  await beforeMigration('CablePathNodes1795990000004', async (ds, qr) => {
    const [c1, c2, front, rear] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const path = (id: string, text: string) => ({
      id, origin_type: 'dcim.interface', origin_id: randomUUID(), destination_type: '', destination_id: null, path: text, is_active: false, is_split: false,
    });
    const [through, sharing, bare] = [randomUUID(), randomUUID(), randomUUID()];
    await insertRows(qr, 'dcim_cablepath', [
      path(through, `dcim.cable:${c1},dcim.frontport:${front},dcim.rearport:${rear}`),
      path(sharing, `dcim.cable:${c2},dcim.rearport:${rear}`),
      path(bare, ''),
    ]);
    await migrate(ds);
    const rows = await selectRows(qr, 'dcim_cablepathnode', ['cable_path_id', 'node']);
    expect(rows.map((r) => `${String(r.cable_path_id)} ${String(r.node)}`).sort()).toEqual([
      `${through} dcim.cable:${c1}`, `${through} dcim.frontport:${front}`, `${through} dcim.rearport:${rear}`,
      `${sharing} dcim.cable:${c2}`, `${sharing} dcim.rearport:${rear}`,
    ].sort());
  });
}, MIGRATIONS_MS);

test('the tree displays of location types and locations are filled from the names of their ancestors', async () => {
  await beforeMigration('TreeDisplay1795990000007', async (ds, qr) => {
    const common = { created: '2026-01-01', last_updated: '2026-01-01 00:00:00.000', _custom_field_data: '{}', description: '', _tree_sort: '', _tree_path: '', _depth: 0 };
    const [building, floor] = [randomUUID(), randomUUID()];
    await insertRows(qr, 'dcim_locationtype', [
      { ...common, id: building, name: 'Building', slug: 'building', nestable: false, content_types: '[]', parent_id: null },
    ]);
    await insertRows(qr, 'dcim_locationtype', [
      { ...common, id: floor, name: 'Floor', slug: 'floor', nestable: true, content_types: '[]', parent_id: building },
    ]);
    const [status] = await selectRows(qr, 'extras_status', ['id'], { slug: 'active' });
    const [b1, f1, f2] = [randomUUID(), randomUUID(), randomUUID()];
    const loc = (id: string, name: string, type: string, parent: string | null) => ({
      ...common, id, name, _name: name, slug: name.toLowerCase(), status_id: status.id, location_type_id: type, parent_id: parent, site_id: null, tenant_id: null,
    });
    await insertRows(qr, 'dcim_location', [loc(b1, 'B1', building, null)]);
    await insertRows(qr, 'dcim_location', [loc(f1, 'F1', floor, b1)]);
    await insertRows(qr, 'dcim_location', [loc(f2, 'F2', floor, f1)]);
    await migrate(ds);
    const displays = async (table: string) =>
      Object.fromEntries((await selectRows(qr, table, ['id', '_tree_display'])).map((r) => [String(r.id), r._tree_display]));
    expect(await displays('dcim_locationtype')).toEqual({ [building]: 'Building', [floor]: 'Building → Floor' });
    expect(await displays('dcim_location')).toEqual({ [b1]: 'B1', [f1]: 'B1 → F1', [f2]: 'B1 → F1 → F2' });
  });
}, MIGRATIONS_MS);
