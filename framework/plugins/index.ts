export { definePlugin, PluginError, type PluginDefinition, type PluginOptions } from './define';
export { loadPlugins, compareVersions, type LoadedPlugin, type PluginLoadOptions } from './loader';
export { installedPluginsRoute } from './routes';
export { runMigrationGroups, type MigrationObserver } from './migrations';
