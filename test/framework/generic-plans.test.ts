/**
 * Which statements PostgreSQL runs on the connections that plan once (plan_cache_mode =
 * force_generic_plan): those whose every parameter is compared by equality, whose plan cannot
 * depend on the values; a range, a pattern, a limit or an inequality keeps per-call planning,
 * unless the statement's writer marked it as planned once.
 */
import { plansAlike } from '../../framework/store/executor';
import { PLANNED_ONCE } from '../../framework/store/generic-plans';

test.each([
  ['SELECT "a" FROM "t" WHERE "id" = ANY($1)', true],
  ['SELECT "a" FROM "t" WHERE "id" = $1', true],
  ['SELECT "a" FROM "t" "t0" JOIN "l" ON "l"."x" = "t0"."id" WHERE "l"."o" = ANY( $1) AND "l"."c" = $2 ORDER BY "t0"."name"', true],
  ['SELECT 1 FROM "t"', true],
  ['SELECT "a" FROM "t" WHERE "x" >= $1 AND "x" <= $2', false],
  ['SELECT "a" FROM "t" WHERE "x" = $1 AND "y" > $2', false],
  ['SELECT "a" FROM "t" WHERE "x" = $1 ORDER BY "a" LIMIT $2 OFFSET $3', false],
  ['SELECT "a" FROM "t" WHERE "x" LIKE $1', false],
  ['SELECT "a" FROM "t" WHERE "x" <> $1', false],
  ['SELECT "a" FROM "t" WHERE "x" != $1', false],
  ['SELECT "a" FROM "t" WHERE "x" ~ $1', false],
  // Its writer knows the window is all that is not an equality (a page read in one statement).
  [`${PLANNED_ONCE}SELECT "a" FROM "t" WHERE "x" = $1 ORDER BY "a" LIMIT $2 OFFSET $3`, true],
])('%s: %s', (sql, expected) => {
  expect(plansAlike(sql)).toBe(expected);
});
