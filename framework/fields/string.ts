import { IsEmail, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { FieldError } from '../errors';
import type { FieldMeta } from '../metadata/model-meta';
import type { FieldOptions, Values } from '../metadata/types';
import type { ChoiceSet } from './choice';
import { applyColumn, baseInfo, rejectNull, STRING_LOOKUPS, textFilterValue, textReader } from './common';
import type { FieldInfo, FieldKind, KindWriteContext } from './kind';

export interface StringOptions extends FieldOptions {
  maxLength?: number;
  minLength?: number;
  pattern?: RegExp;
  patternMessage?: string;
  format?: 'email' | 'url';
  /** Where Nautobot reports a blank value with the model's message rather than the serializer's. */
  blankMessage?: string;
  /**
   * The values the field may hold (Django's `choices` on a CharField, which DRF writes and
   * describes as a ChoiceField): a written value must be one of them and OPTIONS lists them, but
   * the value stays text, read bare and filtered with the text lookups (a selection custom field).
   */
  choices?: ChoiceSet;
}

export interface SlugOptions extends StringOptions {
  /** Field the slug is generated from when omitted or blank. */
  from?: string;
  /**
   * Text the slug is generated from instead of `from`'s value, when it depends on other objects
   * (a location's parent slug and its name); `from` still marks the slug as generated.
   */
  source?: (values: Values, wc: KindWriteContext) => Promise<string | undefined>;
  /** Custom fields, relationships and computed fields use `_` instead of `-`. */
  separator?: '-' | '_';
}

type TextVariant = 'string' | 'text' | 'slug';

/** Nautobot's natural-sort key: digit runs left-padded to 8 places. */
export function naturalize(value: string, maxLength = 255): string {
  if (!value) return value;
  const out = value.split(/(\d+)/).map((seg) => (/^\d+$/.test(seg) ? seg.padStart(8, '0') : seg));
  return out.join('').slice(0, maxLength);
}

/** Interface names: type prefix, slot/subslot/position/subposition, id, `:channel`, `.subinterface`, rest. */
const INTERFACE_NAME =
  /^(?<type>[^\d.:]+)?(?:(?<slot>\d+)\/)?(?:(?<subslot>\d+)\/)?(?:(?<position>\d+)\/)?(?:(?<subposition>\d+)\/)?(?<id>\d+)?(?::(?<channel>\d+))?(?:\.(?<vc>\d+))?(?<remainder>.*)$/;

/**
 * Nautobot's interface sort key: slot/subslot/position/subposition padded to 4 digits (missing
 * ones as 9999, so they sort last), then the type, then id, channel and subinterface padded to 6
 * (missing ones as `......`), then the naturalised rest. `Gi1/0/2` sorts before `Gi1/0/10`.
 */
export function naturalizeInterface(value: string, maxLength = 100): string {
  const m = INTERFACE_NAME.exec(value);
  if (!m?.groups) return value;
  const g = m.groups;
  let out = '';
  for (const part of [g.slot, g.subslot, g.position, g.subposition]) out += part !== undefined ? part.padStart(4, '0') : '9999';
  if (g.type !== undefined) out += g.type;
  for (const part of [g.id, g.channel, g.vc]) out += part !== undefined ? part.padStart(6, '0') : '......';
  if (g.remainder !== undefined && out.length < maxLength) out += naturalize(g.remainder, maxLength - out.length);
  return out.slice(0, maxLength);
}

/** Django's slugify: ASCII-folded, lower-cased, punctuation dropped, spaces/dashes collapsed. */
export function slugify(value: string, separator: '-' | '_' = '-'): string {
  const ascii = value.normalize('NFKD').replace(/[^\x00-\x7f]/g, '');
  const slug = ascii
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
  return separator === '_' ? slug.replace(/-/g, '_') : slug;
}

const SLUG_PATTERN = /^[-a-zA-Z0-9_]+$/;

function makeKind(variant: TextVariant): FieldKind {
  const infoType = (field: FieldMeta): string => {
    const o = field.opts<StringOptions>();
    if (variant === 'slug') return 'slug';
    if (o.choices) return 'choice';
    if (o.format === 'email') return 'email';
    if (o.format === 'url') return 'url';
    return 'string';
  };
  return {
    name: variant,
    sameInJson: true,
    textual: true,
    decorate(proto, property, options: StringOptions) {
      const column = options.column ?? property;
      if (variant === 'text') applyColumn(proto, property, { name: column, type: 'text', nullable: options.nullable ?? false });
      else {
        applyColumn(proto, property, {
          name: column,
          type: 'varchar',
          length: options.maxLength ?? 255,
          nullable: options.nullable ?? false,
          unique: options.unique ?? false,
        });
      }
      // Blank values are checked by parse (blank allowed or not), not by the format rules below.
      ValidateIf((o: Record<string, unknown>) => o[property] !== '')(proto, property);
      if (options.maxLength !== undefined) {
        MaxLength(options.maxLength, { message: `Ensure this field has no more than ${options.maxLength} characters.` })(proto, property);
      }
      if (options.minLength !== undefined) {
        MinLength(options.minLength, { message: `Ensure this field has at least ${options.minLength} characters.` })(proto, property);
      }
      const pattern = variant === 'slug' ? options.pattern ?? SLUG_PATTERN : options.pattern;
      if (pattern) {
        const message =
          options.patternMessage ??
          (variant === 'slug'
            ? 'Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'
            : 'Enter a valid value.');
        Matches(pattern, { message })(proto, property);
      }
      if (options.format === 'email') IsEmail({}, { message: 'Enter a valid email address.' })(proto, property);
    },
    column: (field) => field.options.column ?? field.name,
    reader: textReader,
    parse(field, input) {
      if (rejectNull(field, input)) return null;
      if (typeof input === 'number') input = String(input);
      if (typeof input !== 'string') throw new FieldError('Not a valid string.');
      const value = input.trim();
      if (value === '' && !field.blank && !(variant === 'slug' && field.opts<SlugOptions>().from)) {
        throw new FieldError(field.opts<StringOptions>().blankMessage ?? 'This field may not be blank.');
      }
      const choices = field.opts<StringOptions>().choices;
      if (choices && value !== '' && choices.match(value) === undefined) {
        throw new FieldError([`"${value}" is not a valid choice.`, `Valid choices are: ${choices.values.join(', ')}.`]);
      }
      return value;
    },
    defaultValue: (field) => (field.nullable ? null : field.blank ? '' : undefined),
    load: (field, row) => (row[field.column as string] ?? null) as string | null,
    storeColumn: (_field, value) => value,
    // Not async: most string fields have nothing to prepare, and a bulk write of thousands of
    // objects should not wait a microtask per field for that.
    prepare(field: FieldMeta, values: Values, wc: KindWriteContext) {
      const o = field.opts<SlugOptions>();
      if (variant !== 'slug' || !o.from) return;
      const current = values[field.name];
      if (current !== undefined && current !== '' && current !== null) return;
      if (current === undefined && !wc.creating) return;
      return fillSlug(field, o, o.from, values, wc);
    },
    lookups: () => STRING_LOOKUPS,
    filterValue: (_field, raw, lookup) => textFilterValue(raw, lookup),
    filterChoices: (field) => field.opts<StringOptions>().choices?.values.map(String),
    comparison: 'text',
    info(field) {
      const info: FieldInfo = baseInfo(field, infoType(field));
      const o = field.opts<StringOptions>();
      if (o.maxLength !== undefined) info.max_length = o.maxLength;
      if (o.minLength !== undefined) info.min_length = o.minLength;
      if (o.choices && !field.readOnly) info.choices = o.choices.entries.map(([value, display]) => ({ value, display }));
      return info;
    },
    schema(field) {
      const o = field.opts<StringOptions>();
      const s: Record<string, unknown> = { type: 'string' };
      if (o.choices) s.enum = [...o.choices.values.map(String), ...(field.blank && !o.choices.values.includes('') ? [''] : [])];
      if (o.maxLength !== undefined) s.maxLength = o.maxLength;
      if (o.minLength !== undefined) s.minLength = o.minLength;
      if (variant === 'slug') s.pattern = '^[-a-zA-Z0-9_]+$';
      if (o.format === 'email') s.format = 'email';
      if (o.format === 'url') s.format = 'uri';
      if (field.nullable) s.nullable = true;
      return s;
    },
  };
}

/** Sets a slug left out or blank from its source field (or text), made unique. */
async function fillSlug(field: FieldMeta, o: SlugOptions, from: string, values: Values, wc: KindWriteContext): Promise<void> {
  const source = o.source ? await o.source(values, wc) : values[from] ?? wc.current?.[from];
  if (typeof source !== 'string') return;
  values[field.name] = await uniqueSlug(field, slugify(source, o.separator ?? '-'), wc);
}

/** The slug, or the slug with `-2`, `-3`… appended when it is taken by another object. */
async function uniqueSlug(field: FieldMeta, base: string, wc: KindWriteContext): Promise<string> {
  const max = field.opts<StringOptions>().maxLength ?? 255;
  const root = base.slice(0, max);
  if (!field.options.unique) return root;
  const used = new Set(await wc.store.takenValues(field, root, wc.id));
  if (!used.has(root)) return root;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${root.slice(0, max - suffix.length)}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

export const stringKind = makeKind('string');
export const textKind = makeKind('text');
export const slugKind = makeKind('slug');
