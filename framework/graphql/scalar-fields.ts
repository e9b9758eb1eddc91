import { GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLString, type GraphQLOutputType } from 'graphql';
import type { OpenApiSchema, SchemaContext } from '../fields/kind';
import type { FieldMeta } from '../metadata/model-meta';
import type { Json } from '../metadata/types';
import { parseNetwork } from '../network/ip';
import { LATEST_VERSION } from '../versioning/version';
import { enumMemberName, enumTypeName } from './names';
import type { GraphObject } from './reads';
import { BigIntegerScalar, DateScalar, DateTimeScalar, DecimalScalar, GenericScalar, UUIDScalar } from './scalars';

/** A scalar field of an object type: its GraphQL type and how its value is read from the object. */
export interface ScalarField {
  type: GraphQLOutputType;
  read(obj: GraphObject): unknown | Promise<unknown>;
}

/** Relation kinds describe nested objects here; scalar fields never ask. */
const NO_RELATIONS: SchemaContext = { version: LATEST_VERSION, nested: () => ({}), related: () => ({}) };

const INT32_MAX = 2 ** 31 - 1;

function readSchema(field: FieldMeta): OpenApiSchema {
  return field.kind.schema?.(field, 'read', NO_RELATIONS) ?? { type: 'string' };
}

/** `Z` in REST, `+00:00` in GraphQL (Python's isoformat). */
function isoOffset(value: unknown): unknown {
  return typeof value === 'string' ? value.replace(/Z$/, '+00:00') : value ?? null;
}

/** A kind described as a string may still render a structure: it is given as JSON text rather than failing the field. */
function asText(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return typeof value === 'object' ? JSON.stringify(value) : value;
}

const rest = (field: FieldMeta) => (obj: GraphObject) => obj.rest[field.name] ?? null;

/** A column with a fixed set of choices: an enum whose members are named after the stored values. */
function choiceEnum(field: FieldMeta, choices: ReadonlyArray<string | number>): ScalarField {
  const members: Record<string, { value: string }> = {};
  for (const choice of choices) {
    const name = enumMemberName(choice);
    if (!(name in members)) members[name] = { value: name };
  }
  const type = new GraphQLEnumType({ name: enumTypeName(field.model, field.name), values: members });
  return {
    type,
    read(obj) {
      // REST gives `{value, label}` (or the plain value for plain choice fields).
      const shown = obj.rest[field.name];
      const stored = shown !== null && typeof shown === 'object' && !Array.isArray(shown) ? (shown as { value?: unknown }).value : shown;
      return stored === null || stored === undefined || stored === '' ? null : enumMemberName(stored as string);
    },
  };
}

/** The GraphQL form of a field that is neither a relation nor a list of objects, from its OpenAPI schema. */
export function scalarField(field: FieldMeta, enumNames: Set<string>): ScalarField {
  const schema = readSchema(field);
  const props = schema.properties as Record<string, unknown> | undefined;
  const choices = field.kind.filterChoices?.(field);
  if (props && 'value' in props && choices && choices.length && !enumNames.has(enumTypeName(field.model, field.name))) {
    enumNames.add(enumTypeName(field.model, field.name));
    return choiceEnum(field, choices);
  }
  if (props && 'value' in props) {
    // A `{value, label}` pair without fixed choices (an address family): the value alone.
    const valueType = (props.value as OpenApiSchema).type === 'integer' ? GraphQLInt : GraphQLString;
    return {
      type: valueType,
      read(obj) {
        const shown = obj.rest[field.name];
        return shown !== null && typeof shown === 'object' ? ((shown as { value?: unknown }).value ?? null) : (shown ?? null);
      },
    };
  }
  const type = scalarType(schema, field.kind.filterType === 'number' && typeof (field.options as { places?: number }).places === 'number');
  if (type === DateTimeScalar) return { type, read: (obj) => isoOffset(obj.rest[field.name]) };
  if (type === GraphQLString) return { type, read: (obj) => asText(obj.rest[field.name]) };
  return { type, read: rest(field) };
}

/** The scalar an OpenAPI schema describes; `decimal`: a number with declared decimal places. */
function scalarType(schema: OpenApiSchema, decimal = false): GraphQLOutputType {
  const format = schema.format as string | undefined;
  if (format === 'uuid') return UUIDScalar;
  if (format === 'date') return DateScalar;
  if (format === 'date-time') return DateTimeScalar;
  switch (schema.type) {
    case 'integer': {
      const big = typeof schema.maximum === 'number' && schema.maximum > INT32_MAX;
      return big || format === 'int64' ? BigIntegerScalar : GraphQLInt;
    }
    case 'number':
      return format === 'decimal' || decimal ? DecimalScalar : GraphQLFloat;
    case 'boolean':
      return GraphQLBoolean;
    case 'string':
      return GraphQLString;
    default:
      return GenericScalar;
  }
}

/**
 * The type of a value a feature keeps outside the columns (a custom field's), from the OpenAPI
 * schema of the kind of its value field as for a column; a list is a list of its items' scalar.
 */
export function valueType(field: FieldMeta): GraphQLOutputType {
  const schema = readSchema(field);
  if (schema.type === 'array') return new GraphQLList(scalarType((schema.items ?? {}) as OpenApiSchema));
  return scalarType(schema);
}

/**
 * The stored columns Nautobot keeps beside an IP field (`host` or `network`, `broadcast`,
 * `prefix_length`), as the kind declares them for the database form: strings, lengths as numbers.
 */
export function storedColumnFields(field: FieldMeta): Record<string, ScalarField> {
  const columns = field.kind.databaseColumns;
  if (!columns) return {};
  let sample: Record<string, Json>;
  try {
    sample = columns(field, parseNetwork('10.0.0.1/24'));
  } catch {
    return {};
  }
  const out: Record<string, ScalarField> = {};
  for (const [key, example] of Object.entries(sample)) {
    out[key] = {
      type: typeof example === 'number' ? GraphQLInt : GraphQLString,
      read(obj) {
        const text = obj.rest[field.name];
        return typeof text === 'string' ? (columns(field, parseNetwork(text))[key] ?? null) : null;
      },
    };
  }
  return out;
}
