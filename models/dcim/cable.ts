import {
  ChoiceField, Field, Filter, GenericForeignKey, Model, NotesUrl, PrimaryModel, StatusField,
  type Id, type Predicate, type Predicates, type Values, type WriteContext,
} from '../../framework';
import { Status } from '../extras/status';
import { CableLengthUnitChoices, CableTypeChoices } from './cable-choices';
import { checkCable } from './cable-rules';
import { attachEnds, detachEnds, statusChanged } from './cable-ends';

/** Nautobot's Cable.clean() words a missing end this way, under `termination_a` / `termination_b`. */
const NOT_FOUND = { on: 'relation', message: 'Invalid ID for type {type}' } as const;

/** Device components a cable may end on: the filters by device look through them. */
const DEVICE_COMPONENTS = ['dcim.consoleport', 'dcim.consoleserverport', 'dcim.powerport', 'dcim.poweroutlet', 'dcim.interface', 'dcim.frontport', 'dcim.rearport'];

/** Either end is a device component whose device matches `attributes`. */
function endsOnDevice(p: Predicates, attributes: Record<string, unknown>): Predicate {
  return p.or(['termination_a', 'termination_b'].flatMap((relation) => DEVICE_COMPONENTS.map((label) => p.generic(relation, label, attributes))));
}

/** A physical cable joining two cable terminations (device ports, power feeds, circuit terminations). */
@Model({
  path: 'cables',
  display: { fields: ['label', 'id'], render: (v) => (v.label ? String(v.label) : `#${String(v.id)}`) },
  brief: ['label'],
  ordering: ['termination_a_type', 'termination_a_id', 'termination_b_type', 'termination_b_id'],
  search: ['label'],
  uniqueTogether: [['termination_a_type', 'termination_a_id'], ['termination_b_type', 'termination_b_id']],
})
export class Cable extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  /** Either end may be any model declaring the `cable_terminations` feature. */
  @GenericForeignKey({ forFeature: 'cable_terminations', required: true, notFound: NOT_FOUND, indexed: false })
  termination_a!: unknown;

  @GenericForeignKey({ forFeature: 'cable_terminations', required: true, notFound: NOT_FOUND, indexed: false })
  termination_b!: unknown;

  @ChoiceField(CableTypeChoices, { blank: true, plain: true })
  type!: string;

  @StatusField(() => Status)
  status!: Status;

  @Field.String({ maxLength: 100, blank: true })
  label!: string;

  @Field.String({ maxLength: 6, blank: true, pattern: /^[0-9a-f]{6}$/, patternMessage: 'Enter a valid hexadecimal RGB color code.' })
  color!: string;

  @Field.Integer({ nullable: true, min: 0, max: 32767 })
  length!: number | null;

  @ChoiceField(CableLengthUnitChoices, { blank: true, single: true })
  length_unit!: string;

  /** Cables with an end on a device of the given name (Nautobot's filter_device), by id below. */
  @Filter({ type: 'string', multiple: 'or', help: 'Device (name)' })
  static device(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__name: value });
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Device (ID)' })
  static device_id(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device: value });
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Site (slug)' })
  static site(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__site__slug: value });
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Site (ID)' })
  static site_id(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__site: value });
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Rack (name)' })
  static rack(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__rack__name: value });
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Rack (ID)' })
  static rack_id(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__rack: value });
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Region (ID) of either end\'s site, without descendants' })
  static region_id(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__site__region: value });
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Region (slug) of either end\'s site, without descendants' })
  static region(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__site__region__slug: value });
  }

  @Filter({ type: 'uuid', multiple: 'or', help: 'Tenant (ID) of either end\'s device' })
  static tenant_id(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__tenant: value });
  }

  @Filter({ type: 'string', multiple: 'or', help: 'Tenant (slug) of either end\'s device' })
  static tenant(value: string, p: Predicates): Predicate {
    return endsOnDevice(p, { device__tenant__slug: value });
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    await checkCable(values, wc);
  }

  /** Both ends point at the cable (and at each other) in the cable's transaction. */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    if (wc.creating) await attachEnds(values, wc);
    else await statusChanged(values, wc);
  }

  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    await detachEnds(ids, wc);
  }
}
