import type { ExtraRoute, HandlerArgs } from '../actions/declared-routes';
import type { RequestContext } from '../http/context';
import { printSchema } from 'graphql';
import { runGraphQL, type GraphQLOutcome, type GraphQLParams } from './execute';
import type { QueryLimits } from './limits';
import { GraphReads } from './reads';
import { graphqlParams, isOutcome } from './request';
import { featureFields, graphqlSchema } from './schema';

export function limitsOf(ctx: RequestContext): QueryLimits {
  return { maxDepth: ctx.config.graphqlMaxDepth ?? 10, maxComplexity: ctx.config.graphqlMaxComplexity ?? 1000 };
}

/** Runs a document for the caller: every read restricted by its view permissions. */
export async function runFor(ctx: RequestContext, args: HandlerArgs, params: GraphQLParams, options: { validationStatus?: number } = {}): Promise<GraphQLOutcome> {
  const reads = new GraphReads(ctx, (model) => args.restrictFor(model, 'view'));
  return runGraphQL(await schemaFor(ctx), reads, params, limitsOf(ctx), options);
}

/** The schema with the custom and computed fields defined now (Nautobot needs a restart for them). */
async function schemaFor(ctx: RequestContext) {
  return graphqlSchema(ctx.registry, await featureFields(ctx.registry, ctx.db.reader, ctx.features));
}

/**
 * `/api/graphql/`: POST only (GET is a 405, after authentication), any authenticated caller,
 * read-only tokens included, as Nautobot's GraphQLDRFAPIView.
 */
export function graphqlRoute(): ExtraRoute {
  return {
    path: '/graphql/',
    auth: 'authenticated',
    readsOnly: true,
    documented: false,
    methods: {
      async POST(ctx, args) {
        const params = graphqlParams(ctx);
        const outcome = isOutcome(params) ? params : await runFor(ctx, args, params);
        return { status: outcome.status, body: outcome.body };
      },
    },
  };
}

/** The schema in SDL, for client code generation (`/api/graphql/schema.graphql`). */
export function schemaRoute(): ExtraRoute {
  return {
    path: '/graphql/schema.graphql',
    auth: 'authenticated',
    documented: false,
    negotiate: () => ({ renderer: 'json', contentType: 'text/plain; charset=utf-8' }),
    methods: {
      async GET(ctx) {
        return {
          status: 200,
          raw: { contentType: 'text/plain; charset=utf-8', text: printSchema(await schemaFor(ctx)) },
          headers: { 'Content-Disposition': 'attachment; filename="schema.graphql"' },
        };
      },
    },
  };
}
