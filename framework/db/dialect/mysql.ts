import { jsonKeyPath, type Dialect, type UniqueViolation } from './types';

export const mysqlDialect: Dialect = {
  name: 'mysql',
  quote: (id) => `\`${id.replace(/`/g, '``')}\``,
  placeholder: () => '?',
  lower: (expr) => `LOWER(${expr})`,
  like: (expr, pattern) => `${expr} LIKE ${pattern} ESCAPE '!'`,
  // Tables use a binary collation, so REGEXP is case-sensitive unless the pattern says (?i).
  regex: (expr, pattern) => `${expr} REGEXP ${pattern}`,
  regexValue: (pattern, ci) => (ci ? `(?i)${pattern}` : pattern),
  forUpdate: ' FOR UPDATE',
  orderText: (expr) => expr,
  concat: (...exprs) => `CONCAT(${exprs.join(', ')})`,
  bool: (value) => (value ? 1 : 0),
  withTimeout: (sql, ms) => `SET STATEMENT max_statement_time=${(ms / 1000).toFixed(3)} FOR ${sql}`,
  uniqueViolation(err: unknown): UniqueViolation | null {
    const e = err as { code?: string; sqlMessage?: string; message?: string };
    if (e?.code !== 'ER_DUP_ENTRY') return null;
    const m = /for key '(?:[^'.]*\.)?([^']+)'/.exec(e.sqlMessage ?? e.message ?? '');
    return { constraint: m?.[1] };
  },
  isTimeout: (err) => {
    const code = (err as { code?: string })?.code;
    return code === 'ER_STATEMENT_TIMEOUT' || code === 'ER_QUERY_TIMEOUT' || (err as { errno?: number })?.errno === 1969;
  },
  isBadRegex: (err) => {
    const e = err as { code?: string; errno?: number };
    return e?.code === 'ER_REGEXP_ERROR' || e?.errno === 1139;
  },
  // JSON_UNQUOTE turns a JSON null into the text 'null': the type is checked first.
  jsonText: (expr, key, bind) =>
    `CASE WHEN JSON_TYPE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) = 'NULL' THEN NULL ` +
    `ELSE JSON_UNQUOTE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) END`,
  jsonNumber: (expr, key, bind) =>
    `CASE WHEN JSON_TYPE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) IN ('INTEGER', 'UNSIGNED INTEGER', 'DOUBLE', 'DECIMAL') ` +
    `THEN JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))}) + 0 END`,
  jsonArrayHas: (expr, key, value, bind) =>
    `(JSON_TYPE(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))})) = 'ARRAY' AND JSON_CONTAINS(JSON_EXTRACT(${expr}, ${bind(jsonKeyPath(key))}), JSON_QUOTE(${bind(value)})))`,
  jsonSet: (expr, key, json, bind) => `JSON_SET(${expr}, ${bind(jsonKeyPath(key))}, JSON_EXTRACT(${bind(json)}, '$'))`,
  jsonRemove: (expr, key, bind) => `JSON_REMOVE(${expr}, ${bind(jsonKeyPath(key))})`,
};
