import {
  ChoiceField, defineChoices, Field, ForeignKey, Model, PrimaryModel, RelatedCount, StatusField, ValidationError,
  type ChoiceValue, type Values, type WriteContext,
} from '../../framework';
import { Provider } from '../../models/circuits/provider';
import { Status } from '../../models/extras/status';

export const SessionStatus = defineChoices({ active: 'Active', planned: 'Planned', disabled: 'Disabled' });
export type SessionStatus = ChoiceValue<typeof SessionStatus>;

/** RFC 6996 private-use ranges. */
function isPrivateAsn(asn: number): boolean {
  return (asn >= 64512 && asn <= 65534) || (asn >= 4200000000 && asn <= 4294967294);
}

/**
 * The statuses an autonomous system may have, as Nautobot's BGP models app enables them by
 * default; the plugin's migration adds its content type to them.
 */
export const AUTONOMOUS_SYSTEM_STATUSES = ['active', 'available', 'planned'] as const;

/**
 * An autonomous system number, with the BGP sessions that use it: the fields of Nautobot's BGP
 * models app (asn, description, provider, status), so its clients work unchanged.
 */
@Model({
  path: 'autonomous-systems',
  verboseName: 'autonomous system',
  display: { fields: ['asn'], render: (v) => `AS${String(v.asn)}` },
  brief: ['asn'],
  ordering: ['asn'],
  search: ['asn', 'description'],
})
export class AutonomousSystem extends PrimaryModel {
  @Field.Integer({ min: 1, max: 4294967295, big: true, unique: true, label: 'ASN' })
  asn!: number;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @ForeignKey(() => Provider, { nullable: true, onDelete: 'protect', related: 'autonomous_systems' })
  provider!: Provider | null;

  // Optional where Nautobot requires it: creates that leave it out (the plugin's job, older
  // clients of this example) get Active.
  @StatusField(() => Status, { defaultSlug: 'active', required: false })
  status!: Status;

  @RelatedCount(() => PeerSession, 'local_as', { label: 'Sessions' })
  session_count!: number;

  /** Private ASNs are refused unless the plugin's `allow_private_asn` setting is on. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (wc.model.app.settings.allow_private_asn === false && isPrivateAsn(Number(values.asn))) {
      throw ValidationError.field('asn', `AS${String(values.asn)} is a private ASN, which this installation does not allow.`);
    }
  }
}

/** One BGP session between a local and a remote autonomous system. */
@Model({
  path: 'sessions',
  verboseName: 'peer session',
  display: 'name',
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'remote_address', 'description'],
})
export class PeerSession extends PrimaryModel {
  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @ForeignKey(() => AutonomousSystem, { onDelete: 'protect', related: 'local_sessions', label: 'Local AS', naturalKey: 'asn' })
  local_as!: AutonomousSystem;

  @ForeignKey(() => AutonomousSystem, { nullable: true, onDelete: 'set_null', related: 'remote_sessions', label: 'Remote AS', naturalKey: 'asn' })
  remote_as!: AutonomousSystem | null;

  @Field.String({ maxLength: 64, blank: true, help: 'Address of the peer' })
  remote_address!: string;

  @ChoiceField(SessionStatus, { default: 'active' })
  status!: SessionStatus;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;
}
