import { Field, Model, NotesUrl, OrganizationalModel, RelatedCount } from '../../framework';
import { Circuit } from './circuit';

/** A category of circuits by function (transit, metro, out-of-band). */
@Model({
  path: 'circuit-types',
  display: 'name',
  brief: ['name', 'slug', 'circuit_count'],
  ordering: ['name'],
  search: ['name', 'slug'],
})
export class CircuitType extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 100, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true })
  description!: string;

  @RelatedCount(() => Circuit, 'type')
  circuit_count!: number;
}
