import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/**
 * The scalars graphene-django gives Nautobot's schema, under the same names so that client code
 * generated against Nautobot keeps compiling. Values are shaped before they reach them
 * (framework/graphql/values.ts), so serialisation passes them through.
 */
function passThrough(name: string, description: string, literal: (node: ValueNode) => unknown): GraphQLScalarType {
  return new GraphQLScalarType({ name, description, serialize: (v) => v, parseValue: (v) => v, parseLiteral: literal });
}

const stringLiteral = (node: ValueNode): unknown => (node.kind === Kind.STRING ? node.value : undefined);

function anyLiteral(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
      return Number.parseInt(node.value, 10);
    case Kind.FLOAT:
      return Number.parseFloat(node.value);
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map(anyLiteral);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, anyLiteral(f.value)]));
    default:
      return undefined;
  }
}

export const UUIDScalar = passThrough('UUID', 'Leverages the internal Python implmeentation of UUID (uuid.UUID) to provide native UUID objects in fields, resolvers and input.', stringLiteral);
export const DateScalar = passThrough('Date', 'The `Date` scalar type represents a Date value as specified by [iso8601](https://en.wikipedia.org/wiki/ISO_8601).', stringLiteral);
export const DateTimeScalar = passThrough('DateTime', 'The `DateTime` scalar type represents a DateTime value as specified by [iso8601](https://en.wikipedia.org/wiki/ISO_8601).', stringLiteral);
export const DecimalScalar = passThrough('Decimal', 'The `Decimal` scalar type represents a python Decimal.', stringLiteral);
export const GenericScalar = passThrough('GenericScalar', 'The `GenericScalar` scalar type represents a generic GraphQL scalar value that could be: String, Boolean, Int, Float, List or Object.', anyLiteral);
export const BigIntegerScalar = passThrough('BigInteger', 'An integer that may exceed 32 bits (ASNs).', (node) =>
  node.kind === Kind.INT ? Number.parseInt(node.value, 10) : undefined,
);
