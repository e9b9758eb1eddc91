import { compileRegex, pyRepr } from '../../framework';

/**
 * The part of JSON Schema (draft 7) that config-context schemas use in practice: `type`,
 * `properties`, `required`, `additionalProperties`, `items`, `enum`, `const`, numeric and length
 * bounds and `pattern`. Messages follow Python's jsonschema, which Nautobot reports verbatim.
 * Keywords outside this set are ignored rather than guessed at. Patterns run on RE2, so a
 * schema cannot make validation backtrack without end.
 */
type Schema = Record<string, unknown>;

const SHAPE_MESSAGE =
  'Nautobot only supports context data in the form of an object and thus the JSON schema must be of type object and specify a set of properties.';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a schema cannot validate context data, or null when it can. */
export function schemaShapeError(schema: unknown): string | null {
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return SHAPE_MESSAGE;
  return null;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return true;
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The first violation found, depth first, or null. */
function firstError(schema: unknown, value: unknown): string | null {
  if (schema === false) return `False schema does not allow ${pyRepr(value)}`;
  if (!isObject(schema)) return null;
  const s: Schema = schema;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [String(s.type)];
    if (!types.some((t) => hasType(value, t))) {
      return `${pyRepr(value)} is not of type ${types.map((t) => pyRepr(t)).join(', ')}`;
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => sameJson(e, value))) return `${pyRepr(value)} is not one of ${pyRepr(s.enum)}`;
  if ('const' in s && !sameJson(s.const, value)) return `${pyRepr(s.const)} was expected`;
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return `${value} is less than the minimum of ${s.minimum}`;
    if (typeof s.maximum === 'number' && value > s.maximum) return `${value} is greater than the maximum of ${s.maximum}`;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return `${value} is less than or equal to the minimum of ${s.exclusiveMinimum}`;
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) return `${value} is greater than or equal to the maximum of ${s.exclusiveMaximum}`;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof s.minLength === 'number' && length < s.minLength) return `${pyRepr(value)} is too short`;
    if (typeof s.maxLength === 'number' && length > s.maxLength) return `${pyRepr(value)} is too long`;
    if (typeof s.pattern === 'string') {
      let matches = true;
      try {
        matches = compileRegex(s.pattern, false).matcher(value).find();
      } catch {
        // A pattern RE2 cannot compile is not enforced.
      }
      if (!matches) return `${pyRepr(value)} does not match ${pyRepr(s.pattern)}`;
    }
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) return `${pyRepr(value)} is too short`;
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) return `${pyRepr(value)} is too long`;
    if (s.items !== undefined && !Array.isArray(s.items)) {
      for (const item of value) {
        const e = firstError(s.items, item);
        if (e) return e;
      }
    }
  }
  if (isObject(value)) {
    for (const name of Array.isArray(s.required) ? (s.required as string[]) : []) {
      if (!(name in value)) return `${pyRepr(name)} is a required property`;
    }
    const properties = isObject(s.properties) ? s.properties : {};
    for (const [key, item] of Object.entries(value)) {
      if (key in properties) {
        const e = firstError(properties[key], item);
        if (e) return e;
      } else if (s.additionalProperties === false) {
        return `Additional properties are not allowed (${pyRepr(key)} was unexpected)`;
      } else if (isObject(s.additionalProperties)) {
        const e = firstError(s.additionalProperties, item);
        if (e) return e;
      }
    }
  }
  return null;
}

/** Messages for data that the schema rejects; empty when the data is valid. */
export function schemaErrors(schema: unknown, data: unknown): string[] {
  const e = firstError(schema, data);
  return e ? [e] : [];
}
