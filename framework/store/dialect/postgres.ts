import type { Dialect, ForeignKeyViolation, UniqueViolation } from './types';

export const postgresDialect: Dialect = {
  name: 'postgres',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  placeholder: (n) => `$${n}`,
  unplanned: (placeholder) => placeholder,
  lower: (expr) => `lower(${expr})`,
  // uuid, date and timestamp columns have no text operators (LIKE, lower, ~) of their own.
  text: (expr) => `CAST(${expr} AS text)`,
  like: (expr, pattern) => `${expr} LIKE ${pattern} ESCAPE '!'`,
  regex: (expr, pattern, ci) => `${expr} ${ci ? '~*' : '~'} ${pattern}`,
  regexValue: (pattern) => pattern,
  regexSyntax: 'are',
  // The database collation may ignore punctuation or case; "C" orders bytes like the others.
  forUpdate: ' FOR UPDATE',
  forUpdateSkipLocked: ' FOR UPDATE SKIP LOCKED',
  serialWrites: false,
  idsFirstAbove: 0,
  rowValueRanges: true,
  orderText: (expr) => `${expr} COLLATE "C"`,
  jsonRowsAgg: (items, order) => `json_agg(json_build_array(${items.join(', ')}) ORDER BY ${order})`,
  jsonAggParsed: true,
  concat: (...exprs) => exprs.join(' || '),
  bool: (value) => value,
  // The protocol counts a statement's parameters in 16 bits (65,535).
  maxBoundValues: 60_000,
  // One array parameter, its element type inferred from `expr` (uuid[], integer[], text[]).
  inBoundList: (expr, values, bind) => `${expr} = ANY(${bind(values)})`,
  bindListsWhole: true,
  // With the visibility map a vacuum sets, counts and id pages are read from indexes alone.
  analyze: (table) => `VACUUM (ANALYZE) ${postgresDialect.quote(table)}`,
  uniqueViolation(err: unknown): UniqueViolation | null {
    const e = err as { code?: string; constraint?: string; detail?: string };
    if (e?.code !== '23505') return null;
    const m = /Key \(([^)]+)\)=/.exec(e.detail ?? '');
    return { constraint: e.constraint, columns: m ? m[1].split(',').map((c) => c.trim().replace(/^"|"$/g, '')) : undefined };
  },
  // 23503: "update or delete on table … is still referenced" or "insert or update on table … is not present";
  // the error's table is the referencing one, and an insert's detail names its columns.
  foreignKeyViolation(err: unknown): ForeignKeyViolation | null {
    const e = err as { code?: string; table?: string; detail?: string; message?: string };
    if (e?.code !== '23503') return null;
    const referenced = /^update or delete on table/.test(e.message ?? '');
    const m = referenced ? null : /Key \(([^)]+)\)=/.exec(e.detail ?? '');
    return { referenced, table: e.table, columns: m ? m[1].split(',').map((c) => c.trim().replace(/^"|"$/g, '')) : undefined };
  },
  // 40P01 deadlock_detected, 40001 serialization_failure.
  isDeadlock: (err) => ['40P01', '40001'].includes((err as { code?: string })?.code ?? ''),
  isTimeout: (err) => (err as { code?: string })?.code === '57014',
  isBadRegex: (err) => (err as { code?: string })?.code === '2201B',
  // The column is text (portable schema): each use casts it to jsonb; keys bind as text.
  jsonText: (expr, key, bind) => `((${expr})::jsonb ->> ${bind(key)}::text)`,
  jsonNumber: (expr, key, bind) =>
    `CASE WHEN jsonb_typeof((${expr})::jsonb -> ${bind(key)}::text) = 'number' THEN ((${expr})::jsonb ->> ${bind(key)}::text)::numeric END`,
  jsonArrayHas: (expr, key, value, bind) =>
    `(jsonb_typeof((${expr})::jsonb -> ${bind(key)}::text) = 'array' AND jsonb_exists((${expr})::jsonb -> ${bind(key)}::text, ${bind(value)}::text))`,
  jsonListHasNumber: (expr, value, bind) => `((${expr})::jsonb @> jsonb_build_array(${bind(value)}::bigint))`,
  jsonSet: (expr, key, json, bind) => `jsonb_set((${expr})::jsonb, ARRAY[${bind(key)}::text], (${bind(json)}::text)::jsonb)::text`,
  jsonRemove: (expr, key, bind) => `((${expr})::jsonb - ${bind(key)}::text)::text`,
};
