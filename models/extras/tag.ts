import {
  NotesUrl,
  BaseModel,
  ContentTypesField,
  Field,
  ForeignKey,
  Model,
  OrganizationalModel,
  RelatedCount,
  ValidationError,
  type Values,
  type WriteContext,
} from '../../framework';

/** A label with a colour that can be applied to objects of the selected models. */
@Model({
  path: 'tags',
  display: 'name',
  brief: ['name', 'slug', 'color'],
  ordering: ['name'],
  search: ['name', 'slug'],
})
export class Tag extends OrganizationalModel {
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

  @RelatedCount(() => TaggedItem, 'tag', { label: 'Tagged items' })
  tagged_items!: number;

  /** API 1.2 has no content_types: a tag created there applies to every taggable model. */
  @ContentTypesField({ forFeature: 'tags', since: '1.3' })
  content_types!: string[];

  /** Removing a content type that tagged objects still use is refused. */
  static async clean(values: Values, wc: WriteContext): Promise<void> {
    if (wc.creating) return;
    const used = new Set((await wc.store.pluck(TaggedItem, { tag: wc.id }, ['content_type'])).map((r) => String(r.content_type)));
    const kept = new Set(values.content_types as string[]);
    const lost = [...used].filter((ct) => !kept.has(ct)).sort();
    if (lost.length) {
      throw new ValidationError({ content_types: [`Unable to remove ${lost.join(', ')}. Dependent objects were found.`] });
    }
  }
}

/** One tag on one object of any taggable model. */
@Model({
  path: null,
  display: { fields: ['content_type', 'object_id'], render: (v) => `${String(v.content_type)} ${String(v.object_id)}` },
  uniqueTogether: [['content_type', 'object_id', 'tag']],
})
export class TaggedItem extends BaseModel {
  @ForeignKey(() => Tag, { onDelete: 'cascade', related: 'tagged' })
  tag!: Tag;

  @Field.String({ maxLength: 100 })
  content_type!: string;

  @Field.UUID()
  object_id!: string;
}
