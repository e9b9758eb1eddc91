import { hashPassword } from './password-hash';
import { FieldError } from '../errors';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo } from './common';
import type { FieldKind } from './kind';

/** Write-only; hashed with scrypt on create and on update alike. */
export const passwordKind: FieldKind = {
  name: 'password',
  // A hash never leaves the database (change records included).
  databaseForm: 'omitted',
  decorate(proto, property, options: FieldOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'varchar', length: 255, nullable: false });
  },
  column: (field) => field.options.column ?? field.name,
  reader: () => null,
  async parse(_field, input) {
    if (input === null) throw new FieldError('This field may not be null.');
    if (typeof input !== 'string') throw new FieldError('Not a valid string.');
    if (input === '') throw new FieldError('This field may not be blank.');
    if (input.length > 128) throw new FieldError('Ensure this field has no more than 128 characters.');
    return hashPassword(input);
  },
  load: (field, row) => row[field.column as string],
  storeColumn: (_field, value) => value ?? '',
  defaultValue: () => '!',
  info: (field) => ({ ...baseInfo(field, 'string'), max_length: 128 }),
  schema: () => ({ type: 'string', writeOnly: true, maxLength: 128 }),
};
