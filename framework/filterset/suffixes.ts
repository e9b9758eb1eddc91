import { NETWORK_LOOKUPS } from '../fields/network';

/**
 * Query parameters that are never filters: pagination, representation (`brief`, `include`,
 * `exclude`), version and renderer selection.
 */
export const RESERVED_PARAMS = new Set(['limit', 'offset', 'brief', 'api_version', 'format', 'include', 'exclude']);

/** REST suffix → (ORM lookup, negated). */
export const SUFFIXES: Record<string, [string, boolean]> = {
  '': ['exact', false],
  n: ['exact', true],
  ic: ['icontains', false],
  nic: ['icontains', true],
  isw: ['istartswith', false],
  nisw: ['istartswith', true],
  iew: ['iendswith', false],
  niew: ['iendswith', true],
  ie: ['iexact', false],
  nie: ['iexact', true],
  re: ['regex', false],
  nre: ['regex', true],
  ire: ['iregex', false],
  nire: ['iregex', true],
  lt: ['lt', false],
  lte: ['lte', false],
  gt: ['gt', false],
  gte: ['gte', false],
};

// Network fields take Django's lookup names as suffixes (`prefix__net_contained=`, `address__istartswith=`).
for (const lookup of NETWORK_LOOKUPS) SUFFIXES[lookup] ??= [lookup, false];
