import { defineActions, runGraphQLFor, type ActionRequest } from '../../framework';
import { GraphQLQuery } from './graphql-query';

/**
 * POST `/run/` with `{"variables": {…}}`: the stored query runs for the caller, its data
 * restricted by the caller's view permissions. Validation errors come back with 200, as Nautobot's
 * saved-query runner answers; errors before execution are a 400.
 */
async function run(req: ActionRequest) {
  const saved = await req.object(req.ctx.db.reader, await req.restrict(GraphQLQuery, 'add'));
  const raw = req.ctx.req.body as unknown;
  let variables: Record<string, unknown> | null = null;
  if (Buffer.isBuffer(raw) && raw.length > 0) {
    const body = req.body();
    const given = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>).variables : undefined;
    if (given !== null && typeof given === 'object' && !Array.isArray(given)) variables = given as Record<string, unknown>;
  }
  const outcome = await runGraphQLFor(req.ctx, req.args, { query: saved.query as string, variables, operationName: null }, { validationStatus: 200 });
  return { status: outcome.status, body: outcome.body };
}

export const graphqlQueryActions = defineActions(GraphQLQuery, {
  run: { detail: true, POST: { action: 'add', handler: run } },
});
