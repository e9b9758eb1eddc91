/**
 * Which PostgreSQL statements run on the connections that plan once per statement
 * (plan_cache_mode = force_generic_plan).
 */

/**
 * Leads a statement whose writer knows one plan serves every value of its parameters although
 * not all are equalities: its filter compares by equality alone, and its only other parameters
 * are a page's window (LIMIT, OFFSET), for which the generic plan assumes a small part of the
 * rows, as a page is. A list's page with its rows joined in (see SnapshotCounting.countsWithRows)
 * reads a dozen tables: planned per call it cost 5–15 ms against 1–2 ms of running.
 */
export const PLANNED_ONCE = '/* planned once */ ';

/** A parameter compared by equality (`= $n`, `= ANY($n)`), not by range, pattern or limit. */
const EQUALITY_PARAM = /(?<![<>!])=\s*(?:ANY\(\s*)?\$\d+/g;
const ANY_PARAM = /\$\d+/g;

/**
 * Whether a statement's plan does not depend on its parameters' values: every parameter is
 * compared by equality (rows by key, nested objects by id list, tags of a page). PostgreSQL keeps
 * planning such statements anew on every call when their joins are many (a custom plan looks no
 * worse than the generic one), which cost a representation's SELECT 0.5–1 ms of planning against
 * 0.1 ms of running; statements filtering by ranges, patterns or limits keep their custom plans,
 * unless their writer marked them PLANNED_ONCE.
 */
export function plansAlike(sql: string): boolean {
  let alike = PLANS_ALIKE.get(sql);
  if (alike === undefined) {
    alike = sql.startsWith(PLANNED_ONCE) || (sql.match(ANY_PARAM)?.length ?? 0) === (sql.match(EQUALITY_PARAM)?.length ?? 0);
    // Decided once per SQL text (the generated texts are a bounded set, as for statement names).
    if (PLANS_ALIKE.size < 5000) PLANS_ALIKE.set(sql, alike);
  }
  return alike;
}
const PLANS_ALIKE = new Map<string, boolean>();
