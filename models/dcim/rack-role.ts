import { Field, Model, NotesUrl, OrganizationalModel, RelatedCount } from '../../framework';
import { Rack } from './rack';

/** A functional label for racks (compute, network) with a colour. */
@Model({
  path: 'rack-roles',
  display: 'name',
  brief: ['name', 'slug', 'rack_count'],
  ordering: ['name'],
  search: ['name', 'slug'],
  filters: {
    racks: { path: 'racks', by: 'id' },
    has_racks: { has: 'racks' },
  },
})
export class RackRole extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 6, pattern: /^[0-9a-f]{6}$/, patternMessage: 'Enter a valid hexadecimal RGB color code.', default: '9e9e9e', required: false })
  color!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Rack, 'role')
  rack_count!: number;
}
