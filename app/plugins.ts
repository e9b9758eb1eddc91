import { loadPlugins, type LoadedPlugin } from '../framework/plugins';
import type { Config } from './config';
import { CORE_APPS } from './apps';

/** The plugins NETINV_PLUGINS enables, checked against this netinv and PLUGINS_CONFIG. */
export function enabledPlugins(config: Readonly<Config>, cwd: string = process.cwd()): LoadedPlugin[] {
  return loadPlugins({
    specs: config.plugins,
    cwd,
    serverVersion: config.version,
    reservedLabels: CORE_APPS.map((a) => a.label),
    settings: config.pluginsConfig,
  });
}
