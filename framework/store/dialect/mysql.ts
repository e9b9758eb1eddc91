import { jsonKeyPath, type Dialect, type ForeignKeyViolation, type UniqueViolation } from './types';

/** MySQL 8 error numbers of ICU's regular-expression engine that mean "too expensive". */
const ICU_REGEX_LIMITS = new Set([3698 /* ER_REGEXP_STACK_OVERFLOW */, 3699 /* ER_REGEXP_TIME_OUT */]);

function errno(err: unknown): number | undefined {
  return (err as { errno?: number })?.errno;
}

/** The executor's RegexLimitError: the engine gave up on a pattern (backtracking limit). */
function regexLimit(err: unknown): boolean {
  return (err as { code?: string })?.code === 'NETINV_REGEX_LIMIT';
}

/** What MySQL 8 and MariaDB share; they differ in their regex engines and statement time limits. */
const common: Omit<Dialect, 'regexSyntax' | 'withTimeout' | 'isTimeout' | 'isBadRegex'> = {
  name: 'mysql',
  quote: (id) => `\`${id.replace(/`/g, '``')}\``,
  placeholder: () => '?',
  unplanned: (placeholder) => placeholder,
  lower: (expr) => `LOWER(${expr})`,
  text: (expr) => expr,
  like: (expr, pattern) => `${expr} LIKE ${pattern} ESCAPE '!'`,
  // Tables use a binary collation, so REGEXP is case-sensitive unless the pattern says (?i).
  regex: (expr, pattern) => `${expr} REGEXP ${pattern}`,
  regexValue: (pattern, ci) => (ci ? `(?i)${pattern}` : pattern),
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
  serialWrites: false,
  idsFirstAbove: 100,
  rowValueRanges: false,
  orderText: (expr) => expr,
  // GROUP_CONCAT, not JSON_ARRAYAGG: MySQL's takes no ORDER BY (its length limit is raised per session).
  jsonRowsAgg: (items, order) => `CONCAT('[', GROUP_CONCAT(JSON_ARRAY(${items.join(', ')}) ORDER BY ${order} SEPARATOR ','), ']')`,
  jsonAggParsed: false,
  analyze: (table) => `ANALYZE TABLE \`${table.replace(/`/g, '``')}\``,
  concat: (...exprs) => `CONCAT(${exprs.join(', ')})`,
  // Prepared statements take 65,535 parameters; the executor sends a statement with more as text
  // (mysql2's query() writes the values into it, bounded by max_allowed_packet only), so lists
  // stay value by value.
  maxBoundValues: 60_000,
  bool: (value) => (value ? 1 : 0),
  uniqueViolation(err: unknown): UniqueViolation | null {
    const e = err as { code?: string; sqlMessage?: string; message?: string };
    if (e?.code !== 'ER_DUP_ENTRY') return null;
    const m = /for key '(?:[^'.]*\.)?([^']+)'/.exec(e.sqlMessage ?? e.message ?? '');
    return { constraint: m?.[1] };
  },
  // 1451/1217: a parent row still referenced; 1452/1216: no parent row. The message names the child table and columns.
  foreignKeyViolation(err: unknown): ForeignKeyViolation | null {
    const n = errno(err);
    const referenced = n === 1451 || n === 1217;
    if (!referenced && n !== 1452 && n !== 1216) return null;
    const e = err as { sqlMessage?: string; message?: string };
    const m = /\(`(?:[^`]*)`\.`([^`]+)`, CONSTRAINT `[^`]*` FOREIGN KEY \(([^)]+)\)/.exec(e.sqlMessage ?? e.message ?? '');
    return { referenced, table: m?.[1], columns: m ? m[2].split(',').map((c) => c.trim().replace(/^`|`$/g, '')) : undefined };
  },
  // 1213 ER_LOCK_DEADLOCK: InnoDB rolled back the whole transaction. (A lock wait timeout, 1205,
  // undoes only the statement, so it is not one.)
  isDeadlock: (err) => errno(err) === 1213,
  // JSON_UNQUOTE turns a JSON null into the text 'null': the type is checked first.
  jsonText: (expr, key, bind) =>
    `CASE WHEN JSON_TYPE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) = 'NULL' THEN NULL ` +
    `ELSE JSON_UNQUOTE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) END`,
  jsonNumber: (expr, key, bind) =>
    `CASE WHEN JSON_TYPE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) IN ('INTEGER', 'UNSIGNED INTEGER', 'DOUBLE', 'DECIMAL') ` +
    `THEN JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))}) + 0 END`,
  jsonArrayHas: (expr, key, value, bind) =>
    `(JSON_TYPE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) = 'ARRAY' AND JSON_CONTAINS(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))}), JSON_QUOTE(${bind(value)})))`,
  // The candidate is JSON text: the number's decimal form.
  jsonListHasNumber: (expr, value, bind) => `(JSON_TYPE(${expr}) = 'ARRAY' AND JSON_CONTAINS(${expr}, ${bind(String(value))}))`,
  jsonSet: (expr, key, json, bind) => `JSON_SET(${expr}, ${bind(jsonKeyPath(key))}, JSON_EXTRACT(${bind(json)}, '$'))`,
  jsonRemove: (expr, key, bind) => `JSON_REMOVE(${expr}, ${bind(jsonKeyPath(key))})`,
};

/** MariaDB: PCRE2 regular expressions; `SET STATEMENT max_statement_time` bounds one statement. */
export const mariadbDialect: Dialect = {
  ...common,
  regexSyntax: 'pcre',
  withTimeout: (sql, ms) => `SET STATEMENT max_statement_time=${(Math.max(1, Math.floor(ms)) / 1000).toFixed(3)} FOR ${sql}`,
  isTimeout: (err) => (err as { code?: string })?.code === 'ER_STATEMENT_TIMEOUT' || errno(err) === 1969 || regexLimit(err),
  isBadRegex: (err) => (err as { code?: string })?.code === 'ER_REGEXP_ERROR' || errno(err) === 1139,
};

/** MySQL 8: ICU regular expressions; the MAX_EXECUTION_TIME optimizer hint bounds a SELECT. */
export const mysqlDialect: Dialect = {
  ...common,
  regexSyntax: 'icu',
  withTimeout: (sql, ms) => sql.replace(/^\s*SELECT\b/i, `SELECT /*+ MAX_EXECUTION_TIME(${Math.max(1, Math.floor(ms))}) */`),
  isTimeout: (err) => errno(err) === 3024 /* ER_QUERY_TIMEOUT */ || ICU_REGEX_LIMITS.has(errno(err) as number) || regexLimit(err),
  isBadRegex: (err) => {
    const n = errno(err);
    return n !== undefined && n >= 3685 && n <= 3700 && !ICU_REGEX_LIMITS.has(n);
  },
};
