import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { FieldOptions, Json } from '../metadata/types';
import type { ChoiceSet } from './choice';
import { applyColumn, baseInfo, pyTypeName, rejectNull } from './common';
import { parseJsonColumn } from './json';
import type { FieldInfo, FieldKind } from './kind';

export interface MultipleChoiceOptions extends FieldOptions {
  /** Text values only: the list is searched for a value's JSON text. */
  choices: ChoiceSet<string>;
}

function choicesOf(field: FieldMeta): ChoiceSet<string> {
  return field.opts<MultipleChoiceOptions>().choices;
}

/** Stored JSON text as a list of values; anything else reads as an empty list. */
function readList(raw: unknown): Json[] {
  const value = parseJsonColumn(raw);
  return Array.isArray(value) ? value : [];
}

/**
 * Several values of a choice set (DRF's MultipleChoiceField, a multiple-selection custom field),
 * stored as a JSON list and read and written as a bare list of values. A filter value selects
 * the objects whose list holds it; a value outside the choices selects none.
 */
export const multipleChoiceKind: FieldKind = {
  name: 'multiple-choice',
  // Repeated values: the list holds every one of them (as content types and tags).
  filterMultiple: 'and',
  decorate(proto, property, options: MultipleChoiceOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'text', nullable: options.nullable ?? false });
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => (field.nullable && (row[i] === null || row[i] === undefined) ? null : readList(row[i]));
  },
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (!Array.isArray(input)) throw new FieldError(`Expected a list of items but got type "${pyTypeName(input)}".`);
    const choices = choicesOf(field);
    const out: Json[] = [];
    for (const item of input) {
      const match = item !== null && typeof item !== 'object' ? choices.match(item) : undefined;
      if (match === undefined) throw new FieldError(`"${typeof item === 'string' ? item : JSON.stringify(item)}" is not a valid choice.`);
      if (!out.includes(match)) out.push(match);
    }
    if (out.length === 0 && !field.blank) throw new FieldError('This selection may not be empty.');
    return out;
  },
  defaultValue: (field) => (field.nullable ? null : field.blank ? [] : undefined),
  load: (field, row) => (field.nullable && (row[field.column as string] ?? null) === null ? null : readList(row[field.column as string])),
  storeColumn: (_field, value) => value === null || value === undefined ? null : JSON.stringify(value),
  lookups: () => [''],
  filterValue: (_field, raw) => raw,
  filterChoices: (field) => choicesOf(field).values,
  comparison: 'string-list',
  jsonValue: 'array',
  info(field) {
    const info: FieldInfo = baseInfo(field, 'multiple choice');
    if (!field.readOnly) info.choices = choicesOf(field).entries.map(([value, display]) => ({ value, display }));
    return info;
  },
  schema(field) {
    const choices = choicesOf(field);
    return {
      type: 'array',
      items: { type: 'string', enum: choices.values },
      ...(field.nullable ? { nullable: true } : {}),
    };
  },
};
