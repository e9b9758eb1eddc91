import {
  allocateBlocks, BITS, defineActions, formatAddress, freeAddresses, freeBlocks, lockRow, networkText, ormFilter,
  statusSlug, ValidationError, type ActionDoc, type ActionRequest, type Executor, type Id, type IPNetwork, type Json, type Predicate, type Values,
} from '../../framework';
import { Status } from '../extras/status';
import { IPAddress } from './ip-address';
import { Prefix } from './prefix';
import { VRF } from './vrf';

/** What the actions read of the parent prefix. */
const PARENT_FIELDS = ['prefix', 'vrf', 'status', 'is_pool'];

async function isContainer(req: ActionRequest, db: Executor, parent: Values): Promise<boolean> {
  return parent.status !== null && (await statusSlug(db, req.meta(Status), parent.status as Id)) === 'container';
}

/** Child prefixes strictly inside the parent, in its address space. */
async function childSpace(req: ActionRequest, db: Executor, parent: Values): Promise<Predicate> {
  const n = parent.prefix as IPNetwork;
  const meta = req.meta(Prefix);
  return ormFilter(meta, { prefix__net_contained: networkText(n), ...(await spaceAttributes(req, db, parent)) });
}

async function spaceAttributes(req: ActionRequest, db: Executor, parent: Values): Promise<Record<string, unknown>> {
  if (parent.vrf === null && (await isContainer(req, db, parent))) return {};
  return { vrf: parent.vrf ?? null };
}

async function vrfOf(req: ActionRequest, parent: Values): Promise<Json> {
  return parent.vrf ? req.nested(VRF, parent.vrf as string) : null;
}

// ---- available-prefixes ----------------------------------------------------------------------

/** Nautobot's checks of `prefix_length`, reported array-aligned with plain-string messages. */
function requestedLengths(items: unknown[], family: 4 | 6): number[] {
  const errors: Array<Record<string, string>> = [];
  const lengths: number[] = [];
  for (const item of items) {
    const value = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).prefix_length : undefined;
    if (value === undefined) errors.push({ prefix_length: 'this field can not be missing' });
    else if (typeof value !== 'number' || !Number.isInteger(value)) errors.push({ prefix_length: 'this field must be int type' });
    else if (value < 0 || value > BITS[family]) errors.push({ prefix_length: `Invalid prefix length (${value}) for IPv${family}` });
    else {
      errors.push({});
      lengths.push(value);
    }
  }
  if (errors.some((e) => Object.keys(e).length)) throw new ValidationError(errors);
  return lengths;
}

async function listAvailablePrefixes(req: ActionRequest) {
  const db = req.ctx.db.reader;
  const parent = await req.object(db, await req.restrict(Prefix, 'view'), PARENT_FIELDS);
  const n = parent.prefix as IPNetwork;
  const blocks = await freeBlocks(db, req.meta(Prefix), req.meta(Prefix).field('prefix')!, n, await childSpace(req, db, parent));
  const vrf = await vrfOf(req, parent);
  return { status: 200, body: blocks.map((b) => ({ family: b.family, prefix: networkText(b), vrf })) };
}

async function allocatePrefixes(req: ActionRequest) {
  const body = req.body();
  const many = Array.isArray(body);
  const items = many ? (body as unknown[]) : [body];
  const addRestrict = await req.restrict(Prefix, 'add');
  const outcome = await req.transaction(Prefix, async (tx) => {
    // Lock before the first read: under MySQL's repeatable read the snapshot starts at the first
    // plain read, which must come after any allocation we waited for has committed.
    await lockRow(tx, req.meta(Prefix), req.id);
    const parent = await req.object(tx, addRestrict, PARENT_FIELDS);
    const n = parent.prefix as IPNetwork;
    const lengths = requestedLengths(items, n.family);
    const free = await freeBlocks(tx, req.meta(Prefix), req.meta(Prefix).field('prefix')!, n, await childSpace(req, tx, parent));
    const allocated = allocateBlocks(free, lengths);
    if (!allocated) return null;
    const bodies = items.map((item, i) => {
      const rest = { ...(item as Record<string, unknown>) };
      delete rest.prefix_length;
      return { ...rest, prefix: networkText(allocated[i]), vrf: parent.vrf ?? null };
    });
    return req.create(tx, Prefix, bodies, many, addRestrict);
  });
  if (!outcome) return { status: 204, body: { detail: 'Insufficient space is available to accommodate the requested prefix size(s)' } };
  return { status: 201, body: await req.render(Prefix, outcome, many) };
}

// ---- available-ips ---------------------------------------------------------------------------

/** The addresses of a prefix that may be handed out: not the IPv4 network and broadcast of a non-pool /30 or wider. */
function usableRange(parent: Values): [bigint, bigint] {
  const n = parent.prefix as IPNetwork;
  if (n.family === 4 && n.length < 31 && !parent.is_pool) return [n.first + 1n, n.last - 1n];
  return [n.first, n.last];
}

function listLimit(req: ActionRequest): number {
  const { paginateCount, maxPageSize } = req.ctx.config;
  const raw = req.ctx.param('limit');
  const parsed = raw !== undefined && /^\s*[-+]?\d+\s*$/.test(raw) ? Number(raw) : paginateCount;
  // Nautobot returns every free address for limit <= 0, which never ends on an IPv6 /64.
  if (parsed <= 0) return maxPageSize > 0 ? maxPageSize : paginateCount;
  return maxPageSize > 0 ? Math.min(parsed, maxPageSize) : parsed;
}

async function addressSpace(req: ActionRequest, db: Executor, parent: Values): Promise<Predicate> {
  return ormFilter(req.meta(IPAddress), await spaceAttributes(req, db, parent));
}

async function listAvailableIps(req: ActionRequest) {
  const db = req.ctx.db.reader;
  const parent = await req.object(db, await req.restrict(Prefix, 'view'), PARENT_FIELDS);
  const n = parent.prefix as IPNetwork;
  const [from, to] = usableRange(parent);
  const ipMeta = req.meta(IPAddress);
  const free = await freeAddresses(db, ipMeta, ipMeta.field('address')!, n.family, from, to, await addressSpace(req, db, parent), listLimit(req));
  const vrf = await vrfOf(req, parent);
  return { status: 200, body: free.map((a) => ({ family: n.family, address: `${formatAddress(n.family, a)}/${n.length}`, vrf })) };
}

async function allocateIps(req: ActionRequest) {
  const body = req.body();
  const many = Array.isArray(body);
  const items = many ? (body as unknown[]) : [body];
  const viewRestrict = await req.restrict(Prefix, 'view');
  const addRestrict = await req.restrict(IPAddress, 'add');
  const outcome = await req.transaction(IPAddress, async (tx) => {
    await lockRow(tx, req.meta(Prefix), req.id);
    const parent = await req.object(tx, viewRestrict, PARENT_FIELDS);
    const n = parent.prefix as IPNetwork;
    const [from, to] = usableRange(parent);
    const ipMeta = req.meta(IPAddress);
    const free = await freeAddresses(tx, ipMeta, ipMeta.field('address')!, n.family, from, to, await addressSpace(req, tx, parent), items.length);
    if (free.length < items.length) {
      return { short: `An insufficient number of IP addresses are available within the prefix ${networkText(n)} (${items.length} requested, ${free.length} available)` };
    }
    const bodies = items.map((item, i) => ({
      ...(item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {}),
      address: `${formatAddress(n.family, free[i])}/${n.length}`,
      vrf: parent.vrf ?? null,
    }));
    return { ids: await req.create(tx, IPAddress, bodies, many, addRestrict) };
  });
  if ('short' in outcome) return { status: 204, body: { detail: outcome.short } };
  return { status: 201, body: await req.render(IPAddress, outcome.ids, many) };
}

/** `vrf` of the free blocks and addresses: the parent's VRF, nested, or null for the global table. */
const PARENT_VRF = { nested: VRF, nullable: true, description: "The parent prefix's VRF (null: the global table)" } as const;

/** How the OpenAPI document describes the allocation actions (Nautobot's AvailablePrefix and AvailableIP). */
const DOCS = {
  listPrefixes: {
    description: 'Free blocks inside the prefix (the smallest set of CIDR blocks covering the free space), ascending. Not paginated.',
    query: [
      { name: 'limit', type: 'integer', description: 'Accepted and ignored: every free block is returned.' },
      { name: 'offset', type: 'integer', description: 'Accepted and ignored.' },
    ],
    response: {
      name: 'AvailablePrefix',
      items: { family: { type: 'integer', enum: [4, 6] }, prefix: { type: 'string', description: 'A free block, CIDR' }, vrf: PARENT_VRF },
    },
  },
  createPrefixes: {
    description: 'Allocate child prefixes first-fit, one per object given (all or none); `prefix` and `vrf` are set from the parent.',
    body: {
      name: 'PrefixLengthRequest',
      model: Prefix,
      omit: ['prefix', 'vrf'],
      add: { prefix_length: { type: 'integer', description: 'Length of the prefix to allocate' } },
      required: ['prefix_length'],
    },
    response: { created: Prefix },
    empty: 'Insufficient space is available to accommodate the requested prefix size(s); nothing was created.',
  },
  listIps: {
    description: 'Free addresses inside the prefix, ascending, each with the prefix length of the parent. Not paginated.',
    query: [
      { name: 'limit', type: 'integer', description: 'Number of addresses to return (default: the page size; at most the maximum page size; 0 or less: the maximum).' },
      { name: 'offset', type: 'integer', description: 'Accepted and ignored: the lowest free addresses are returned.' },
    ],
    response: {
      name: 'AvailableIP',
      items: { family: { type: 'integer', enum: [4, 6] }, address: { type: 'string', description: 'A free address with the prefix length of the parent' }, vrf: PARENT_VRF },
    },
  },
  createIps: {
    description: 'Allocate the lowest free addresses, one per object given (an empty object is enough besides `status`), all or none; `address` and `vrf` are set from the parent.',
    body: { name: 'AvailableIPRequest', model: IPAddress, omit: ['address', 'vrf'] },
    response: { created: IPAddress },
    empty: 'An insufficient number of IP addresses are available within the prefix; nothing was created.',
  },
} satisfies Record<string, ActionDoc>;

export const prefixActions = defineActions(Prefix, {
  'available-prefixes': {
    detail: true,
    GET: { action: 'view', handler: listAvailablePrefixes, doc: DOCS.listPrefixes },
    POST: { action: 'add', handler: allocatePrefixes, doc: DOCS.createPrefixes },
  },
  'available-ips': {
    detail: true,
    GET: { action: 'view', permissionModel: IPAddress, handler: listAvailableIps, doc: DOCS.listIps },
    POST: { action: 'add', permissionModel: IPAddress, handler: allocateIps, doc: DOCS.createIps },
  },
});
