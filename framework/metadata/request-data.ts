/**
 * Data features keep for the length of one request or write (custom-field definitions read once,
 * change records buffered until commit), under typed keys: each feature declares its key with the
 * type of what it stores, so a reader gets that type back without a cast.
 */
export class DataKey<T> {
  /** Carries T for the type checker only. */
  declare readonly type: T;
  constructor(readonly name: string) {}
}

export class RequestData {
  private readonly values = new Map<DataKey<unknown>, unknown>();

  get<T>(key: DataKey<T>): T | undefined {
    return this.values.get(key as DataKey<unknown>) as T | undefined;
  }

  set<T>(key: DataKey<T>, value: T): void {
    this.values.set(key as DataKey<unknown>, value);
  }

  has(key: DataKey<unknown>): boolean {
    return this.values.has(key);
  }

  delete(key: DataKey<unknown>): void {
    this.values.delete(key);
  }

  /** The value under `key`, created by `make` the first time. */
  getOrSet<T>(key: DataKey<T>, make: () => T): T {
    if (!this.values.has(key as DataKey<unknown>)) this.values.set(key as DataKey<unknown>, make());
    return this.values.get(key as DataKey<unknown>) as T;
  }

  /** Copies every entry of `other` into this one (a render inheriting its request's data). */
  assign(other: RequestData): void {
    for (const [k, v] of other.values) this.values.set(k, v);
  }
}
