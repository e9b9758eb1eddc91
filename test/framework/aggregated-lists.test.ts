/**
 * Tags are read by the statement that reads their objects. One object (a detail, a write's
 * response) and a page on SQLite or MySQL: a correlated subquery in the row. A page on PostgreSQL
 * read by its ids (bound as one array): a join of the page's tags grouped by object, with a loader
 * for rows read otherwise. What the forms read is compared over HTTP for every tagged model, and
 * the statements a page costs, in test/spec/query-count.test.ts.
 */
import 'reflect-metadata';
import { registryWith } from '../../app/database';
import { planFor } from '../../framework/serializer/representation';
import { sqliteDialect } from '../../framework/store/dialect/sqlite';
import { mysqlDialect } from '../../framework/store/dialect/mysql';
import { postgresDialect } from '../../framework/store/dialect/postgres';
import { LATEST_VERSION } from '../../framework/versioning/version';

const registry = registryWith([]);
const tagged = registry.routed.filter((m) => m.has('tags') && !m.field('tags')?.hidden);
const dialects = [
  ['SQLite', sqliteDialect],
  ['PostgreSQL', postgresDialect],
  ['MySQL', mysqlDialect],
] as const;

const tagLoaders = (keys: string[]) => keys.filter((k) => /\.tags:$/.test(k));

test.each(dialects)('%s: every tagged model\'s plans read its tags in their statements', (_name, dialect) => {
  expect(tagged.length).toBeGreaterThan(30);
  const taggedItems = dialect.quote('extras_taggeditem');
  for (const model of tagged) {
    const single = planFor(model, false, LATEST_VERSION, dialect, { single: true });
    const page = planFor(model, false, LATEST_VERSION, dialect);
    expect([model.label, tagLoaders(single.builder.loaders.map((l) => l.key))]).toEqual([model.label, []]);
    expect(single.select).toContain(taggedItems);
    if (dialect === postgresDialect) {
      // The loader stays for rows read by a condition; rows read by their ids carry the tags.
      expect([model.label, tagLoaders(page.builder.loaders.map((l) => l.key))]).toEqual([model.label, [`${model.label}.tags:`]]);
      expect(page.select).not.toContain(taggedItems);
      expect(page.selectByIds).toContain(taggedItems);
    } else {
      expect([model.label, tagLoaders(page.builder.loaders.map((l) => l.key))]).toEqual([model.label, []]);
      expect(page.select).toContain(taggedItems);
      expect(page.selectByIds).toBeUndefined();
    }
  }
});

test('PostgreSQL: a page read by its ids joins its tags grouped by object, bound to the same array', () => {
  const plan = planFor(registry.get('dcim.site')!, false, LATEST_VERSION, postgresDialect);
  expect(plan.selectByIds).toContain(
    `LEFT JOIN (SELECT "tgl"."object_id" AS "o", json_agg(json_build_array("tg0"."id", "tg0"."name", "tg0"."slug", "tg0"."color") ORDER BY "tg0"."name" COLLATE "C", "tg0"."id") AS "v" ` +
      `FROM "extras_tag" "tg0" JOIN "extras_taggeditem" "tgl" ON "tgl"."tag_id" = "tg0"."id" WHERE "tgl"."object_id" = ANY($1) AND "tgl"."content_type" = 'dcim.site' GROUP BY "tgl"."object_id") "tp0" ON "tp0"."o" = "t0"."id"`,
  );
  // The plain statement (rows read by a condition) keeps the loader.
  expect(plan.select).not.toContain('$1');
});

test('an address page on PostgreSQL reads the addresses whose NAT inside each is, with it', () => {
  const plan = planFor(registry.get('ipam.ipaddress')!, false, LATEST_VERSION, postgresDialect);
  expect(plan.selectByIds).toContain(`WHERE "tg0"."nat_inside_id" = ANY($1) GROUP BY "tg0"."nat_inside_id"`);
  const single = planFor(registry.get('ipam.ipaddress')!, false, LATEST_VERSION, sqliteDialect, { single: true });
  expect(single.builder.loaders.map((l) => l.key).filter((k) => k.includes('nat_outside'))).toEqual([]);
});

test('the aggregate is ordered as the tags are, and names the owner\'s type as a literal', () => {
  const plan = planFor(registry.get('dcim.site')!, false, LATEST_VERSION, postgresDialect, { single: true });
  expect(plan.select).toContain(`json_agg(json_build_array("tg0"."id", "tg0"."name", "tg0"."slug", "tg0"."color") ORDER BY "tg0"."name" COLLATE "C", "tg0"."id")`);
  expect(plan.select).toContain(`"tgl"."object_id" = "t0"."id" AND "tgl"."content_type" = 'dcim.site'`);
  // No parameter: the statement binds the same values as without the subquery.
  expect(plan.select).not.toMatch(/\$\d/);
});
