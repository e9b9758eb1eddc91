import type { Registry } from '../framework';
import type { OpenApiSources } from '../framework/openapi';
import { installedPluginsRoute, type LoadedPlugin } from '../framework/plugins';
import type { ExtraRoute, ModelAction } from '../framework/router/api';
import { buildRouteTable } from '../framework/router/route-table';
import { graphqlRoute, schemaRoute } from '../framework/graphql';
import { CORE_APPS } from './apps';
import type { Config } from './config';
import { statusRoute } from './status';
import { userConfigRoute } from '../models/users';
import { legacyJobRoutes } from '../models/extras';
import { connectedDeviceRoute } from '../models/dcim/connected-device';
import { connectionRoutes } from '../models/dcim/connections';

/** Routes besides the model endpoints, shared by the server and the OpenAPI generator. */
export function extraRoutes(registry: Registry, config: Readonly<Config>, plugins: readonly LoadedPlugin[]): ExtraRoute[] {
  return [statusRoute(registry, config, plugins), installedPluginsRoute(plugins), userConfigRoute(registry), graphqlRoute(), schemaRoute(), ...legacyJobRoutes(), connectedDeviceRoute(registry), ...connectionRoutes(registry)];
}

/** Extra actions of the core applications' and the plugins' models. */
export function modelActions(plugins: readonly LoadedPlugin[]): ModelAction[] {
  return [...CORE_APPS, ...plugins.map((p) => p.app)].flatMap((a) => a.actions);
}

/**
 * What the OpenAPI document is built from without a server (the generator): the route table of
 * the same routes and actions the server serves.
 */
export function openApiSources(registry: Registry, config: Readonly<Config>, plugins: readonly LoadedPlugin[]): OpenApiSources {
  const table = buildRouteTable({ registry, routes: extraRoutes(registry, config, plugins), actions: modelActions(plugins) });
  return { registry, table, serverVersion: config.version };
}
