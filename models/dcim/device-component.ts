import { Filter, PrimaryModel, type ComputedOptions, type Predicate, type Predicates, type PathFilterSpec, type Id, type WriteContext } from '../../framework';
import { CABLE_TERMINATIONS, deleteCablesOf } from './cable-ends';

export { CABLE_TERMINATIONS };

/**
 * What the components of a device share besides their fields (declared per model, so that each
 * keeps Nautobot's field order): the filters that reach the device's site and region, and the
 * cable filters.
 */
export const COMPONENT_FILTERS: Record<string, PathFilterSpec> = {
  region: { path: 'device.site.region' },
  region_id: { path: 'device.site.region' },
  site: { path: 'device.site', naturalKey: 'slug' },
  site_id: { path: 'device.site', by: 'id' },
};

/**
 * The read-only path keys of a path endpoint (`connected_endpoint`…): null until paths are
 * traced.
 */
export const UNCABLED: ComputedOptions = { from: [], compute: () => null, readOnly: true };

/** The `cable` key of a cable termination: set by creating a cable, never written directly. */
export const CABLE_FK = { nullable: true, onDelete: 'set_null', readOnly: true, briefAsId: true, idFilter: false, naturalKey: false } as const;

/** `cable_peer` and `cable_peer_type`, supplied by the dcim application for a page at a time. */
export const CABLE_PEER: ComputedOptions = { provider: 'cable_peer', readOnly: true };
export const CABLE_PEER_TYPE: ComputedOptions = { provider: 'cable_peer_type', readOnly: true };

/** `connected_endpoint`, `connected_endpoint_type` and `connected_endpoint_reachable` of path endpoints, from their stored paths. */
export const CONNECTED_ENDPOINT: ComputedOptions = { provider: 'connected_endpoint', readOnly: true };
export const CONNECTED_ENDPOINT_TYPE: ComputedOptions = { provider: 'connected_endpoint_type', readOnly: true };
export const CONNECTED_ENDPOINT_REACHABLE: ComputedOptions = { provider: 'connected_endpoint_reachable', readOnly: true };

/** Endpoints whose stored path is active (true), or that have none or an inactive one (false). */
export function connectedPredicate(value: boolean, p: Predicates): Predicate {
  const active = p.pointedAtBy('dcim.cablepath', 'origin', { is_active: true });
  return value ? active : p.not(active);
}

/** A component on a device that a cable may end on. */
export abstract class CableEnd extends PrimaryModel {
  /** Components with (true) or without (false) a cable. */
  @Filter({ type: 'boolean', help: 'Cabled' })
  static cabled(value: boolean, p: Predicates): Predicate {
    return p.lookup('cable', 'isnull', !value);
  }

  /** A component's cable goes with it. */
  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    await deleteCablesOf(ids, wc);
  }
}

/** A cable end that a cable path can start or end on (not front and rear ports). */
export abstract class PathEndpoint extends CableEnd {
  /** Endpoints with (true) or without (false) an active path. */
  @Filter({ type: 'boolean', help: 'Connected' })
  static connected(value: boolean, p: Predicates): Predicate {
    return connectedPredicate(value, p);
  }
}
