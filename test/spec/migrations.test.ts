/**
 * The migrations, applied to an empty database, produce exactly the schema the model metadata
 * declares: TypeORM's schema builder finds nothing to change.
 */
import 'reflect-metadata';
import { coreRegistry, dataSourceFor, migrate } from '../../app/database';
import { freshDatabaseUrl } from '../helpers/database';

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
});

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
});
