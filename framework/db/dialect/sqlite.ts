import type { Dialect, UniqueViolation } from './types';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  quote: (id) => `"${id.replace(/"/g, '""')}"`,
  placeholder: () => '?',
  // `lower` is redefined on every connection with JavaScript's Unicode case mapping (see executor).
  lower: (expr) => `lower(${expr})`,
  text: (expr) => expr,
  like: (expr, pattern) => `${expr} LIKE ${pattern} ESCAPE '!'`,
  regex: (expr, pattern, ci) => `netinv_regexp(${pattern}, ${expr}, ${ci ? 1 : 0})`,
  regexValue: (pattern) => pattern,
  // SQLite runs one write transaction at a time, so reads inside it are already exclusive.
  forUpdate: '',
  regexSyntax: 're2',
  orderText: (expr) => expr,
  concat: (...exprs) => exprs.join(' || '),
  bool: (value) => (value ? 1 : 0),
  uniqueViolation(err: unknown): UniqueViolation | null {
    const e = err as { code?: string; message?: string };
    if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
    const m = /UNIQUE constraint failed: (.*)$/.exec(e.message ?? '');
    const columns = m ? m[1].split(',').map((c) => c.trim().split('.').pop() as string) : [];
    return { columns };
  },
  isTimeout: () => false,
  isBadRegex: (err) => /netinv_regexp/.test(String((err as Error)?.message)) || (err as { code?: string })?.code === 'NETINV_BAD_REGEX',
};
