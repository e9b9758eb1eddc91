/**
 * A plan that reads one object (a detail, a write's response) reads its tags within its own
 * statement, on every database; a page's plan keeps one statement for the whole page's tags.
 * What the two read is compared over HTTP for every tagged model in test/spec/query-count.test.ts.
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

test.each(dialects)('%s: every tagged model\'s single-object plan reads its tags in its statement', (_name, dialect) => {
  expect(tagged.length).toBeGreaterThan(30);
  for (const model of tagged) {
    const single = planFor(model, false, LATEST_VERSION, dialect, { single: true });
    const page = planFor(model, false, LATEST_VERSION, dialect);
    expect([model.label, tagLoaders(single.builder.loaders.map((l) => l.key))]).toEqual([model.label, []]);
    expect([model.label, tagLoaders(page.builder.loaders.map((l) => l.key))]).toEqual([model.label, [`${model.label}.tags:`]]);
    expect(single.select).toContain(dialect.quote('extras_taggeditem'));
    expect(page.select).not.toContain(dialect.quote('extras_taggeditem'));
  }
});

test('the aggregate is ordered as the tags are, and names the owner\'s type as a literal', () => {
  const plan = planFor(registry.get('dcim.site')!, false, LATEST_VERSION, postgresDialect, { single: true });
  expect(plan.select).toContain(`json_agg(json_build_array("tg0"."id", "tg0"."name", "tg0"."slug", "tg0"."color") ORDER BY "tg0"."name" COLLATE "C", "tg0"."id")`);
  expect(plan.select).toContain(`"tgl"."object_id" = "t0"."id" AND "tgl"."content_type" = 'dcim.site'`);
  // No parameter: the statement binds the same values as without the subquery.
  expect(plan.select).not.toMatch(/\$\d/);
});
