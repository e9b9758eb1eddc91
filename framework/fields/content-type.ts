import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { Registry, ResolvingKind } from '../metadata/registry';
import type { FieldOptions } from '../metadata/types';
import { applyColumn, baseInfo, rejectNull, textReader } from './common';
import { FilterValueError, type FieldInfo, type FieldKind } from './kind';

export interface ContentTypeOptions extends FieldOptions {
  /** Only models taking part in this feature are valid (`custom_fields`, `relationships`…). */
  forFeature?: string;
}

const LABEL = /^[a-z0-9_]+\.[a-z0-9_]+$/;

export interface ResolvedContentTypes {
  allowed: Set<string>;
  known: Set<string>;
  /** OPTIONS choices: `app | verbose name`, sorted by that text. */
  choices: Array<{ value: string; display: string }>;
}

function resolved(field: FieldMeta): ResolvedContentTypes {
  return field.resolved.contentTypes as ResolvedContentTypes;
}

/** Labels a content-type field accepts. */
export function allowedContentTypes(field: FieldMeta): string[] {
  return [...resolved(field).allowed].sort();
}

/**
 * One `app_label.model` string, as Nautobot's ContentTypeField writes and reads it (stored as
 * the label itself: content types have no table here).
 */
export const contentTypeKind: FieldKind & ResolvingKind = {
  name: 'content-type',
  textual: true,
  decorate(proto, property, options: ContentTypeOptions) {
    applyColumn(proto, property, { name: options.column ?? property, type: 'varchar', length: 100, nullable: options.nullable ?? false });
  },
  resolve(field: FieldMeta, registry: Registry) {
    const feature = field.opts<ContentTypeOptions>().forFeature;
    const allowed = feature ? registry.labelsWith(feature) : registry.models.map((m) => m.label);
    const choices = allowed
      .map((label) => {
        const model = registry.get(label);
        return { value: label, display: `${label.split('.')[0]} | ${model?.verboseName ?? label.split('.')[1]}` };
      })
      .sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
    field.resolved.contentTypes = { allowed: new Set(allowed), known: new Set(registry.models.map((m) => m.label)), choices } satisfies ResolvedContentTypes;
  },
  column: (field) => field.options.column ?? field.name,
  reader: textReader,
  parse(field, input) {
    if (rejectNull(field, input)) return null;
    if (typeof input !== 'string' || !LABEL.test(input)) {
      throw new FieldError("Invalid value. Specify a content type as '<app_label>.<model_name>'.");
    }
    if (!resolved(field).allowed.has(input)) throw new FieldError(`Invalid content type: ${input}`);
    return input;
  },
  load: (field, row) => (row[field.column as string] ?? null) as string | null,
  storeColumn: (_field, value) => value,
  lookups: () => ['', 'n'],
  filterChoices: (field) => [...resolved(field).known].sort(),
  filterValue(field, raw) {
    if (!LABEL.test(raw) || !resolved(field).known.has(raw)) {
      throw new FilterValueError(`Select a valid choice. ${raw} is not one of the available choices.`);
    }
    return raw;
  },
  comparison: 'identity',
  info(field) {
    const info: FieldInfo = baseInfo(field, 'field');
    if (!field.readOnly) info.choices = resolved(field).choices.map((c) => ({ ...c }));
    return info;
  },
  schema: (field) => ({ type: 'string', enum: allowedContentTypes(field), ...(field.nullable ? { nullable: true } : {}) }),
};

declare module '../metadata/model-meta' {
  interface ResolvedField {
    /** A content-type field: allowed and known labels, and the OPTIONS choices. */
    contentTypes?: ResolvedContentTypes;
  }
}
