/**
 * framework/versioning: versions parse exactly, resolve by Nautobot's rules, and the versions
 * clients send leave no trace in the server's memory.
 */
import { NotAcceptable, NotFound } from '../../framework/errors';
import { resolveVersion } from '../../framework/versioning/negotiate';
import { ApiVersion, DEFAULT_VERSION, SUPPORTED_VERSIONS, supportedVersion } from '../../framework/versioning/version';

/** The parsed versions the class keeps (a private static). */
const cacheSize = () => (ApiVersion as unknown as { cache: Map<string, ApiVersion> }).cache.size;

test('exact X.Y only; a supported version resolves to the served object', () => {
  expect(['1.3', '0.0', '12.34'].map((t) => String(ApiVersion.parse(t)))).toEqual(['1.3', '0.0', '12.34']);
  expect(['1.03', '1.3.0', 'v1.3', '', ' 1.3', '1.'].map((t) => ApiVersion.parse(t))).toEqual([null, null, null, null, null, null]);
  expect(supportedVersion('1.4')).toBe(SUPPORTED_VERSIONS[2]);
  expect(supportedVersion('1.7')).toBeNull();
  expect(resolveVersion(undefined, undefined)).toBe(DEFAULT_VERSION);
  expect(resolveVersion('1.5', undefined)).toBe(SUPPORTED_VERSIONS[3]);
});

test('10,000 distinct bogus versions from clients do not grow the cache', () => {
  const before = cacheSize();
  expect(before).toBeGreaterThan(0);
  const refused = { header: 0, query: 0 };
  const attempt = (header: string | undefined, query: string | undefined, kind: keyof typeof refused) => {
    try {
      resolveVersion(header, query);
    } catch (err) {
      if ((kind === 'header' && err instanceof NotAcceptable) || (kind === 'query' && err instanceof NotFound)) refused[kind] += 1;
    }
  };
  for (let i = 0; i < 10_000; i++) {
    attempt(`7.${i}`, undefined, 'header');
    attempt(undefined, `${i + 2}.${i}`, 'query');
  }
  expect(refused).toEqual({ header: 10_000, query: 10_000 });
  expect(cacheSize()).toBe(before);
});
