import type { FieldOptions, Values } from '../metadata/types';
import { applyColumn } from './common';
import type { FieldKind } from './kind';

export interface HiddenOptions extends FieldOptions {
  sqlType: 'varchar' | 'text';
  length?: number;
  /** Computes the column from the object's other values on every save. */
  derive?: (values: Values) => unknown;
}

/**
 * A column the API never shows: sort keys and tree paths. It can be ordered and filtered on by the
 * framework, and is recomputed from the other values when `derive` is given.
 */
export const hiddenKind: FieldKind = {
  name: 'hidden',
  textual: true,
  decorate(proto, property, options: HiddenOptions) {
    applyColumn(proto, property, {
      name: options.column ?? property,
      type: options.sqlType,
      ...(options.sqlType === 'varchar' ? { length: options.length ?? 255 } : {}),
      nullable: false,
    });
  },
  column: (field) => field.options.column ?? field.name,
  reader: () => null,
  load: (field, row) => row[field.column as string] ?? '',
  storeColumn: (_field, value) => value ?? '',
  defaultValue: () => '',
  prepare(field, values) {
    const derive = field.opts<HiddenOptions>().derive;
    if (derive) values[field.name] = derive(values);
  },
  comparison: 'text',
  info: () => ({ type: 'string', required: false, read_only: true, label: '' }),
};
