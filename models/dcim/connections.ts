import { ActionRequest, Predicates, Store, and, filterSetFor, naturalize, type ExtraRoute, type Id, type Json, type ModelClass, type Registry } from '../../framework';
import { CablePath } from './cable-path';
import { ConsolePort } from './console-port';
import { Interface } from './interface';
import { PowerPort } from './power-port';

/**
 * The read-only connection lists of Nautobot's dcim API (behaviour-dcim.md §4). Console and power
 * connections are the ports that have a path destination, in their full form; interface
 * connections are pairs, each once.
 */
export function connectionRoutes(registry: Registry): ExtraRoute[] {
  return [portConnections('/dcim/console-connections/', ConsolePort), portConnections('/dcim/power-connections/', PowerPort), interfaceConnections(registry)];
}

/** Ports with a path destination (active or not), answered as the ports' own list with its filters. */
function portConnections(path: string, cls: ModelClass): ExtraRoute {
  return {
    path,
    auth: 'authenticated',
    versioned: false,
    methods: {
      GET: async (ctx, args) => {
        const model = ctx.registry.forClass(cls);
        const req = new ActionRequest(ctx, args, model);
        const connected = new Predicates(model).pointedAtBy('dcim.cablepath', 'origin', { destination_id__isnull: false });
        return req.list(cls, and([await req.restrict(cls, 'view'), connected]));
      },
    },
  };
}

/**
 * Interfaces whose path ends on another interface, each pair once (the side with the lower id is
 * `interface_a`); the interface filters (`device`, `device_id`, `site`…) match either side.
 */
function interfaceConnections(registry: Registry): ExtraRoute {
  return {
    path: '/dcim/interface-connections/',
    auth: 'authenticated',
    versioned: false,
    methods: {
      GET: async (ctx, args) => {
        const model = registry.forClass(Interface);
        const req = new ActionRequest(ctx, args, model);
        const store = new Store(ctx.db.reader, registry);
        const restrict = await req.restrict(Interface, 'view');
        const filters = await filterSetFor(model).parse(ctx.query, { db: ctx.db.reader }, ctx.config.strictFiltering);
        const paths = await store.pluck(CablePath, { origin_type: model.label, destination_type: model.label }, ['origin_id', 'destination_id', 'is_active']);
        const pairs = paths
          .map((p) => ({ a: String(p.origin_id), b: String(p.destination_id), active: Boolean(p.is_active) }))
          .filter((p) => p.a < p.b);
        const ends = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
        const shown = new Set<Id>(ends.length ? await store.ids(model, and([restrict, new Predicates(model).lookup('id', 'in', ends)])) : []);
        const matching = new Set<Id>(ends.length ? await store.ids(model, and([restrict, filters, new Predicates(model).lookup('id', 'in', ends)])) : []);
        const kept = pairs.filter((p) => shown.has(p.a) && shown.has(p.b) && (matching.has(p.a) || matching.has(p.b)));
        const nested = await req.nestedMany(Interface, [...new Set(kept.flatMap((p) => [p.a, p.b]))]);
        const sortKey = (id: Id) => {
          const n = nested.get(id) as { name?: string; device?: { name?: string } } | undefined;
          return `${naturalize(String(n?.device?.name ?? ''))}\u0000${naturalize(String(n?.name ?? ''))}`;
        };
        kept.sort((x, y) => (sortKey(x.a) < sortKey(y.a) ? -1 : sortKey(x.a) > sortKey(y.a) ? 1 : 0));
        const rows: Json[] = kept.map((p) => ({ interface_a: nested.get(p.a) ?? null, interface_b: nested.get(p.b) ?? null, connected_endpoint_reachable: p.active }));
        return req.paginate(rows);
      },
    },
  };
}
