import {
  NotesUrl,
  ChangeLoggedModel,
  ChoiceField,
  compileRegex,
  ContentTypesField,
  Field,
  ForeignKey,
  Model,
  ProtectedError,
  ValidationError,
  type Id,
  type Json,
  type Values,
  type WriteContext,
} from '../../framework';
import { CustomFieldFilterLogic, CustomFieldType } from './choices';
import { checkValue, type Definition } from './custom-field-values';
import { choiceRenamed, contentTypesChanged, fieldDeleted, usesChoice } from './custom-field-data';

/** Types whose values (or, for selections, whose choices) a regular expression may constrain. */
const REGEX_TYPES = new Set(['text', 'url', 'select', 'multi-select']);
const SELECTION_TYPES = new Set(['select', 'multi-select']);

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The API version writing this object names fields by slug (1.4+) rather than by name. */
function slugKeyed(wc: WriteContext): boolean {
  return wc.version.gte('1.4');
}

/**
 * An extra attribute of the chosen models, stored in their custom field data under `name` and
 * shown in `custom_fields` under `name` (API 1.2/1.3) or `slug` (1.4+).
 */
@Model({
  path: 'custom-fields',
  graphql: false,
  display: { fields: ['label', 'name'], render: (v) => (v.label ? String(v.label) : capitalise(String(v.name ?? '').replace(/_/g, ' '))) },
  brief: ['name'],
  ordering: ['weight', 'name'],
  search: ['name', 'label', 'description'],
})
export class CustomField extends ChangeLoggedModel {
  @NotesUrl()
  notes_url!: string;

  @ContentTypesField({ forFeature: 'custom_fields' })
  content_types!: string[];

  @ChoiceField(CustomFieldType, { lookups: false })
  type!: CustomFieldType;

  /** Required from API 1.4 (see `prepare`); before, it defaults to the name. */
  @Field.String({ maxLength: 50, blank: true, required: false, lookups: false })
  label!: string;

  /** The storage key; written at API 1.2/1.3 only, copied from the slug from 1.4 on. */
  @Field.String({ maxLength: 50, unique: true, until: '1.4' })
  name!: string;

  @Field.Slug({ maxLength: 50, from: 'label', separator: '_', lookups: false })
  slug!: string;

  @Field.String({ maxLength: 200, blank: true, lookups: false })
  description!: string;

  @Field.Boolean({ default: false, help: 'If true, this field is required when creating new objects or editing an existing object.' })
  required!: boolean;

  @ChoiceField(CustomFieldFilterLogic, { default: 'loose', single: true })
  filter_logic!: CustomFieldFilterLogic;

  @Field.JSON({ default: null, lookups: false, help: 'Default value for the field (must be a JSON value).' })
  default!: Json;

  @Field.Integer({ min: 0, max: 32767, default: 100, help: 'Fields with higher weights appear lower in a form.' })
  weight!: number;

  // 64-bit columns; JSON numbers beyond 2^53 cannot be exact, so the bounds stop there.
  @Field.Integer({ big: true, nullable: true, default: null, lookups: false, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, label: 'Minimum value' })
  validation_minimum!: number | null;

  @Field.Integer({ big: true, nullable: true, default: null, lookups: false, min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, label: 'Maximum value' })
  validation_maximum!: number | null;

  @Field.String({ maxLength: 500, blank: true, lookups: false, label: 'Validation regex' })
  validation_regex!: string;

  /** Before slugs are generated: the label defaults to the name (1.2/1.3) or is required (1.4+). */
  static prepare(values: Values, wc: WriteContext): void {
    if (values.label) return;
    if (!slugKeyed(wc) && typeof values.name === 'string') values.label = values.name;
    else if (slugKeyed(wc) && wc.creating) throw new ValidationError({ label: ['This field is required.'] });
  }

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    // From 1.4 the name is not written: it is the slug (Nautobot copies it the same way).
    if (!values.name) {
      values.name = values.slug;
      const taken = (await wc.store.find(CustomField, { name: values.name })).some((v) => v.id !== wc.id);
      if (taken) throw new ValidationError({ slug: ['custom field with this name already exists.'] });
    }
    const current = wc.current;
    if (current) {
      for (const [key, label] of [['name', 'Name'], ['slug', 'Slug'], ['type', 'Type']] as const) {
        if (values[key] !== current[key]) throw new ValidationError({ [key]: [`${label} cannot be changed once created`] });
      }
    }
    const type = values.type as string;
    if (values.validation_minimum !== null && values.validation_minimum !== undefined && type !== 'integer') {
      throw new ValidationError({ validation_minimum: ['A minimum value may be set only for numeric fields'] });
    }
    if (values.validation_maximum !== null && values.validation_maximum !== undefined && type !== 'integer') {
      throw new ValidationError({ validation_maximum: ['A maximum value may be set only for numeric fields'] });
    }
    const regex = (values.validation_regex as string | undefined) ?? '';
    if (regex) {
      if (!REGEX_TYPES.has(type)) {
        throw new ValidationError({ validation_regex: ['Regular expression validation is supported only for text, URL and select fields'] });
      }
      try {
        compileRegex(regex, false);
      } catch {
        throw new ValidationError({ validation_regex: [`${regex} is not a valid regular expression.`] });
      }
    }
    await checkDefault(values, wc);
  }

  /** Adding content types back-fills the default; removing them drops the stored values. */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    const before = new Set((wc.current?.content_types as string[] | undefined) ?? []);
    const after = new Set(values.content_types as string[]);
    await contentTypesChanged(wc, String(values.name), values.default as Json, [...after].filter((ct) => !before.has(ct)), [...before].filter((ct) => !after.has(ct)));
  }

  /** A deleted field's values leave every object. */
  static async beforeDelete(ids: Id[], wc: WriteContext): Promise<void> {
    for (const field of await wc.store.find(CustomField, { id__in: ids })) {
      await fieldDeleted(wc, String(field.name), field.content_types as string[]);
    }
  }
}

/** The default must be a valid value of the field (for a selection, one of its choices). */
async function checkDefault(values: Values, wc: WriteContext): Promise<void> {
  const value = values.default as Json;
  if (value === null || value === undefined) return;
  const choices = SELECTION_TYPES.has(values.type as string)
    ? (await wc.store.find(CustomFieldChoice, { field: wc.id })).sort(byWeightThenValue).map((c) => String(c.value))
    : [];
  if (values.type === 'select' && value !== '' && !choices.includes(String(value))) {
    throw new ValidationError({ default: [`The specified default value (${String(value)}) is not listed as an available choice.`] });
  }
  const definition: Definition = {
    id: String(wc.id),
    name: String(values.name),
    slug: String(values.slug),
    label: String(values.label ?? ''),
    type: values.type as Definition['type'],
    required: false,
    filter_logic: values.filter_logic as Definition['filter_logic'],
    default: null,
    weight: Number(values.weight),
    description: '',
    validation_minimum: (values.validation_minimum as number | null) ?? null,
    validation_maximum: (values.validation_maximum as number | null) ?? null,
    validation_regex: String(values.validation_regex ?? ''),
    content_types: [],
    choices,
  };
  const checked = checkValue(definition, value);
  if ('error' in checked) throw new ValidationError({ default: [`Invalid default value "${String(value)}": ${checked.error}`] });
}

function byWeightThenValue(a: Values, b: Values): number {
  const w = Number(a.weight) - Number(b.weight);
  if (w !== 0) return w;
  return String(a.value) < String(b.value) ? -1 : String(a.value) > String(b.value) ? 1 : 0;
}

/** One allowed value of a selection custom field. */
@Model({
  path: 'custom-field-choices',
  display: 'value',
  // No nested serializer in Nautobot: the brief form is the full one.
  brief: ['field', 'value', 'weight', 'created', 'last_updated'],
  ordering: ['field.weight', 'field.name', 'weight', 'value'],
  search: ['value'],
  uniqueTogether: [['field', 'value']],
})
export class CustomFieldChoice extends ChangeLoggedModel {
  @ForeignKey(() => CustomField, { onDelete: 'cascade', related: 'choices', naturalKey: 'name' })
  field!: CustomField;

  @Field.String({ maxLength: 100 })
  value!: string;

  @Field.Integer({ min: 0, max: 32767, default: 100, help: 'Higher weights appear later in the list' })
  weight!: number;

  static async clean(values: Values, wc: WriteContext): Promise<void> {
    const [field] = await wc.store.find(CustomField, { id: values.field });
    if (!field) return;
    if (!SELECTION_TYPES.has(String(field.type))) {
      throw new ValidationError({ field: ['Custom field choices can only be assigned to selection fields.'] });
    }
    const regex = String(field.validation_regex ?? '');
    if (regex && !compileRegex(regex, false).test(String(values.value))) {
      throw new ValidationError({ value: [`Value must match regex ${regex} got ${String(values.value)}.`] });
    }
  }

  /** A renamed choice is renamed in every object holding it (and in the field's default). */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    const current = wc.current;
    if (!current || current.value === values.value) return;
    const [field] = await wc.store.find(CustomField, { id: values.field });
    if (field) await choiceRenamed(wc, field, String(current.value), String(values.value));
  }

  /** A choice that is its field's default or that objects hold cannot be deleted directly. */
  static async beforeDelete(ids: Id[], wc: WriteContext, cascaded: boolean): Promise<void> {
    if (cascaded) return;
    const dependents: Array<{ display: string; id: Id }> = [];
    for (const choice of await wc.store.find(CustomFieldChoice, { id__in: ids })) {
      const [field] = await wc.store.find(CustomField, { id: choice.field });
      if (!field) continue;
      const value = String(choice.value);
      const isDefault = field.default === value || (Array.isArray(field.default) && field.default.includes(value));
      if (isDefault || (await usesChoice(wc, field, value))) dependents.push({ display: value, id: choice.id as Id });
    }
    if (dependents.length) throw new ProtectedError(dependents);
  }
}
