import { NotesUrl, ChangeLoggedModel, ContentTypeField, Field, Model } from '../../framework';

/**
 * A read-only value of the objects of one model, rendered from a template against each object
 * (`?include=computed_fields`); the fallback value replaces a rendering that fails.
 */
@Model({
  path: 'computed-fields',
  display: 'label',
  brief: ['content_type', 'label'],
  ordering: ['weight', 'slug'],
  search: ['label', 'description', 'content_type', 'template', 'fallback_value'],
  uniqueTogether: [['content_type', 'label']],
})
export class ComputedField extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @Field.Slug({ maxLength: 100, from: 'label', separator: '_', help: 'Internal field name. Please use underscores rather than dashes in this slug.' })
  slug!: string;

  @Field.String({ maxLength: 100, lookups: false, help: 'Name of the field as displayed to users' })
  label!: string;

  @Field.String({ maxLength: 200, blank: true, lookups: false })
  description!: string;

  @ContentTypeField({ forFeature: 'custom_fields', single: true })
  content_type!: string;

  @Field.Text({ maxLength: 500, blank: false, help: 'Jinja2 template code for field value' })
  template!: string;

  @Field.String({ maxLength: 500, blank: true, help: 'Fallback value (if any) to be output for the field in the case of a template rendering error.' })
  fallback_value!: string;

  @Field.Integer({ min: 0, max: 32767, default: 100 })
  weight!: number;
}
