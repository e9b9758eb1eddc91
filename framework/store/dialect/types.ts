/**
 * Everything that differs between SQLite, PostgreSQL and MySQL/MariaDB. SQL text that is not
 * portable lives only in the three implementations of this interface.
 */
import type { RegexSyntax } from '../../query/regex';

export type DialectName = 'sqlite' | 'postgres' | 'mysql';

export interface UniqueViolation {
  /** Constraint or index name, when the driver reports it. */
  constraint?: string;
  /** Columns, when the driver reports them instead of a name (SQLite). */
  columns?: string[];
}

/** A foreign-key violation raised by the database (a write racing another transaction's delete or write). */
export interface ForeignKeyViolation {
  /** True: a row still referenced was deleted (or its key changed); false: a row points at a row that does not exist. */
  referenced: boolean;
  /** The referencing table, when the driver reports it. */
  table?: string;
  /** The referencing columns, when the driver reports them. */
  columns?: string[];
}

export interface Dialect {
  readonly name: DialectName;
  /** Quotes an identifier taken from metadata (never from user input). */
  quote(identifier: string): string;
  /** Placeholder for the n-th (1-based) bound parameter. */
  placeholder(n: number): string;
  /**
   * A placeholder in a place where the planner would read its bound value (a LIMIT or OFFSET),
   * written so that it does not. SQLite plans with such values and then marks the
   * statement to be compiled again whenever the parameter is bound anew: every execution of a
   * cached statement with `LIMIT ?` was compiled afresh, which cost a page of prefixes three
   * times its execution. A unary plus hides the value from the planner and changes nothing else.
   */
  unplanned(placeholder: string): string;
  /** Suffix of a SELECT that locks the rows read until the transaction ends ('' where writes are serialised). */
  readonly forUpdate: string;
  /** Suffix that locks the rows read and passes over rows another transaction holds (queue claims). */
  readonly forUpdateSkipLocked: string;
  /** One write transaction at a time for the whole database (a second one waits for the first). */
  readonly serialWrites: boolean;
  /**
   * Above this many matching rows a page is ordered by id alone first and its objects read by id.
   * Joined in full before the sort, a few hundred rows cost more than the second statement does;
   * PostgreSQL always reads ids first, as its filtered statements are planned on every call and
   * planning one over every join of a representation costs more than the extra round trip.
   */
  readonly idsFirstAbove: number;
  /**
   * Whether the planner reads an index range from a row-value comparison (`(a, b) > (?, ?)`).
   * Where it does not (MySQL/MariaDB), reading on from a row is written as ORs of equalities and
   * one inequality, which its range optimizer turns into index ranges.
   */
  readonly rowValueRanges: boolean;
  /** Unicode-aware lower-casing of an expression. */
  lower(expr: string): string;
  /** The expression as text, for text lookups on columns of other types (uuid). */
  text(expr: string): string;
  /** LIKE with `!` as escape character; `pattern` is a placeholder bound to an escaped value. */
  like(expr: string, pattern: string): string;
  /** Regular-expression match; `pattern` is a placeholder. */
  regex(expr: string, pattern: string, caseInsensitive: boolean): string;
  /** Prefix a case-insensitive regex needs on this engine (bound as part of the value). */
  regexValue(pattern: string, caseInsensitive: boolean): string;
  /** Syntax of this engine's regular expressions: common-subset patterns are written in it. */
  readonly regexSyntax: RegexSyntax;
  /** Byte-wise ordering of a text expression, identical on every database. */
  orderText(expr: string): string;
  /** String concatenation. */
  concat(...exprs: string[]): string;
  /**
   * Aggregate of one array per row (`items`, one row's values) into a JSON array, in `order`: the
   * select list of a correlated subquery that reads an object's short list (its tags) within the
   * page's own statement. NULL or `[]` where no row matches.
   */
  jsonRowsAgg(items: readonly string[], order: string): string;
  /** Whether the driver returns that aggregate parsed (PostgreSQL's json) rather than as text. */
  readonly jsonAggParsed: boolean;
  /** Value bound for a boolean parameter. */
  bool(value: boolean): unknown;
  /**
   * Most values one statement may bind, under the database's or driver's limit with a margin:
   * multi-row statements are split to stay under it.
   */
  readonly maxBoundValues: number;
  /**
   * `expr` equal to one of `values`, the whole list bound as ONE parameter through `bind`, for
   * lists too long to bind value by value. Absent where the driver binds nothing on the server
   * (mysql2 writes each value into the statement text, so no parameter limit applies).
   */
  inBoundList?(expr: string, values: readonly unknown[], bind: Bind): string;
  /**
   * Bind every list as one parameter, however short: the statement's text then does not depend on
   * the list's length, so one prepared statement (and its cached plan) serves every page.
   */
  readonly bindListsWhole?: boolean;
  /** Refreshes the planner's statistics of one table; absent where the planner needs none kept. */
  analyze?(table: string): string;
  /**
   * Wraps one statement so the server cancels it after `ms` milliseconds (regex filters), where
   * the engine has a per-statement limit (MySQL-family); PostgreSQL sets a transaction-local one.
   */
  withTimeout?(sql: string, ms: number): string;
  /** Recognises a unique-constraint violation raised by the driver. */
  uniqueViolation(err: unknown): UniqueViolation | null;
  /** Recognises a foreign-key violation raised by the driver. */
  foreignKeyViolation(err: unknown): ForeignKeyViolation | null;
  /**
   * True when the database chose the transaction as a deadlock's victim (or refused it as a
   * serialization failure): it was rolled back whole, and running it again is how to recover.
   */
  isDeadlock(err: unknown): boolean;
  /** True when the error is a statement timeout raised by withTimeout. */
  isTimeout(err: unknown): boolean;
  /** True when the database rejected a regular expression. */
  isBadRegex(err: unknown): boolean;

  // -- JSON documents stored in text columns (custom field data) ------------------------------
  // `expr` holds a JSON object; `key` is one of its top-level keys. Keys and values are always
  // bound through `bind`, which adds a parameter and returns its placeholder; binding happens in
  // the order placeholders appear in the text, as positional parameters (`?`) require.
  /** The value under `key` as text (strings unquoted, `true`/`false`); NULL when absent or JSON null. */
  jsonText(expr: string, key: string, bind: Bind): string;
  /** The value under `key` as a number; NULL when absent or not a number. */
  jsonNumber(expr: string, key: string, bind: Bind): string;
  /** True when the value under `key` is an array holding the string `value`. */
  jsonArrayHas(expr: string, key: string, value: string, bind: Bind): string;
  /** True when `expr` holds a JSON array (at the top level) with the number `value` in it. */
  jsonListHasNumber(expr: string, value: number, bind: Bind): string;
  /** The document with `key` set to the value whose JSON text is `json`. */
  jsonSet(expr: string, key: string, json: string, bind: Bind): string;
  /** The document without `key`. */
  jsonRemove(expr: string, key: string, bind: Bind): string;
}

/** Binds one value and returns its placeholder. */
export type Bind = (value: unknown) => string;

/** JSON path of one top-level key, quoted so any key is a single path step (SQLite, MySQL). */
export function jsonKeyPath(key: string): string {
  return `$."${key.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Escapes `%`, `_` and the escape character itself for LIKE patterns using `!` as escape. */
export function escapeLike(value: string): string {
  return value.replace(/[!%_]/g, (c) => `!${c}`);
}

/** LIMIT of a bound number of rows, hidden from SQLite's planner (see `Dialect.unplanned`). */
export function limitClause(dialect: Dialect, limit: string): string {
  return `LIMIT ${dialect.unplanned(limit)}`;
}

/** LIMIT/OFFSET clause; `limit` null means no limit. Both are placeholders or literals from code. */
export function paginateClause(dialect: Dialect, limit: string | null, offset: string): string {
  const from = dialect.unplanned(offset);
  if (limit !== null) return `${limitClause(dialect, limit)} OFFSET ${from}`;
  if (dialect.name === 'postgres') return `OFFSET ${from}`;
  if (dialect.name === 'mysql') return `LIMIT 18446744073709551615 OFFSET ${from}`;
  return `LIMIT -1 OFFSET ${from}`;
}
