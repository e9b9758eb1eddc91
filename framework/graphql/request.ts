import type { RequestContext } from '../http/context';
import { failure, type GraphQLOutcome, type GraphQLParams } from './execute';

/** The media type of the body, without parameters, lower-cased. */
function mediaType(ctx: RequestContext): string {
  return String(ctx.req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

function rawBody(ctx: RequestContext): string {
  const body = ctx.req.body as unknown;
  return Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : '';
}

/**
 * `query`, `variables` and `operationName` as graphene-django reads them: the URL's values win
 * over the body's; a JSON body is an object, an `application/graphql` body is the document, any
 * other body is ignored. Problems are the 400 answers Nautobot gives.
 */
export function graphqlParams(ctx: RequestContext): GraphQLParams | GraphQLOutcome {
  let body: Record<string, unknown> = {};
  const type = mediaType(ctx);
  if (type === 'application/json') {
    const text = rawBody(ctx);
    if (text.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return failure(400, 'Request body contained Invalid JSON.');
      }
      // Batches and bare values crash Nautobot (500); a 400 that clients can read instead.
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return failure(400, 'The request body must be a JSON object.');
      body = parsed as Record<string, unknown>;
    }
  } else if (type === 'application/graphql') {
    body = { query: rawBody(ctx) };
  }
  const pick = (name: string): unknown => ctx.query.get(name)?.[0] ?? body[name];

  const query = pick('query');
  if (query === undefined || query === null || query === '') return failure(400, 'Must provide query string.');
  if (typeof query !== 'string') return failure(400, 'The query must be a string');

  let variables = pick('variables');
  if (typeof variables === 'string') {
    try {
      variables = variables.trim() === '' ? null : JSON.parse(variables);
    } catch {
      return failure(400, 'Variables are invalid JSON.');
    }
  }
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return failure(400, 'Variables are invalid JSON.');

  const name = pick('operationName');
  const operationName = typeof name === 'string' && name !== '' && name !== 'null' ? name : null;
  return { query, variables: (variables as Record<string, unknown> | null | undefined) ?? null, operationName };
}

export function isOutcome(value: GraphQLParams | GraphQLOutcome): value is GraphQLOutcome {
  return 'status' in value && 'body' in value;
}
