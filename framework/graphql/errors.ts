import type { GraphQLError, Source } from 'graphql';
import type { JsonObject } from '../metadata/types';

/** An error as Nautobot's graphql-core 2 formats it: message, locations, path; no extensions. */
export function formatError(error: GraphQLError, message = legacyMessage(error.message)): JsonObject {
  const out: JsonObject = { message };
  if (error.locations?.length) out.locations = error.locations.map((l) => ({ line: l.line, column: l.column }));
  if (error.path?.length) out.path = [...error.path];
  return out;
}

/**
 * graphql-core 2 spelled some validation messages differently from graphql-js 16; clients
 * (and their tests) match the text Nautobot returns.
 */
function legacyMessage(message: string): string {
  return message
    .replace(/^Unknown argument "([^"]+)" on field "([^".]+)\.([^"]+)"\.$/, 'Unknown argument "$1" on field "$3" of type "$2".')
    .replace(/^(Field "[^"]+" of type "[^"]+") must have a selection of subfields\..*$/s, '$1 must have a sub selection.')
    .replace(/^Variable "\$([^"]+)" of type "([^"]+)" used in position expecting type "([^"]+)"\.$/, 'Variable "$1" of type "$2" used in position expecting type "$3".');
}

/**
 * A syntax error as graphql-core 2 words it: `Syntax Error GraphQL (line:col) description`, a
 * blank line, then the offending line between its neighbours with a caret under the column.
 */
export function formatSyntaxError(error: GraphQLError, source: Source | string): JsonObject {
  const body = typeof source === 'string' ? source : source.body;
  const location = error.locations?.[0] ?? { line: 1, column: 1 };
  const description = error.message
    .replace(/^Syntax Error: /, '')
    .replace(/<EOF>/g, 'EOF')
    .replace(/\.$/, '');
  const lines = body.split(/\r\n|[\n\r]/);
  const { line, column } = location;
  const pad = String(line + 1).length;
  const show = (n: number) => `${String(n).padStart(pad)}: ${lines[n - 1]}\n`;
  let excerpt = '';
  if (line >= 2) excerpt += show(line - 1);
  if (line <= lines.length) excerpt += show(line);
  excerpt += ' '.repeat(1 + pad + column) + '^\n';
  if (line < lines.length) excerpt += show(line + 1);
  return { message: `Syntax Error GraphQL (${line}:${column}) ${description}\n\n${excerpt}`, locations: [{ line, column }] };
}
