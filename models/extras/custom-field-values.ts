import { compileRegex, parseDate, pyRepr, type Json } from '../../framework';
import type { CustomFieldFilterLogic, CustomFieldType } from './choices';

/** A custom field definition as one request uses it. */
export interface Definition {
  id: string;
  /** Storage key, and the key of `custom_fields` at API 1.2/1.3. */
  name: string;
  /** Key of `custom_fields` from API 1.4. */
  slug: string;
  label: string;
  type: CustomFieldType;
  required: boolean;
  filter_logic: CustomFieldFilterLogic;
  default: Json;
  weight: number;
  description: string;
  validation_minimum: number | null;
  validation_maximum: number | null;
  validation_regex: string;
  content_types: string[];
  /** Values of the choices, by weight then value. */
  choices: string[];
}

/** Nautobot's notion of an empty custom field value. */
export function isEmptyValue(value: Json | undefined): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

export type Checked = { value: Json } | { error: string };

function regexMatches(pattern: string, value: string): boolean {
  // RE2 semantics (linear time) with Python's re.search meaning: anywhere unless anchored.
  return compileRegex(pattern, false).test(value);
}

/**
 * Validates one value of a custom field (`CustomField.validate` in Nautobot, stricter where the
 * reference recommends it) and returns the value to store, or the reason it is refused.
 */
export function checkValue(def: Definition, value: Json): Checked {
  if (isEmptyValue(value)) return def.required ? { error: 'Required field cannot be empty.' } : { value };
  switch (def.type) {
    case 'text':
    case 'url':
      if (typeof value !== 'string') return { error: 'Value must be a string' };
      if (def.validation_regex && !regexMatches(def.validation_regex, value)) return { error: `Value must match regex '${def.validation_regex}'` };
      return { value };
    case 'markdown':
      return typeof value === 'string' ? { value } : { error: 'Value must be a string' };
    case 'integer':
      // JSON integers only: numeric strings, floats and booleans are refused (1.6 accepts and mangles them).
      if (typeof value !== 'number' || !Number.isInteger(value)) return { error: 'Value must be an integer.' };
      if (def.validation_minimum !== null && value < def.validation_minimum) return { error: `Value must be at least ${def.validation_minimum}` };
      if (def.validation_maximum !== null && value > def.validation_maximum) return { error: `Value must not exceed ${def.validation_maximum}` };
      return { value };
    case 'boolean':
      if (value === true || value === 1) return { value: true };
      if (value === false || value === 0) return { value: false };
      return { error: 'Value must be true or false.' };
    case 'date':
      return parseDate(value) === value ? { value } : { error: 'Date values must be in the format YYYY-MM-DD.' };
    case 'select':
      if (typeof value !== 'string' || !def.choices.includes(value)) {
        return { error: `Invalid choice (${typeof value === 'string' ? value : pyRepr(value)}). Available choices are: ${def.choices.join(', ')}` };
      }
      return { value };
    case 'multi-select':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !def.choices.includes(v))) {
        return { error: `Invalid choice(s) (${pyRepr(value)}). Available choices are: ${def.choices.join(', ')}` };
      }
      return { value };
    default:
      return { value };
  }
}
