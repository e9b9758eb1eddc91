import { FieldMeta, type ModelMeta } from '../metadata/model-meta';
import type { FieldOptions } from '../metadata/types';
import type { FieldInfo, FieldKind } from './kind';

/**
 * A field of `kind` that is no column of `model`: a value the model keeps elsewhere, under a key
 * of a JSON document (a custom field's value). It is described (OPTIONS, OpenAPI, GraphQL),
 * filtered and parsed as a column of that kind would be; it is not one of the model's fields.
 */
export function valueField(model: ModelMeta, name: string, kind: FieldKind, options: FieldOptions & Record<string, unknown> = {}): FieldMeta {
  const field = new FieldMeta(name, kind, options, 0);
  field.model = model;
  return field;
}

/** What OPTIONS shows for a value field: its kind's description (a value has no related objects nor stored choices). */
export function describeValue(field: FieldMeta): FieldInfo {
  return field.kind.info(field, { choicesFor: () => undefined, nestedInfo: () => ({}) });
}
