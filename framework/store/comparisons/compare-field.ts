import type { FieldMeta, ModelMeta } from '../../metadata/model-meta';
import type { Params } from '../params';
import { compareContentTypes, compareIntegerList, compareLinks, compareStringList } from './lists';
import { compareNetwork } from './network';
import { compareIdentity, compareScalar, compareText, compareUuid, inList } from './values';

/**
 * SQL for `<field> <lookup> <values>` on a row of `model` whose columns `col` qualifies; values
 * are already parsed. The field's kind says how its values compare; the SQL of each way is here.
 */
export function compareField(field: FieldMeta, model: ModelMeta, col: (column: string) => string, lookup: string, values: unknown[], params: Params): string {
  const comparison = field.kind.comparison;
  if (!comparison) throw new Error(`${field.model.label}.${field.name} cannot be filtered`);
  if (comparison === 'network') return compareNetwork(field, col, lookup, values, params);
  // Fields without a column of their own (links) are tested from the row's primary key.
  const expr = col(field.column ?? (model.pk.column as string));
  switch (comparison) {
    case 'identity':
      return compareIdentity(expr, lookup, values, params);
    case 'equality':
      return inList(expr, values, params);
    case 'scalar':
      return compareScalar(expr, lookup, values, params, field.kind.columnRange?.(field));
    case 'text':
      return compareText(params.dialect, expr, lookup, values, params);
    case 'uuid':
      return compareUuid(expr, lookup, values, params);
    case 'links':
      return compareLinks(field, expr, lookup, values, params);
    case 'integer-list':
      return compareIntegerList(field, expr, lookup, values, params);
    case 'string-list':
      return compareStringList(expr, values, params);
    case 'content-types':
      return compareContentTypes(expr, values, params);
  }
}
