import type { Dialect } from './dialect/types';

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
}
