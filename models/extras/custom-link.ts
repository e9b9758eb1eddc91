import { NotesUrl, ChangeLoggedModel, ChoiceField, ContentTypeField, Field, Model } from '../../framework';
import { ButtonClass } from './choices';

/** A link shown on the pages of one model's objects, its text and URL rendered from templates. */
@Model({
  path: 'custom-links',
  display: 'name',
  brief: ['name'],
  ordering: ['group_name', 'weight', 'name'],
  search: ['name', 'target_url', 'text', 'content_type'],
})
export class CustomLink extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @Field.String({ maxLength: 500, help: 'Jinja2 template code for link URL. Reference the object as {{ obj }} such as {{ obj.platform.slug }}.' })
  target_url!: string;

  @Field.String({ maxLength: 100, unique: true })
  name!: string;

  @ContentTypeField({ single: true })
  content_type!: string;

  @Field.String({ maxLength: 500, help: 'Jinja2 template code for link text. Reference the object as {{ obj }} such as {{ obj.platform.slug }}. Links which render as empty text will not be displayed.' })
  text!: string;

  @Field.Integer({ min: 0, max: 32767, default: 100 })
  weight!: number;

  @Field.String({ maxLength: 50, blank: true, help: 'Links with the same group will appear as a dropdown menu' })
  group_name!: string;

  /** A plain value on the wire, as Nautobot's serializer gives it. */
  @ChoiceField(ButtonClass, { plain: true, default: 'default', maxLength: 30, single: true, help: 'The class of the first link in a group will be used for the dropdown button' })
  button_class!: ButtonClass;

  /** Required: the API gives it no default. */
  @Field.Boolean({ required: true, help: 'Force link to open in a new window' })
  new_window!: boolean;
}
