export { buildOpenApi, templatePath, type OpenApiDocument, type OpenApiRequestData, type OpenApiSources } from './document';
export { documentationRoutes, type DocumentationRoutes } from './routes';
export { toYaml } from './yaml';
export { buildReference } from './reference';
