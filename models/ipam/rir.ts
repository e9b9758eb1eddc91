import { NotesUrl, Field, Model, OrganizationalModel, RelatedCount } from '../../framework';
import { Aggregate } from './aggregate';

/** A regional Internet registry (ARIN, RIPE…) or a private space such as RFC 1918. */
@Model({
  path: 'rirs',
  verboseName: 'RIR',
  display: 'name',
  brief: ['name', 'slug', 'aggregate_count'],
  ordering: ['name'],
  search: ['name', 'slug'],
})
export class RIR extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.Boolean({ default: false, label: 'Private', help: 'IP space managed by this RIR is considered private' })
  is_private!: boolean;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Aggregate, 'rir')
  aggregate_count!: number;
}
