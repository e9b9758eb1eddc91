import { Field, ForeignKey, Model, NotesUrl, PrimaryModel } from '../../framework';
import { Provider } from './provider';

/** A provider's network cloud (an MPLS service) that circuit terminations may land in instead of a site. */
@Model({
  path: 'provider-networks',
  display: { fields: ['provider.name', 'name'], render: (v) => `${String(v['provider.name'])} ${String(v.name)}` },
  brief: ['name', 'slug'],
  ordering: ['provider.name', 'name'],
  search: ['name', 'description', 'comments'],
  uniqueTogether: [['provider', 'name']],
})
export class ProviderNetwork extends PrimaryModel {
  @NotesUrl()
  notes_url!: string;

  @ForeignKey(() => Provider, { onDelete: 'protect', related: 'provider_networks' })
  provider!: Provider;

  @Field.String({ maxLength: 100 })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @Field.Text({ lookups: false })
  comments!: string;
}
