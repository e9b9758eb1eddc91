import { ChoiceField, ComputedField, Field, Filter, ForeignKey, Model, NotesUrl, OrganizationalModel, ValidationError, type Id, type Predicate, type Predicates, type Values, type WriteContext } from '../../framework';
import { Cable } from '../dcim/cable';
import { circuitTerminationSaved } from '../dcim/cable-trace';
import { deleteCablesOf } from '../dcim/cable-ends';
import { connectedPredicate, CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS, CONNECTED_ENDPOINT, CONNECTED_ENDPOINT_TYPE, CONNECTED_ENDPOINT_REACHABLE } from '../dcim/device-component';
import { Location } from '../dcim/location';
import { checkLocation } from '../dcim/location-rules';
import { Site } from '../dcim/site';
import { CircuitTerminationSideChoices } from './choices';
import { Circuit } from './circuit';
import { ProviderNetwork } from './provider-network';

/** One end (A or Z) of a circuit: at a site, or in a provider network. */
@Model({
  path: 'circuit-terminations',
  display: {
    fields: ['term_side', 'site.name', 'provider_network.name'],
    render: (v) => `Termination ${String(v.term_side)}: ${String(v['site.name'] ?? v['provider_network.name'] ?? '')}`,
  },
  brief: ['circuit', 'term_side', 'cable'],
  ordering: ['circuit.provider.name', 'circuit.cid', 'term_side'],
  search: ['circuit.cid', 'xconnect_id', 'pp_info', 'description'],
  uniqueTogether: [['circuit', 'term_side']],
  features: ['locations', CABLE_TERMINATIONS],
  filters: {
    region: { path: 'site.region' },
    region_id: { path: 'site.region' },
  },
})
export class CircuitTermination extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Circuit, { onDelete: 'cascade', related: 'terminations', naturalFilter: false })
  circuit!: Circuit;

  @ChoiceField(CircuitTerminationSideChoices, { plain: true, single: true, maxLength: 1, label: 'Termination' })
  term_side!: string;

  @ForeignKey(() => Site, { nullable: true, onDelete: 'protect', related: 'circuit_terminations' })
  site!: Site | null;

  @ForeignKey(() => Location, { nullable: true, onDelete: 'protect', related: 'circuit_terminations' })
  location!: Location | null;

  @ForeignKey(() => ProviderNetwork, { nullable: true, onDelete: 'protect', related: 'circuit_terminations', naturalFilter: false })
  provider_network!: ProviderNetwork | null;

  @Field.Integer({ nullable: true, min: 0, max: 2147483647, label: 'Port speed (Kbps)' })
  port_speed!: number | null;

  @Field.Integer({ nullable: true, min: 0, max: 2147483647, label: 'Upstream speed (Kbps)', help: 'Upstream speed, if different from port speed' })
  upstream_speed!: number | null;

  @Field.String({ maxLength: 50, blank: true, label: 'Cross-connect ID' })
  xconnect_id!: string;

  @Field.String({ maxLength: 100, blank: true, lookups: false, label: 'Patch panel/port(s)' })
  pp_info!: string;

  @Field.String({ maxLength: 200, blank: true, lookups: false })
  description!: string;

  @ForeignKey(() => Cable, CABLE_FK)
  cable!: Cable | null;

  @ComputedField(CABLE_PEER)
  cable_peer!: unknown;

  @ComputedField(CABLE_PEER_TYPE)
  cable_peer_type!: string | null;

  @ComputedField(CONNECTED_ENDPOINT)
  connected_endpoint!: unknown;

  @ComputedField(CONNECTED_ENDPOINT_TYPE)
  connected_endpoint_type!: string | null;

  @ComputedField(CONNECTED_ENDPOINT_REACHABLE)
  connected_endpoint_reachable!: boolean | null;

  /** Terminations with (true) or without (false) a cable. */
  @Filter({ type: 'boolean', help: 'Cabled' })
  static cabled(value: boolean, p: Predicates): Predicate {
    return p.lookup('cable', 'isnull', !value);
  }

  /** Paths through the circuit follow the new or changed termination (Nautobot's circuits signal). */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    await circuitTerminationSaved(values, wc);
  }

  /** Terminations with (true) or without (false) an active path. */
  @Filter({ type: 'boolean', help: 'Connected' })
  static connected(value: boolean, p: Predicates): Predicate {
    return connectedPredicate(value, p);
  }

  /** A termination's cable goes with it. */
  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    await deleteCablesOf(ids, wc);
  }

  /** Exactly one of site and provider network; a location only with a site (Nautobot's CircuitTermination.clean). */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (!values.site && !values.provider_network) {
      throw new ValidationError({ __all__: ['A circuit termination must attach to either a site or a provider network.'] });
    }
    if (values.site && values.provider_network) {
      throw new ValidationError({ __all__: ['A circuit termination cannot attach to both a site and a provider network.'] });
    }
    if (values.location && values.provider_network) {
      throw new ValidationError({ __all__: ['A circuit termination cannot attach to both a location and a provider network.'] });
    }
    await checkLocation(values, wc, 'Circuit terminations');
  }
}
