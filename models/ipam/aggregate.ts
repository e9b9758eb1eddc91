import {
  NotesUrl,
  Field, ForeignKey, Model, NetworkField, networkText, PrimaryModel, ValidationError,
  type IPNetwork, type Predicates, type Values, type WriteContext, Filter,
} from '../../framework';
import { Tenant } from '../tenancy/tenant';
import { networkSearch, optionalNetwork } from './network-filters';
import { RIR } from './rir';

/** A top-level block of address space allocated by an RIR. */
@Model({
  path: 'aggregates',
  display: 'prefix',
  brief: ['family', 'prefix'],
  ordering: ['prefix'],
  filters: {
    tenant_group: { path: 'tenant.group' },
    tenant_group_id: { path: 'tenant.group' },
  },
})
export class Aggregate extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @NetworkField({ role: 'network', noun: 'aggregate' })
  prefix!: IPNetwork;

  @ForeignKey(() => RIR, { onDelete: 'protect', related: 'aggregates' })
  rir!: RIR;

  @ForeignKey(() => Tenant, { nullable: true, onDelete: 'protect', related: 'aggregates' })
  tenant!: Tenant | null;

  @Field.Date({ nullable: true })
  date_added!: string | null;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  /** Aggregates never overlap, across every RIR. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const text = networkText(values.prefix as IPNetwork);
    const others = (rows: Values[]) => rows.filter((r) => r.id !== wc.id);
    const [covering] = others(await wc.store.find(Aggregate, { prefix__net_contains_or_equals: text }));
    if (covering) {
      throw ValidationError.field('prefix', `Aggregates cannot overlap. ${text} is already covered by an existing aggregate (${networkText(covering.prefix as IPNetwork)}).`);
    }
    const [covered] = others(await wc.store.find(Aggregate, { prefix__net_contained: text }));
    if (covered) {
      throw ValidationError.field('prefix', `Aggregates cannot overlap. ${text} covers an existing aggregate (${networkText(covered.prefix as IPNetwork)}).`);
    }
  }

  @Filter({ type: 'string', help: 'Exact network (host bits ignored)' })
  static prefix(value: string, p: Predicates) {
    const n = optionalNetwork(value);
    return n ? p.lookup('prefix', 'net_equals', networkText(n)) : p.or([]);
  }

  @Filter({ type: 'string', help: 'Description, or networks containing or inside the given (partial) address' })
  static q(value: string, p: Predicates) {
    return networkSearch(value, p, 'prefix');
  }
}
