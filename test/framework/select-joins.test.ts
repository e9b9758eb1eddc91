/**
 * A list's ids are read with only the joins its ordering and filter name: the representation's
 * joins for nested objects stay in the statement that reads the page's objects. A join that
 * another hangs from comes with it.
 */
import 'reflect-metadata';
import { registryWith } from '../../app/database';
import { planFor } from '../../framework/serializer/representation';
import { sqliteDialect } from '../../framework/store/dialect/sqlite';
import { mysqlDialect } from '../../framework/store/dialect/mysql';
import { LATEST_VERSION } from '../../framework/versioning/version';

const registry = registryWith([]);

test('a device list ordered by its own columns needs none of the representation\'s joins', () => {
  const plan = planFor(registry.get('dcim.device')!, false, LATEST_VERSION, sqliteDialect);
  expect(plan.builder.joins.length).toBeGreaterThan(10);
  expect(plan.builder.joinsFor(plan.orderBy, '1=1')).toEqual([]);
});

test.each([
  ['SQLite', sqliteDialect],
  ['MySQL', mysqlDialect],
])('%s: a joined alias named by the ordering brings its own join and those it hangs from', (_name, dialect) => {
  const plan = planFor(registry.get('dcim.device')!, false, LATEST_VERSION, dialect);
  const q = dialect.quote;
  // The manufacturer of the device type hangs from the device type's join.
  const manufacturer = plan.builder.joins.findIndex((j) => j.includes(`${q('dcim_manufacturer')}`));
  const alias = /(t\d+)/.exec(plan.builder.joins[manufacturer].split(' ON ')[0].split(' ').pop() as string)![1];
  const needed = plan.builder.joinsFor(`${q(alias)}.${q('name')}`);
  expect(needed).toHaveLength(2);
  expect(needed[0]).toContain(q('dcim_devicetype'));
  expect(needed[1]).toBe(plan.builder.joins[manufacturer]);
  // `t1` named does not bring `t10`…`t19`.
  expect(plan.builder.joinsFor(`${q('t1')}.${q('name')}`)).toEqual([plan.builder.joins[0]]);
});

test('interfaces ordered by their device\'s name: the device join alone', () => {
  const plan = planFor(registry.get('dcim.interface')!, false, LATEST_VERSION, sqliteDialect);
  const joins = plan.builder.joinsFor(plan.orderBy, '1=1');
  expect(joins).toHaveLength(1);
  expect(joins[0]).toContain('"dcim_device"');
});
