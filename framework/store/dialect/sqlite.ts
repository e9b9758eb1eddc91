import { jsonKeyPath, type Dialect, type UniqueViolation } from './types';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  placeholder: () => '?',
  unplanned: (placeholder) => `+${placeholder}`,
  // `lower` is redefined on every connection with JavaScript's Unicode case mapping (see executor).
  lower: (expr) => `lower(${expr})`,
  text: (expr) => expr,
  like: (expr, pattern) => `${expr} LIKE ${pattern} ESCAPE '!'`,
  // The value comes first so that placeholders inside `expr` (JSON keys) precede the pattern's.
  regex: (expr, pattern, ci) => `netinv_regexp(${expr}, ${pattern}, ${ci ? 1 : 0})`,
  regexValue: (pattern) => pattern,
  // SQLite runs one write transaction at a time, so reads inside it are already exclusive.
  forUpdate: '',
  forUpdateSkipLocked: '',
  serialWrites: true,
  idsFirstAbove: 100,
  rowValueRanges: true,
  regexSyntax: 're2',
  orderText: (expr) => expr,
  jsonRowsAgg: (items, order) => `json_group_array(json_array(${items.join(', ')}) ORDER BY ${order})`,
  jsonAggParsed: false,
  concat: (...exprs) => exprs.join(' || '),
  bool: (value) => (value ? 1 : 0),
  // SQLITE_MAX_VARIABLE_NUMBER is 32,766 since SQLite 3.32 (999 before; better-sqlite3 bundles a
  // recent SQLite): a margin under it.
  maxBoundValues: 30_000,
  // The list as one JSON array; json_each's values keep their types (text ids, integer keys).
  inBoundList: (expr, values, bind) => `${expr} IN (SELECT value FROM json_each(${bind(JSON.stringify(values))}))`,
  uniqueViolation(err: unknown): UniqueViolation | null {
    const e = err as { code?: string; message?: string };
    if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
    const m = /UNIQUE constraint failed: (.*)$/.exec(e.message ?? '');
    const columns = m ? m[1].split(',').map((c) => c.trim().split('.').pop() as string) : [];
    return { columns };
  },
  // Writes are serialised: the writer's own checks see every committed row, and SQLite's message names neither side.
  foreignKeyViolation: () => null,
  // One writer at a time: transactions wait for each other and never deadlock.
  isDeadlock: () => false,
  isTimeout: () => false,
  jsonText: (expr, key, bind) =>
    `CASE json_type(${expr}, ${bind(jsonKeyPath(key))}) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN NULL ` +
    `ELSE CAST(json_extract(${expr}, ${bind(jsonKeyPath(key))}) AS TEXT) END`,
  jsonNumber: (expr, key, bind) =>
    `CASE WHEN json_type(${expr}, ${bind(jsonKeyPath(key))}) IN ('integer', 'real') THEN json_extract(${expr}, ${bind(jsonKeyPath(key))}) END`,
  jsonArrayHas: (expr, key, value, bind) =>
    `(json_type(${expr}, ${bind(jsonKeyPath(key))}) = 'array' AND EXISTS (SELECT 1 FROM json_each(${expr}, ${bind(jsonKeyPath(key))}) ` +
    `WHERE json_each.type = 'text' AND json_each.value = ${bind(value)}))`,
  jsonListHasNumber: (expr, value, bind) =>
    `EXISTS (SELECT 1 FROM json_each(${expr}) WHERE json_each.type = 'integer' AND json_each.value = ${bind(value)})`,
  jsonSet: (expr, key, json, bind) => `json_set(${expr}, ${bind(jsonKeyPath(key))}, json(${bind(json)}))`,
  jsonRemove: (expr, key, bind) => `json_remove(${expr}, ${bind(jsonKeyPath(key))})`,
  isBadRegex: (err) => /netinv_regexp/.test(String((err as Error)?.message)) || (err as { code?: string })?.code === 'NETINV_BAD_REGEX',
};
