import { Field, Model, NotesUrl, PrimaryModel, RelatedCount } from '../../framework';
import { Circuit } from './circuit';

/** A company (usually a carrier) that supplies circuits. */
@Model({
  path: 'providers',
  display: 'name',
  brief: ['name', 'slug', 'circuit_count'],
  ordering: ['name'],
  search: ['name', 'account', 'noc_contact', 'admin_contact', 'comments'],
  filters: {
    region: { path: 'circuits.terminations.site.region' },
    region_id: { path: 'circuits.terminations.site.region' },
    site: { path: 'circuits.terminations.site' },
    site_id: { path: 'circuits.terminations.site', by: 'id' },
    location: { path: 'circuits.terminations.location' },
  },
})
export class Provider extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.Integer({ big: true, nullable: true, min: 1, max: 4294967295, label: 'ASN', help: '32-bit autonomous system number' })
  asn!: number | null;

  @Field.String({ maxLength: 100, blank: true, label: 'Account number' })
  account!: string;

  @Field.Url({ label: 'Portal', lookups: false })
  portal_url!: string;

  @Field.Text({ lookups: false, label: 'NOC contact' })
  noc_contact!: string;

  @Field.Text({ lookups: false, label: 'Admin contact' })
  admin_contact!: string;

  @Field.Text({ lookups: false })
  comments!: string;

  @RelatedCount(() => Circuit, 'provider')
  circuit_count!: number;
}
