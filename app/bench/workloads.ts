import { parseNetwork, toHex } from '../../framework/network/ip';
import type { LoadedDataset } from './dataset';
import type { RequestShape } from './load';

/** One workload of BENCHMARK.md: the request against netinv and, for W1–W6 and W12, against the floor. */
export interface Workload {
  id: string;
  title: string;
  netinv: RequestShape;
  floor?: RequestShape;
  /** Objects written per request (W8 reports objects/s). */
  objectsPerRequest?: number;
  /** The REST workload serving the same objects, whose requests/s this one is compared with. */
  versus?: string;
}

/** W11: what a configuration pipeline asks per page of devices, as one GraphQL query. */
export const GRAPHQL_DEVICES_QUERY = '{ devices(limit: 50) { name site { name } interfaces { name ip_addresses { address } } } }';

/** The n-th address of a range of /16s starting at 172.<second>.0.0, as a host route. */
function hostRoute(second: number, n: number): string {
  return `172.${second + Math.floor(n / 65536)}.${Math.floor(n / 256) % 256}.${n % 256}/32`;
}

/** A body generator with its own sequence, so every request of a workload writes new objects. */
function sequence<T>(make: (n: number) => T): () => T {
  let n = 0;
  return () => make(n++);
}

/** Hex bounds of a network in the stored form (for the floor's hand-written range queries). */
function bounds(cidr: string): { first: string; last: string; length: number } {
  const n = parseNetwork(cidr);
  return { first: toHex(n.first), last: toHex(n.last), length: n.length };
}

const W8_BATCH = 100;

export function workloads(data: LoadedDataset): Workload[] {
  const within = bounds('10.20.0.0/16');
  const parent = bounds('10.20.30.0/24');
  const rangeQuery = (b: { first: string; last: string; length: number }) => `first=${b.first}&last=${b.last}&length=${b.length}`;
  return [
    {
      id: 'W1',
      title: 'prefixes, limit=50 offset=1000',
      netinv: { method: 'GET', path: '/api/ipam/prefixes/?limit=50&offset=1000' },
      floor: { method: 'GET', path: '/floor/prefixes?limit=50&offset=1000' },
    },
    {
      id: 'W2',
      title: 'prefixes, limit=1000',
      netinv: { method: 'GET', path: '/api/ipam/prefixes/?limit=1000' },
      floor: { method: 'GET', path: '/floor/prefixes?limit=1000&offset=0' },
    },
    {
      id: 'W3',
      title: 'prefix 10.20.30.0/24',
      netinv: { method: 'GET', path: `/api/ipam/prefixes/${data.prefixId}/` },
      floor: { method: 'GET', path: `/floor/prefixes/${data.prefixId}` },
    },
    {
      id: 'W4',
      title: 'devices, limit=50',
      netinv: { method: 'GET', path: '/api/dcim/devices/?limit=50' },
      floor: { method: 'GET', path: '/floor/devices?limit=50' },
    },
    {
      id: 'W5',
      title: 'prefixes within=10.20.0.0/16',
      netinv: { method: 'GET', path: '/api/ipam/prefixes/?within=10.20.0.0/16' },
      floor: { method: 'GET', path: `/floor/prefixes-within?${rangeQuery(within)}&limit=50` },
    },
    {
      id: 'W5b',
      title: 'prefixes prefix__net_contained=10.20.0.0/16',
      netinv: { method: 'GET', path: '/api/ipam/prefixes/?prefix__net_contained=10.20.0.0/16' },
      floor: { method: 'GET', path: `/floor/prefixes-within?${rangeQuery(within)}&limit=50` },
    },
    {
      id: 'W6',
      title: 'ip-addresses parent=10.20.30.0/24',
      netinv: { method: 'GET', path: '/api/ipam/ip-addresses/?parent=10.20.30.0/24' },
      floor: { method: 'GET', path: `/floor/addresses-in?${rangeQuery(parent)}&limit=50` },
    },
    {
      id: 'W7',
      title: 'POST one ip-address',
      netinv: {
        method: 'POST',
        path: '/api/ipam/ip-addresses/',
        body: sequence((n) => ({ address: hostRoute(16, n), status: 'active' })),
      },
      objectsPerRequest: 1,
    },
    {
      id: 'W8',
      title: `POST ${W8_BATCH} ip-addresses`,
      netinv: {
        method: 'POST',
        path: '/api/ipam/ip-addresses/',
        body: sequence((n) => Array.from({ length: W8_BATCH }, (_, i) => ({ address: hostRoute(20, n * W8_BATCH + i), status: 'active' }))),
      },
      objectsPerRequest: W8_BATCH,
    },
    {
      id: 'W9',
      title: 'PATCH prefix description',
      netinv: {
        method: 'PATCH',
        path: `/api/ipam/prefixes/${data.patchPrefixId}/`,
        body: sequence((n) => ({ description: `benchmark change ${n}` })),
      },
    },
    {
      id: 'W11',
      title: 'GraphQL devices+site+interfaces+IPs, 50',
      netinv: { method: 'POST', path: '/api/graphql/', body: () => ({ query: GRAPHQL_DEVICES_QUERY }) },
      // W4 lists the same 50 devices through REST; their interfaces and addresses would cost REST
      // clients two more requests, which this ratio does not count in REST's favour or against it.
      versus: 'W4',
    },
    {
      id: 'W12',
      title: 'interfaces cabled=true, limit=1000 (connected endpoints)',
      netinv: { method: 'GET', path: '/api/dcim/interfaces/?cabled=true&limit=1000' },
      floor: { method: 'GET', path: '/floor/cabled-interfaces?limit=1000' },
    },
    {
      id: 'W10',
      title: 'available-prefixes of 10.195.0.0/16',
      netinv: { method: 'GET', path: `/api/ipam/prefixes/${data.availablePrefixId}/available-prefixes/` },
    },
  ];
}
