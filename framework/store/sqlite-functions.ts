import type BetterSqlite3 from 'better-sqlite3';
import { RE2JS } from 're2js';

const compiled = new Map<string, RE2JS>();

/** Compiles a pattern with RE2 semantics (linear time, no backtracking), caching the result. */
export function compileRegex(pattern: string, caseInsensitive: boolean): RE2JS {
  const key = `${caseInsensitive ? 'i' : 's'}:${pattern}`;
  let re = compiled.get(key);
  if (!re) {
    re = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
    compiled.set(key, re);
    if (compiled.size > 500) compiled.delete(compiled.keys().next().value as string);
  }
  return re;
}

/**
 * Unicode lower case one character at a time, as PostgreSQL (UTF-8 ctype) and MariaDB do:
 * JavaScript's toLowerCase alone would apply the context rule for a word-final sigma (Σ → ς)
 * and turn İ into two characters, so the same filter would match different rows.
 */
export function simpleLower(value: string): string {
  if (/^[\x00-\x7f]*$/.test(value)) return value.toLowerCase();
  let out = '';
  for (const ch of value) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : (String.fromCodePoint(lower.codePointAt(0) as number));
  }
  return out;
}

/**
 * Functions every SQLite connection needs: Unicode-aware `lower` (SQLite's own folds ASCII only)
 * and a linear-time regular expression matcher, so filters behave as on PostgreSQL and MySQL.
 */
export function registerSqliteFunctions(db: BetterSqlite3.Database): void {
  db.function('lower', { deterministic: true }, (value: unknown) => (typeof value === 'string' ? simpleLower(value) : value));
  // LIKE is case-sensitive everywhere; the i-lookups lower both sides explicitly.
  db.pragma('case_sensitive_like = ON');
  db.function('netinv_regexp', { deterministic: true }, (value: unknown, pattern: unknown, ci: unknown) => {
    if (value === null || value === undefined) return null;
    return compileRegex(String(pattern), ci === 1).test(String(value)) ? 1 : 0;
  });
}
