import {
  ChoiceField,
  ComputedField,
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  StatusField,
  ValidationError,
  type Id,
  type Values,
  type WriteContext,
} from '../../framework';
import { Status } from '../extras/status';
import { PowerFeedPhaseChoices, PowerFeedSupplyChoices, PowerFeedTypeChoices } from './choices';
import { Cable } from './cable';
import { CABLE_FK, CABLE_PEER, CABLE_PEER_TYPE, CABLE_TERMINATIONS, CONNECTED_ENDPOINT, CONNECTED_ENDPOINT_REACHABLE, CONNECTED_ENDPOINT_TYPE, PathEndpoint } from './device-component';
import { PowerPanel } from './power-panel';
import { Rack } from './rack';
import { Site } from './site';

/** A circuit from a power panel to a rack, with its electrical characteristics. */
@Model({
  path: 'power-feeds',
  display: 'name',
  brief: ['name', 'cable'],
  ordering: ['power_panel.site._name', 'power_panel.name', 'name'],
  search: ['name', 'comments'],
  uniqueTogether: [['power_panel', 'name']],
  features: [CABLE_TERMINATIONS],
  filters: {
    region: { path: 'power_panel.site.region' },
    region_id: { path: 'power_panel.site.region' },
    site: { path: 'power_panel.site', naturalKey: 'slug' },
    site_id: { path: 'power_panel.site', by: 'id' },
  },
})
export class PowerFeed extends PathEndpoint {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => PowerPanel, { onDelete: 'protect', related: 'powerfeeds', naturalKey: 'name' })
  power_panel!: PowerPanel;

  @ForeignKey(() => Rack, { nullable: true, onDelete: 'protect', related: 'powerfeeds', naturalKey: 'name' })
  rack!: Rack | null;

  @Field.String({ maxLength: 100 })
  name!: string;

  @StatusField(() => Status)
  status!: Status;

  @ChoiceField(PowerFeedTypeChoices, { default: 'primary', required: false, single: true })
  type!: string;

  @ChoiceField(PowerFeedSupplyChoices, { default: 'ac', required: false, single: true })
  supply!: string;

  @ChoiceField(PowerFeedPhaseChoices, { default: 'single-phase', required: false, single: true })
  phase!: string;

  @Field.Integer({ min: -32768, max: 32767, default: 120, required: false })
  voltage!: number;

  @Field.Integer({ min: 1, max: 32767, default: 20, required: false })
  amperage!: number;

  @Field.Integer({ min: 1, max: 100, default: 80, required: false, help: 'Maximum permissible draw (percentage)' })
  max_utilization!: number;

  /** Stored on every save for the list filter; Nautobot's representation leaves it out. */
  @Field.Integer({ min: 0, default: 0, required: false, readOnly: true, hidden: true, filterable: true })
  available_power!: number;

  @Field.Text()
  comments!: string;

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

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    // Django's ExclusionValidator on the field runs before the model's own rules.
    if (values.voltage === 0) throw ValidationError.field('voltage', 'This value may not be 0.');
    await checkRackSite(values, wc);
    if ((values.voltage as number) < 0 && values.supply === 'ac') throw ValidationError.field('voltage', 'Voltage cannot be negative for AC supply');
  }

  static beforeSave(values: Values): void {
    values.available_power = availablePower(values);
  }
}

/** Volt-amperes the feed may deliver at its maximum utilisation (×√3 for three phases), rounded. */
export function availablePower(values: Values): number {
  const va = Math.abs(values.voltage as number) * (values.amperage as number) * ((values.max_utilization as number) / 100);
  return roundHalfEven(values.phase === 'three-phase' ? va * 1.732 : va);
}

/** Python's round(): halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const down = Math.floor(x);
  const diff = x - down;
  if (diff > 0.5) return down + 1;
  if (diff < 0.5) return down;
  return down % 2 === 0 ? down : down + 1;
}

/** The feed's rack stands in its panel's site (groups and locations are not compared). */
async function checkRackSite(values: Values, wc: WriteContext): Promise<void> {
  if (!values.rack) return;
  const [rack, panel] = await Promise.all([wc.store.get(Rack, values.rack as Id), wc.store.get(PowerPanel, values.power_panel as Id)]);
  if (!rack || !panel || rack.site === panel.site) return;
  const [rackSite, panelSite] = await Promise.all([wc.store.get(Site, rack.site as Id), wc.store.get(Site, panel.site as Id)]);
  const rackName = rack.facility_id ? `${String(rack.name)} (${String(rack.facility_id)})` : String(rack.name);
  throw ValidationError.model(
    `Rack ${rackName} (${String(rackSite?.name)}) and power panel ${String(panel.name)} (${String(panelSite?.name)}) are in different sites`,
  );
}
