import * as path from 'node:path';
import type { ApplicationDefinition as AppDefinition } from '../actions/define-app';
import { isPluginDefinition, looksLikeForeignDefinition, PluginError, type PluginDefinition } from './define';

/** A plugin that passed every start-up check. */
export interface LoadedPlugin {
  readonly definition: PluginDefinition;
  /** What NETINV_PLUGINS named: a package name or a path. */
  readonly package: string;
  /** Its settings: defaults overridden by PLUGINS_CONFIG. */
  readonly settings: Readonly<Record<string, unknown>>;
  /** The application to register, carrying the settings. */
  readonly app: AppDefinition;
}

export interface PluginLoadOptions {
  /** Module paths (`./plugins/x`, absolute) or package names, in order. */
  specs: readonly string[];
  /** Paths resolve from here (the working directory). */
  cwd: string;
  /** netinv's version, checked against each plugin's min_version and max_version. */
  serverVersion: string;
  /** Application labels already taken (the core applications). */
  reservedLabels: readonly string[];
  /** PLUGINS_CONFIG: plugin name → settings. */
  settings: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Loads a resolved module (tests substitute their own loader). */
  load?: (file: string) => unknown;
}

/** Path segments of /api/plugins/ that are not plugin roots. */
const RESERVED_BASE_URLS = new Set(['installed-plugins']);

function isPath(spec: string): boolean {
  return spec.startsWith('.') || path.isAbsolute(spec);
}

function resolveSpec(spec: string, cwd: string): string {
  try {
    return isPath(spec) ? require.resolve(path.resolve(cwd, spec)) : require.resolve(spec, { paths: [cwd] });
  } catch (err) {
    throw new PluginError(`plugin ${spec}: cannot be loaded from ${cwd}: ${(err as Error).message.split('\n')[0]}`);
  }
}

/** The definition a plugin module exports: `export default definePlugin(...)` or `export const plugin`. */
function definitionOf(spec: string, mod: unknown): PluginDefinition {
  const m = mod as Record<string, unknown> | null;
  const candidates = m === null || typeof m !== 'object' ? [m] : [m.default, m.plugin, m];
  const found = candidates.find(isPluginDefinition);
  if (found) return found;
  if (candidates.some(looksLikeForeignDefinition)) {
    throw new PluginError(`plugin ${spec}: made with another copy of the netinv framework; import the framework of the netinv installation that loads it`);
  }
  throw new PluginError(`plugin ${spec}: its module does not export definePlugin(...) as default`);
}

/** `1.2.3` as a comparable tuple; a pre-release or build suffix is ignored. */
function versionTuple(text: string): number[] {
  const parts = text.split(/[-+]/)[0].split('.').map(Number);
  while (parts.length < 3) parts.push(0);
  return parts;
}

export function compareVersions(a: string, b: string): number {
  const x = versionTuple(a);
  const y = versionTuple(b);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

function checkVersion(def: PluginDefinition, serverVersion: string): void {
  if (def.min_version && compareVersions(serverVersion, def.min_version) < 0) {
    throw new PluginError(`plugin ${def.name} ${def.version} requires netinv ${def.min_version} or newer; this is ${serverVersion}`);
  }
  if (def.max_version && compareVersions(serverVersion, def.max_version) > 0) {
    throw new PluginError(`plugin ${def.name} ${def.version} supports netinv up to ${def.max_version}; this is ${serverVersion}`);
  }
}

function settingsOf(def: PluginDefinition, given: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  if (given !== undefined && (typeof given !== 'object' || given === null || Array.isArray(given))) {
    throw new PluginError(`PLUGINS_CONFIG.${def.name} must be an object`);
  }
  const merged = { ...def.default_settings, ...(given ?? {}) };
  const missing = def.required_settings.filter((key) => merged[key] === undefined);
  if (missing.length) {
    throw new PluginError(`plugin ${def.name} requires PLUGINS_CONFIG.${def.name}.${missing.join(', ')} to be set`);
  }
  return merged;
}

/**
 * Loads the enabled plugins and checks them before anything starts, as Nautobot does at start-up:
 * a module that is missing or exports no definition, a netinv version outside the plugin's range,
 * a missing required setting, or a name, base URL or table prefix that another application or
 * plugin already uses is a PluginError naming the plugin.
 */
export function loadPlugins(o: PluginLoadOptions): LoadedPlugin[] {
  const load = o.load ?? ((file: string) => require(file) as unknown);
  const loaded: LoadedPlugin[] = [];
  const labels = new Set(o.reservedLabels);
  const baseUrls = new Set(RESERVED_BASE_URLS);
  for (const spec of o.specs) {
    const def = definitionOf(spec, load(resolveSpec(spec, o.cwd)));
    if (labels.has(def.name)) {
      throw new PluginError(`plugin ${spec}: name ${def.name} is already used by ${loaded.some((p) => p.definition.name === def.name) ? 'another plugin' : 'a core application'}`);
    }
    if (baseUrls.has(def.base_url)) throw new PluginError(`plugin ${spec}: base_url ${def.base_url} is already taken under /api/plugins/`);
    // Tables are `<label>_<model>`: a label that prefixes another (`dcim` and `dcim_x`) could collide.
    for (const other of labels) {
      if (def.name.startsWith(`${other}_`) || other.startsWith(`${def.name}_`)) {
        throw new PluginError(`plugin ${spec}: name ${def.name} and application ${other} would share table names; choose a name that is not a prefix of the other`);
      }
    }
    checkVersion(def, o.serverVersion);
    const settings = Object.freeze(settingsOf(def, o.settings[def.name]));
    labels.add(def.name);
    baseUrls.add(def.base_url);
    loaded.push({ definition: def, package: spec, settings, app: { ...def.app, settings } });
  }
  return loaded;
}
