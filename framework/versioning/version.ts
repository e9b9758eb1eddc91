/** An API version `<major>.<minor>`, compared as a tuple, never as a number. */
export class ApiVersion {
  private constructor(readonly major: number, readonly minor: number) {}

  /**
   * Versions the server itself names (supported versions, fields' since/until), parsed once. Text
   * from clients never enters: any number of distinct `X.Y` strings would grow it without bound.
   */
  private static readonly cache = new Map<string, ApiVersion>();

  /** Exact `X.Y` only: `1.3` is valid; `1.03`, `1.3.0`, `v1.3` are not. */
  static parse(text: string): ApiVersion | null {
    const cached = ApiVersion.cache.get(text);
    if (cached) return cached;
    const m = /^(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text);
    if (!m) return null;
    return new ApiVersion(Number(m[1]), Number(m[2]));
  }

  /** A version the server names in its own code; invalid text is a programming error. */
  static of(text: string): ApiVersion {
    const v = ApiVersion.parse(text);
    if (!v) throw new Error(`invalid API version ${text}`);
    if (!ApiVersion.cache.has(text)) ApiVersion.cache.set(text, v);
    return v;
  }

  compare(other: ApiVersion | string): number {
    const o = typeof other === 'string' ? ApiVersion.of(other) : other;
    return this.major - o.major || this.minor - o.minor;
  }
  lt(other: ApiVersion | string): boolean {
    return this.compare(other) < 0;
  }
  gte(other: ApiVersion | string): boolean {
    return this.compare(other) >= 0;
  }
  toString(): string {
    return `${this.major}.${this.minor}`;
  }
}

/** Versions served: 1.2 (the 1.x default) up to the newest 1.x minor of the reference. */
export const SUPPORTED_VERSIONS: readonly ApiVersion[] = ['1.2', '1.3', '1.4', '1.5', '1.6'].map(ApiVersion.of);
export const DEFAULT_VERSION = ApiVersion.of('1.2');
export const LATEST_VERSION = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1];

/** The served version a client's text names (the same object as in SUPPORTED_VERSIONS), or null. */
export function supportedVersion(text: string): ApiVersion | null {
  const v = ApiVersion.parse(text);
  return (v && SUPPORTED_VERSIONS.find((s) => s.compare(v) === 0)) ?? null;
}
