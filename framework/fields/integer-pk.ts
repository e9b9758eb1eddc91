import { PrimaryGeneratedColumn } from 'typeorm';
import { baseInfo } from './common';
import { integerFilterValue } from './integer';
import type { FieldKind } from './kind';

/**
 * An auto-increment integer primary key, numbered by the database on insert. Nautobot uses
 * these for groups (`auth.group`) only; everything else has a UUID.
 */
export const integerPkKind: FieldKind = {
  name: 'integer-pk',
  sameInJson: true,
  autoIncrement: true,
  filterType: 'integer',
  decorate(proto, property, options: { column?: string }) {
    PrimaryGeneratedColumn('increment', { name: options.column ?? property })(proto, property);
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => (row[i] === null || row[i] === undefined ? null : Number(row[i]));
  },
  load(field, row) {
    const v = row[field.column as string];
    return v === null || v === undefined ? null : Number(v);
  },
  storeColumn: (_field, value) => value,
  lookups: () => ['', 'n'],
  filterValue: (_field, raw) => integerFilterValue(raw),
  columnRange: () => [-(2 ** 31), 2 ** 31 - 1],
  comparison: 'scalar',
  info: (field) => baseInfo(field, 'integer'),
  schema: () => ({ type: 'integer', readOnly: true }),
};
