import type { Dialect } from './dialect/types';

/** Values of one list bound one by one; a longer list is bound as a single parameter (see `in`). */
export const MAX_LISTED_VALUES = 1000;

/** Collects bound values and hands out the dialect's placeholders; user values never enter SQL text. */
export class Params {
  readonly values: unknown[] = [];
  constructor(readonly dialect: Dialect) {}
  add(value: unknown): string {
    this.values.push(typeof value === 'boolean' ? this.dialect.bool(value) : value);
    return this.dialect.placeholder(this.values.length);
  }
  /** A copy that continues numbering after these values (count query → page query). */
  fork(): Params {
    const p = new Params(this.dialect);
    p.values.push(...this.values);
    return p;
  }
  list(values: readonly unknown[]): string {
    return values.map((v) => this.add(v)).join(', ');
  }
  /**
   * `expr IN (...)` over `values` (at least one, no NULL). Up to MAX_LISTED_VALUES they are bound
   * one by one; a longer list is bound as one parameter where the dialect can, so that however
   * many ids a bulk request or a cascade gathers, the statement binds a bounded number of values
   * (and keeps one SQL text, one prepared statement, whatever the list's length). Dialects that
   * reuse prepared statements bind every list so (`bindListsWhole`).
   */
  in(expr: string, values: readonly unknown[]): string {
    if (this.dialect.inBoundList && (values.length > MAX_LISTED_VALUES || this.dialect.bindListsWhole)) {
      const list = values.map((v) => (typeof v === 'boolean' ? this.dialect.bool(v) : v));
      return this.dialect.inBoundList(expr, list, (value) => this.add(value));
    }
    return `${expr} IN (${this.list(values)})`;
  }
}
