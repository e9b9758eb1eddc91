import {
  Store,
  and,
  fieldTest,
  type ComputedValueProvider,
  type Executor,
  type FieldMeta,
  type Id,
  type Json,
  type JsonObject,
  type ModelClass,
  type ModelMeta,
  type Registry,
  type RenderContext,
  type Values,
  DataKey,
  CachedConfig,
  cachedConfig,
} from '../../framework';
import { Region } from '../dcim/region';
import { Site } from '../dcim/site';
import { Tenant } from '../tenancy/tenant';
import { TenantGroup } from '../tenancy/tenant-group';
import { Cluster } from '../virtualization/cluster';
import { ConfigContext } from './config-context';
import { deepMerge } from './deep-merge';
import { DynamicGroup, memberCondition } from './dynamic-group';

/** The assignment lists of a config context, by the object attribute each one is matched against. */
const DIMENSIONS = ['regions', 'sites', 'roles', 'device_types', 'platforms', 'cluster_groups', 'clusters', 'tenant_groups', 'tenants', 'tags', 'dynamic_groups'] as const;
type Dimension = (typeof DIMENSIONS)[number];

interface Context {
  data: JsonObject;
  /** Per dimension, the assigned ids; an empty list matches everything. */
  assigned: Record<Dimension, Set<Id>>;
}

/** What a device or VM offers to each dimension: one value, or several (region ancestry, tags). */
type Facts = Record<Dimension, Id[]>;

const ACTIVE_CONTEXTS = new DataKey<Context[]>('extras.config_contexts');
/** The active contexts with their assignments, between requests (their tables share the prefix). */
const CONTEXTS_CACHE = new CachedConfig<Context[]>('extras.config_contexts', ['extras_configcontext']);

function byWeightThenName(a: Values, b: Values): number {
  const name = (v: Values) => String(v.name);
  return Number(a.weight) - Number(b.weight) || (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0);
}

/** The active contexts in merge order, loaded once per request (a fixed number of queries). */
async function activeContexts(rc: RenderContext, registry: Registry): Promise<Context[]> {
  const cached = rc.features.get(ACTIVE_CONTEXTS);
  if (cached) return cached;
  const model = registry.forClass(ConfigContext);
  const contexts = await cachedConfig(rc.db, CONTEXTS_CACHE, async () => {
    const rows = (await new Store(rc.db).find(model, fieldTest(model.field('is_active') as FieldMeta, 'exact', [true]))).sort(byWeightThenName);
    return rows.map((row) => ({
      data: (row.data ?? {}) as JsonObject,
      assigned: Object.fromEntries(DIMENSIONS.map((d) => [d, new Set((row[d] as Id[] | undefined) ?? [])])) as Record<Dimension, Set<Id>>,
    }));
  });
  rc.features.set(ACTIVE_CONTEXTS, contexts);
  return contexts;
}

function applies(context: Context, facts: Facts): boolean {
  return DIMENSIONS.every((d) => {
    const assigned = context.assigned[d];
    return assigned.size === 0 || facts[d].some((id) => assigned.has(id));
  });
}

/** Rows of `cls` by id, in one query; nulls and repeats in `ids` are dropped. */
async function byId(db: Executor, registry: Registry, cls: ModelClass, ids: Array<unknown>): Promise<Map<Id, Values>> {
  const wanted = [...new Set(ids.filter((id): id is Id => id !== null && id !== undefined))];
  const rows = wanted.length ? await new Store(db).find(registry.forClass(cls), wanted) : [];
  return new Map(rows.map((r) => [r.id as Id, r]));
}

/**
 * Every node of a tree model reachable upwards from `ids`, loaded one level per query: the
 * number of queries follows the depth of the tree, never the size of the page.
 */
async function withAncestors(db: Executor, registry: Registry, cls: ModelClass, ids: Array<unknown>): Promise<Map<Id, Values>> {
  const nodes = new Map<Id, Values>();
  let frontier = ids;
  while (frontier.length) {
    const found = await byId(db, registry, cls, frontier.filter((id) => !nodes.has(id as Id)));
    for (const [id, row] of found) nodes.set(id, row);
    frontier = [...found.values()].map((r) => r.parent).filter((p) => p !== null && p !== undefined && !nodes.has(p as Id));
  }
  return nodes;
}

function lineage(nodes: Map<Id, Values>, start: unknown): Id[] {
  const out: Id[] = [];
  let current = start as Id | null | undefined;
  while (current !== null && current !== undefined && !out.includes(current)) {
    out.push(current);
    current = nodes.get(current)?.parent as Id | null | undefined;
  }
  return out;
}

/**
 * The dynamic groups among those the contexts name that each object belongs to, each group's
 * members computed live by the same filter engine as the REST lists (one query per group).
 */
async function groupsOf(db: Executor, registry: Registry, model: ModelMeta, objects: Values[], contexts: Context[]): Promise<Map<Id, Id[]>> {
  const out = new Map<Id, Id[]>();
  const named = [...new Set(contexts.flatMap((c) => [...c.assigned.dynamic_groups]))];
  if (named.length === 0 || objects.length === 0) return out;
  const store = new Store(db, registry);
  const ids = objects.map((o) => o.id as Id);
  for (const group of await store.find(DynamicGroup, named)) {
    if (group.content_type !== model.label) continue;
    const condition = await memberCondition(db, registry, group);
    for (const id of await store.ids(model, and([condition, fieldTest(model.pk, 'exact', ids)]))) {
      out.set(id, [...(out.get(id) ?? []), group.id as Id]);
    }
  }
  return out;
}

const one = (id: unknown): Id[] => (id === null || id === undefined ? [] : [id as Id]);

/**
 * The facts of a page of devices or VMs. A device names its site, role and device type
 * itself; a VM reaches its site through its cluster and has no device type. Regions and tenant
 * groups include their ancestors, as Nautobot matches trees.
 */
async function factsOf(db: Executor, registry: Registry, model: ModelMeta, objects: Values[], contexts: Context[]): Promise<Map<Id, Facts>> {
  const isDevice = model.field('device_type') !== undefined;
  const clusters = await byId(db, registry, Cluster, objects.map((o) => o.cluster));
  const siteOf = (o: Values): unknown => (isDevice ? o.site : clusters.get(o.cluster as Id)?.site);
  const sites = await byId(db, registry, Site, objects.map(siteOf));
  const regions = await withAncestors(db, registry, Region, [...sites.values()].map((s) => s.region));
  const tenants = await byId(db, registry, Tenant, objects.map((o) => o.tenant));
  const tenantGroups = await withAncestors(db, registry, TenantGroup, [...tenants.values()].map((t) => t.group));
  const groups = await groupsOf(db, registry, model, objects, contexts);
  const out = new Map<Id, Facts>();
  for (const o of objects) {
    const site = siteOf(o) as Id | undefined;
    const cluster = clusters.get(o.cluster as Id);
    const tenant = tenants.get(o.tenant as Id);
    out.set(o.id as Id, {
      regions: lineage(regions, sites.get(site as Id)?.region),
      sites: one(site),
      roles: one(isDevice ? o.device_role : o.role),
      device_types: one(isDevice ? o.device_type : null),
      platforms: one(o.platform),
      cluster_groups: one(cluster?.group),
      clusters: one(o.cluster),
      tenant_groups: lineage(tenantGroups, tenant?.group),
      tenants: one(o.tenant),
      tags: (o.tags as Id[] | undefined) ?? [],
      dynamic_groups: groups.get(o.id as Id) ?? [],
    });
  }
  return out;
}

const LOCAL_DATA = 'local_context_data';
/** The fields of a device or VM that factsOf reads (each model has a part of them). */
const FACT_FIELDS = ['cluster', 'site', 'tenant', 'device_role', 'role', 'device_type', 'platform', 'tags'];

/**
 * `config_context` of devices and virtual machines: the active contexts that match each object,
 * deep-merged by ascending (weight, name), then the object's `local_context_data`. A page costs
 * the same queries whatever its size: the contexts once, the page's objects and the rows their
 * facts come from, each in one query (trees: one per level).
 */
export const provider: ComputedValueProvider = {
  // The local data is a column of the page's rows: without active contexts nothing else is read.
  select(field, scope, mode) {
    const local = field.model.field(LOCAL_DATA) as FieldMeta;
    return local.kind.reader(local, scope, mode) ?? (() => null);
  },
  async load(field: FieldMeta, ids: Id[], rc: RenderContext, selected?: ReadonlyMap<Id, unknown>): Promise<Map<Id, Json>> {
    const out = new Map<Id, Json>();
    if (ids.length === 0) return out;
    const registry = field.model.registry as Registry;
    const contexts = await activeContexts(rc, registry);
    // Only what the merge reads: the local data, and the facts contexts are assigned by.
    const objects =
      !contexts.length && selected
        ? ids.map((id) => ({ id, [LOCAL_DATA]: selected.get(id) ?? null }))
        : await new Store(rc.db).findFields(field.model, ids, contexts.length ? [LOCAL_DATA, ...FACT_FIELDS] : [LOCAL_DATA]);
    const facts = contexts.length ? await factsOf(rc.db, registry, field.model, objects, contexts) : new Map<Id, Facts>();
    for (const o of objects) {
      const f = facts.get(o.id as Id);
      let merged: JsonObject = {};
      for (const c of contexts) if (f && applies(c, f)) merged = deepMerge(merged, c.data);
      if (o.local_context_data) merged = deepMerge(merged, o.local_context_data as JsonObject);
      out.set(o.id as Id, merged);
    }
    return out;
  },
};
