import {
  Field,
  ForeignKey,
  Model,
  NotesUrl,
  PrimaryModel,
  ValidationError,
  type Id,
  type Values,
  type WriteContext,
} from '../../framework';
import { Tenant } from '../tenancy/tenant';
import { User } from '../users/user';
import { Rack } from './rack';

/** Some units of a rack reserved by a user, optionally for a tenant. */
@Model({
  path: 'rack-reservations',
  display: {
    fields: ['rack.name', 'rack.facility_id'],
    render: (v) => `Reservation for rack ${v['rack.facility_id'] ? `${String(v['rack.name'])} (${String(v['rack.facility_id'])})` : String(v['rack.name'])}`,
  },
  brief: ['user', 'units'],
  ordering: ['created', 'id'],
  search: ['rack.name', 'rack.facility_id', 'user.username', 'description'],
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
    site: { path: 'rack.site', naturalKey: 'slug' },
    site_id: { path: 'rack.site', by: 'id' },
    group: { path: 'rack.group' },
    group_id: { path: 'rack.group' },
  },
})
export class RackReservation extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Rack, { onDelete: 'cascade', related: 'reservations' })
  rack!: Rack;

  @Field.IntegerArray({ min: 0, max: 32767 })
  units!: number[];

  @ForeignKey(() => User, { onDelete: 'protect', related: 'rack_reservations' })
  user!: User;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'rackreservations' })
  tenant!: Tenant | null;

  @Field.String({ maxLength: 200 })
  description!: string;

  /** Nautobot's create view saves the reservation with the requesting user, whatever the body named. */
  static prepare(values: Values, wc: WriteContext): void {
    if (wc.creating && wc.actor) values.user = wc.actor.id;
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const rack = await wc.store.get(Rack, values.rack as Id);
    const units = (values.units as number[] | undefined) ?? [];
    if (!rack || units.length === 0) return;
    const height = rack.u_height as number;
    const invalid = units.filter((u) => u < 1 || u > height);
    if (invalid.length) throw ValidationError.field('units', `Invalid unit(s) for ${height}U rack: ${invalid.join(', ')}`);
    const reserved = new Set<number>();
    for (const other of await wc.store.find(RackReservation, { rack: rack.id })) {
      if (other.id === wc.id) continue;
      for (const u of other.units as number[]) reserved.add(u);
    }
    const conflicting = units.filter((u) => reserved.has(u));
    if (conflicting.length) throw ValidationError.field('units', `The following units have already been reserved: ${conflicting.join(', ')}`);
  }
}
