import { FALSE, Filter, PrimaryModel, TRUE, type ComputedOptions, type Predicate, type PathFilterSpec } from '../../framework';

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
 * The read-only cable keys of a cable end (`cable`, `cable_peer`, `connected_endpoint`…): null
 * until a cable is attached, which no component can have before cables exist.
 */
export const UNCABLED: ComputedOptions = { from: [], compute: () => null, readOnly: true };

/** A component on a device that a cable may end on. */
export abstract class CableEnd extends PrimaryModel {
  /** Components with (true) or without (false) a cable: none has one yet. */
  @Filter({ type: 'boolean', help: 'Cabled' })
  static cabled(value: boolean): Predicate {
    return value ? FALSE : TRUE;
  }
}

/** A cable end that a cable path can start or end on (not front and rear ports). */
export abstract class PathEndpoint extends CableEnd {
  /** Endpoints with (true) or without (false) an active path: none has one yet. */
  @Filter({ type: 'boolean', help: 'Connected' })
  static connected(value: boolean): Predicate {
    return value ? FALSE : TRUE;
  }
}
