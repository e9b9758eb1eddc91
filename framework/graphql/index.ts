export { graphqlRoute, runFor, schemaRoute } from './route';
export { graphqlSchema } from './schema';
export { syntaxError, variableDefaults, type GraphQLParams } from './execute';
export { graphiqlRoutes } from './graphiql';
