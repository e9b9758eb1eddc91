import { NotesUrl, ContentTypesField, Field, Model, OrganizationalModel } from '../../framework';

/** A named state (active, planned…) that objects of the selected models can take. */
@Model({
  path: 'statuses',
  verboseNamePlural: 'statuses',
  display: 'name',
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: ['name', 'slug'],
})
export class Status extends OrganizationalModel {
  @NotesUrl()
  notes_url!: string;

  @ContentTypesField({ forFeature: 'statuses' })
  content_types!: string[];

  @Field.String({ maxLength: 50, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 50, from: 'name' })
  slug!: string;

  @Field.String({ maxLength: 6, pattern: /^[0-9a-f]{6}$/, patternMessage: 'Enter a valid hexadecimal RGB color code.', default: '9e9e9e', required: false })
  color!: string;
}
