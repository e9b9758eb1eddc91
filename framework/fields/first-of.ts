import type { FieldMeta } from '../metadata/model-meta';
import type { FieldOptions } from '../metadata/types';
import { baseInfo } from './common';
import type { FieldKind } from './kind';

/**
 * A read-only field showing the first non-null of other fields of the model, in their own form
 * (a device's `primary_ip`: `primary_ip6` if set, else `primary_ip4`).
 */
export interface FirstOfOptions extends FieldOptions {
  of: string[];
}

export const firstOfKind: FieldKind = {
  name: 'first-of',
  databaseForm: 'omitted',
  decorate() {
    /* no column: read through the fields it names */
  },
  column: () => null,
  reader(field, scope, mode) {
    const sources = field.opts<FirstOfOptions>().of.map((name) => field.model.field(name) as FieldMeta);
    const emitters = sources.map((f) => f.kind.reader(f, scope, mode));
    return (row, rc) => {
      for (const emit of emitters) {
        const v = emit?.(row, rc);
        if (v !== null && v !== undefined) return v;
      }
      return null;
    };
  },
  info: (field) => ({ ...baseInfo(field, 'nested object'), read_only: true }),
  schema: () => ({ type: 'object', nullable: true, readOnly: true }),
};
