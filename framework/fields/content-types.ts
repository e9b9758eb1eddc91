import { ArrayNotEmpty } from 'class-validator';
import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo, pyTypeName } from './common';
import { parseJsonColumn } from './json';
import { FilterValueError, type FieldKind } from './kind';

export interface ContentTypesOptions extends FieldOptions {
  /** Only models taking part in this feature are valid (`statuses`, `tags`, `custom_fields`…). */
  forFeature?: string;
}

const LABEL = /^[a-z0-9_]+\.[a-z0-9_]+$/;

export function allowedLabels(field: FieldMeta): string[] {
  return (field.resolved.allowed as string[] | undefined) ?? [];
}

/**
 * A list of `app_label.model` strings, stored as a JSON array: these lists are short and live
 * on small tables (statuses, tags, custom fields), so a link table would buy nothing.
 */
export const contentTypesKind: FieldKind & ResolvingKind = {
  name: 'content-types',
  // A repeated content type means "applies to all of them" (Nautobot's AND semantics).
  filterMultiple: 'and',
  decorate(proto, property, options: ContentTypesOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'text', nullable: false });
    if (options.required !== false) ArrayNotEmpty({ message: 'This list may not be empty.' })(proto, property);
  },
  resolve(field: FieldMeta, registry: Registry) {
    const feature = field.opts<ContentTypesOptions>().forFeature;
    field.resolved.allowed = feature ? registry.labelsWith(feature) : registry.models.map((m) => m.label).sort();
    field.resolved.known = new Set(registry.models.map((m) => m.label));
  },
  column: (field) => field.options.column ?? field.name,
  reader(field, scope) {
    const i = scope.column(field.column as string);
    return (row) => {
      const v = parseJsonColumn(row[i]);
      return Array.isArray(v) ? [...v].sort() : [];
    };
  },
  parse(field, input) {
    if (!Array.isArray(input)) throw new FieldError(`Expected a list of items but got type "${pyTypeName(input)}".`);
    const allowed = new Set(allowedLabels(field));
    const out = new Set<string>();
    for (const item of input) {
      if (typeof item !== 'string' || !LABEL.test(item)) {
        throw new FieldError("Invalid value. Specify a content type as '<app_label>.<model_name>'.");
      }
      if (!allowed.has(item)) throw new FieldError(`Invalid content type: ${item}`);
      out.add(item);
    }
    return [...out].sort();
  },
  defaultValue: (field) => [...allowedLabels(field)],
  load(field, row) {
    const v = parseJsonColumn(row[field.column as string]);
    return Array.isArray(v) ? v : [];
  },
  storeColumn: (_field, value) => JSON.stringify(value ?? []),
  lookups: () => ['', 'n'],
  filterValue(field, raw) {
    if (!LABEL.test(raw) || !(field.resolved.known as Set<string>).has(raw)) {
      throw new FilterValueError(`Select a valid choice. ${raw} is not one of the available choices.`);
    }
    return raw;
  },
  comparison: 'content-types',
  info: (field) => baseInfo(field, 'field'),
  schema: (field) => ({ type: 'array', items: { type: 'string', enum: allowedLabels(field) } }),
};

declare module '../metadata/model-meta' {
  interface ResolvedField {
    /** Content-type lists: the labels allowed here and every known label. */
    allowed?: string[];
    known?: Set<string>;
  }
}
