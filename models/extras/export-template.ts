import { NotesUrl, ChangeLoggedModel, ComputedField, ContentTypeField, Field, Model, ValidationError, type Values, type WriteContext } from '../../framework';

/**
 * A template that renders a list of one model's objects as a file. Nautobot renders them on its
 * web list views (`?export=`); netinv, without a web UI, through the `render/` action
 * (export-template.actions.ts).
 */
@Model({
  path: 'export-templates',
  display: {
    fields: ['content_type', 'name'],
    objects: { owner: { type: 'owner_content_type', id: 'owner_object_id' } },
    render: (v) => `${v.owner ? `[${String(v.owner)}] ` : ''}${String(v.content_type).replace('.', ' | ')}: ${String(v.name)}`,
  },
  brief: ['name'],
  ordering: ['content_type', 'name'],
  search: ['name', 'owner_content_type', 'content_type', 'description'],
  uniqueTogether: [['content_type', 'name', 'owner_content_type', 'owner_object_id']],
})
export class ExportTemplate extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @ContentTypeField({ single: true })
  content_type!: string;

  @ContentTypeField({ nullable: true, required: false, default: null, single: true, forFeature: 'export_template_owners' })
  owner_content_type!: string | null;

  @Field.UUID({ nullable: true, required: false, default: null })
  owner_object_id!: string | null;

  /** The owner (a Git repository in core) in its nested form, or null (owner.provider.ts). */
  @ComputedField({ provider: 'owner', label: 'Owner' })
  owner!: unknown;

  @Field.String({ maxLength: 100 })
  name!: string;

  @Field.String({ maxLength: 200, blank: true, lookups: false })
  description!: string;

  @Field.Text({ blank: false, required: true, lookups: false, help: 'The list of objects being exported is passed as a context variable named queryset.' })
  template_code!: string;

  @Field.String({ maxLength: 50, blank: true, lookups: false, help: 'Defaults to text/plain' })
  mime_type!: string;

  @Field.String({ maxLength: 15, blank: true, lookups: false, help: 'Extension to append to the rendered filename' })
  file_extension!: string;

  /** (content type, name, owner) is unique; SQL never finds two null owners equal, so checked here. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (values.owner_content_type || values.owner_object_id) return;
    const same = { content_type: values.content_type, name: values.name, owner_content_type: null, owner_object_id: null };
    if (await wc.store.count(ExportTemplate, same, { exceptId: wc.id })) {
      throw ValidationError.model('An ExportTemplate with this name and content type already exists.');
    }
  }
}
