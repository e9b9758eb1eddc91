/**
 * The browsable page's HTML forms, built from what OPTIONS says of each field (its FieldInfo:
 * label, required, choices, type) and what the field's kind declares (relation, target, the
 * OpenAPI write schema for the kinds OPTIONS calls plain `field`): choices become selects,
 * related objects selects filled from the API, booleans checkboxes, JSON fields text areas.
 * The filter form is built from the model's filter set.
 */
import type { FilterDescription } from '../filterset/definition';
import type { FieldInfo, OpenApiSchema, SchemaContext } from '../fields/kind';
import { escapeHtml } from '../http/page';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { DescribedField } from '../options/options';
import type { ApiVersion } from '../versioning/version';

type Choice = { value: unknown; display: string };

/** How a field is edited, and how the page's script turns the control back into JSON. */
export type Widget =
  | { type: 'choice'; choices: Choice[]; multiple: boolean }
  | { type: 'related'; listPath: string; multiple: boolean; integer: boolean; title: string }
  | { type: 'bool' }
  | { type: 'number' }
  | { type: 'decimal' }
  | { type: 'date' }
  | { type: 'text'; long: boolean; maxLength?: number }
  | { type: 'json' };

/** Schemas are asked only for their outer shape: references to other models stay empty. */
function writeSchema(field: FieldMeta, version: ApiVersion | null): OpenApiSchema {
  if (!field.kind.schema) return {};
  const sc: SchemaContext = { version: version as ApiVersion, nested: () => ({}), related: () => ({}) };
  try {
    return field.kind.schema(field, 'write', sc);
  } catch {
    return {};
  }
}

const TEXT_TYPES = new Set(['string', 'slug', 'email', 'url', 'datetime', 'time', 'ip address', 'regex']);

export function widgetOf(d: DescribedField, version: ApiVersion | null): Widget {
  const { field, info } = d;
  const target = field.target;
  const relation = field.kind.relation;
  if (target && target.path !== null) {
    if (relation === 'foreign-key' && info.type === 'nested object') {
      return { type: 'related', listPath: target.listPath, multiple: false, integer: target.integerPk, title: target.verboseNamePlural };
    }
    if (relation === 'many-to-many' && info.child) {
      return { type: 'related', listPath: target.listPath, multiple: true, integer: target.integerPk, title: target.verboseNamePlural };
    }
  }
  const schema = writeSchema(field, version);
  const items = (schema.items ?? {}) as OpenApiSchema;
  if (info.choices) return { type: 'choice', choices: info.choices, multiple: schema.type === 'array' };
  if (schema.type === 'array' && Array.isArray(items.enum)) {
    return { type: 'choice', choices: (items.enum as unknown[]).map((v) => ({ value: v, display: String(v) })), multiple: true };
  }
  if (info.type === 'boolean') return { type: 'bool' };
  if (info.type === 'integer') return { type: 'number' };
  if (info.type === 'decimal') return { type: 'decimal' };
  if (info.type === 'date') return { type: 'date' };
  if (TEXT_TYPES.has(info.type) || schema.type === 'string') return { type: 'text', long: info.type === 'string' && info.max_length === undefined, maxLength: info.max_length };
  return { type: 'json' };
}

/** The value a control starts with, taken from the object's representation. */
function scalarOf(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && 'value' in value) return (value as { value: unknown }).value;
  if (value && typeof value === 'object' && !Array.isArray(value) && 'id' in value) return (value as { id: unknown }).id;
  return value;
}

function displayOf(value: unknown): string {
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return String(o.display ?? o.name ?? o.label ?? o.id ?? '');
  }
  return String(value);
}

function option(value: unknown, display: string, selected: boolean): string {
  return `<option value="${escapeHtml(String(value))}"${selected ? ' selected' : ''}>${escapeHtml(display)}</option>`;
}

function control(name: string, id: string, w: Widget, info: FieldInfo, value: unknown, nullable: boolean): string {
  const common = `id="${id}" name="${escapeHtml(name)}"${nullable ? ' data-nullable="1"' : ''}`;
  switch (w.type) {
    case 'choice': {
      const current = new Set((w.multiple ? (Array.isArray(value) ? value : []) : [value]).map((v) => String(scalarOf(v))));
      const numeric = w.choices.length > 0 && w.choices.every((c) => typeof c.value === 'number');
      const blank = w.multiple ? '' : option('', '---------', value === undefined || value === null || value === '');
      return `<select ${common} data-kind="choice"${w.multiple ? ' multiple' : ''}${numeric ? ' data-numeric="1"' : ''}>${blank}${w.choices
        .map((c) => option(c.value, c.display, current.has(String(c.value))))
        .join('')}</select>`;
    }
    case 'related': {
      const current = w.multiple ? (Array.isArray(value) ? value : []) : value === null || value === undefined ? [] : [value];
      const options = current.map((v) => option(scalarOf(v), displayOf(v), true)).join('');
      const blank = w.multiple ? '' : option('', '---------', current.length === 0);
      return `<select ${common} data-kind="related" data-related="${escapeHtml(w.listPath)}" data-title="${escapeHtml(w.title)}"${w.multiple ? ' multiple' : ''}${
        w.integer ? ' data-numeric="1"' : ''
      }>${blank}${options}</select>`;
    }
    case 'bool':
      return `<input type="checkbox" ${common} data-kind="bool"${value === true ? ' checked' : ''}>`;
    case 'number':
      return `<input type="number" ${common} data-kind="number" value="${value === null || value === undefined ? '' : escapeHtml(String(value))}"${
        info.min_value !== undefined ? ` min="${info.min_value}"` : ''
      }${info.max_value !== undefined ? ` max="${info.max_value}"` : ''}>`;
    case 'decimal':
      return `<input type="text" inputmode="decimal" ${common} data-kind="decimal" value="${value === null || value === undefined ? '' : escapeHtml(String(value))}">`;
    case 'date':
      return `<input type="date" ${common} data-kind="text" value="${value === null || value === undefined ? '' : escapeHtml(String(value))}">`;
    case 'text': {
      const text = value === null || value === undefined ? '' : String(value);
      if (w.long) return `<textarea ${common} data-kind="text" rows="2">${escapeHtml(text)}</textarea>`;
      return `<input type="text" ${common} data-kind="text" value="${escapeHtml(text)}"${w.maxLength ? ` maxlength="${w.maxLength}"` : ''}>`;
    }
    case 'json': {
      const text = value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
      const rows = Math.min(10, Math.max(2, text.split('\n').length));
      return `<textarea ${common} data-kind="json" rows="${rows}" spellcheck="false" placeholder="JSON">${escapeHtml(text)}</textarea>`;
    }
  }
}

/** A POST form's starting values: defaults of booleans and choices, nothing else. */
function defaultOf(field: FieldMeta, w: Widget): unknown {
  if (w.type !== 'bool' && w.type !== 'choice') return undefined;
  if (field.options.default === undefined || typeof field.options.default === 'function') return undefined;
  const d = field.options.default;
  return typeof d === 'boolean' || typeof d === 'string' || typeof d === 'number' ? d : undefined;
}

/**
 * The HTML form of a list (POST, empty but for defaults) or of a detail (PUT and PATCH,
 * prefilled with the object). Read-only fields are left out.
 */
export function htmlForm(fields: readonly DescribedField[], methods: readonly string[], url: string, object: Record<string, unknown> | null, version: ApiVersion | null): string {
  const rows = fields
    .filter((d) => !d.info.read_only)
    .map((d) => {
      const w = widgetOf(d, version);
      const id = `field-${d.field.name}`;
      const value = object ? object[d.field.name] : defaultOf(d.field, w);
      const help = d.info.help_text ? `<div class="help">${escapeHtml(d.info.help_text)}</div>` : '';
      return `<div class="row"><label for="${id}"${d.info.required ? ' class="req"' : ''}>${escapeHtml(d.info.label || d.field.name)}</label><div>${control(
        d.field.name,
        id,
        w,
        d.info,
        value,
        d.field.nullable,
      )}${help}</div></div>`;
    });
  const buttons = methods.map((m) => `<button type="submit" class="primary" value="${m}">${m}</button>`).join('');
  return `<form class="html-form" data-url="${escapeHtml(url)}" novalidate>
${rows.join('\n')}
<div class="actions">${buttons}</div>
</form>`;
}

// -- filters ------------------------------------------------------------------------------------

/** Query parameters a filter form keeps as they are: they choose the rendering, not the rows. */
const KEPT = ['api_version', 'format', 'limit', 'brief', 'depth'];

/** At most this many filters besides `q`: the model's own fields, in their order. */
const MAX_FILTERS = 8;

/** A filter of the form: the filter, and where its values come from when they can be listed. */
export interface FilterControl {
  readonly filter: FilterDescription;
  readonly label: string;
  /** Fixed values, or values read as OPTIONS reads a field's choices (statuses). */
  readonly choices?: readonly Choice[];
  /** Related-object filters: the target's list, filled into a select by the page's script. */
  readonly related?: { readonly listPath: string; readonly valueKey: string };
}

/** `q`, then the exact-match filters named after the model's fields, in field order. */
export function mainFilters(model: ModelMeta, filters: readonly FilterDescription[]): FilterDescription[] {
  const byName = new Map(filters.map((f) => [f.name, f]));
  const out: FilterDescription[] = [];
  const q = byName.get('q');
  if (q) out.push(q);
  for (const field of model.fields) {
    if (out.length > MAX_FILTERS) break;
    const f = byName.get(field.name);
    if (!f || f.name === 'id' || f.name === 'q' || field.hidden || f.negated || f.lookup !== 'exact' || f.type === 'date-time') continue;
    out.push(f);
  }
  return out;
}

export function filterForm(controls: readonly FilterControl[], query: ReadonlyMap<string, readonly string[]>, path: string): string {
  if (controls.length === 0) return '';
  const last = (name: string) => {
    const values = query.get(name);
    return values && values.length ? values[values.length - 1] : '';
  };
  const inputs = controls.map(({ filter: f, label, choices, related }) => {
    const id = `filter-${f.name}`;
    const name = escapeHtml(f.name);
    const value = last(f.name);
    const any = option('', 'Any', value === '');
    let input: string;
    if (choices && choices.length) {
      const known = choices.some((c) => String(c.value) === value);
      const extra = value !== '' && !known ? option(value, value, true) : '';
      input = `<select id="${id}" name="${name}">${any}${extra}${choices.map((c) => option(c.value, c.display, String(c.value) === value)).join('')}</select>`;
    } else if (f.type === 'boolean') {
      input = `<select id="${id}" name="${name}">${any}${option('true', 'Yes', value === 'true')}${option('false', 'No', value === 'false')}</select>`;
    } else if (related) {
      const current = value !== '' ? option(value, value, true) : '';
      input = `<select id="${id}" name="${name}" data-related="${escapeHtml(related.listPath)}" data-value-key="${escapeHtml(related.valueKey)}">${any}${current}</select>`;
    } else {
      const search = f.name === 'q';
      input = `<input type="${search ? 'search' : 'text'}" id="${id}" name="${name}" value="${escapeHtml(value)}"${search ? ' placeholder="Search"' : ''} title="${escapeHtml(f.help)}">`;
    }
    return `<label for="${id}">${escapeHtml(label)}${input}</label>`;
  });
  const kept = KEPT.flatMap((k) => (query.has(k) ? [`<input type="hidden" name="${k}" value="${escapeHtml(last(k))}">`] : []));
  const keptQuery = KEPT.filter((k) => query.has(k)).map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(last(k))}`).join('&');
  const clear = `${path}${keptQuery ? `?${keptQuery}` : ''}`;
  return `<form class="filter-form" method="get" action="${escapeHtml(path)}">
${inputs.join('\n')}${kept.join('')}
<span><button type="submit" class="primary">Filter</button> <a class="btn" href="${escapeHtml(clear)}">Clear</a></span>
</form>`;
}
