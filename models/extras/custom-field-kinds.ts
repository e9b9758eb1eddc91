import {
  booleanKind,
  dateKind,
  defineChoices,
  integerKind,
  jsonKind,
  multipleChoiceKind,
  textKind,
  valueField,
  type FieldKind,
  type FieldMeta,
  type FieldOptions,
  type ModelMeta,
} from '../../framework';
import type { CustomFieldType } from './choices';
import type { Definition } from './custom-field-values';

/**
 * The field kind each custom field type is, with the options its definition gives it. Everything a
 * type decides besides writes (which lookups its `cf_` filters take, how their values parse, type
 * and compare, what OPTIONS, OpenAPI and GraphQL say of it) comes from that kind, as for a column
 * of the kind; the lookups are Nautobot 1.6's (`nautobot/extras/filters/mixins.py`): text, URL and
 * selection values take the text lookups, integers and dates the ordering ones, other types none.
 */
const KINDS: Record<CustomFieldType, (def: Definition) => { kind: FieldKind; options?: Record<string, unknown> }> = {
  text: () => ({ kind: textKind }),
  url: () => ({ kind: textKind, options: { format: 'url' } }),
  // Text without lookup filters: Nautobot gives markdown fields the plain one only.
  markdown: () => ({ kind: textKind, options: { lookups: [''] } }),
  integer: (def) => ({
    kind: integerKind,
    options: {
      ...(def.validation_minimum !== null ? { min: def.validation_minimum } : {}),
      ...(def.validation_maximum !== null ? { max: def.validation_maximum } : {}),
    },
  }),
  boolean: () => ({ kind: booleanKind }),
  date: () => ({ kind: dateKind }),
  // A selection is text restricted to its choices: described as a choice, filtered as text.
  select: (def) => ({ kind: textKind, options: { choices: choiceSet(def) } }),
  'multi-select': (def) => ({ kind: multipleChoiceKind, options: { choices: choiceSet(def) } }),
  json: () => ({ kind: jsonKind }),
};

function choiceSet(def: Definition) {
  return defineChoices(def.choices.map((c) => [c, c] as const));
}

/**
 * The value of a custom field on objects of `model`, as a field of its type's kind (not one of
 * the model's fields: the value lives under the field's name in the custom field data).
 */
export function customFieldValue(model: ModelMeta, def: Definition): FieldMeta {
  const { kind, options = {} } = (KINDS[def.type] ?? KINDS.text)(def);
  const common: FieldOptions = {
    label: def.label || def.name,
    required: def.required,
    nullable: true,
    ...(def.description ? { help: def.description } : {}),
  };
  return valueField(model, def.name, kind, { ...common, ...options });
}
