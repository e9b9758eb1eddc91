import { defineApp, type ApplicationDefinition as AppDefinition } from '../actions/define-app';
import type { ModelClass } from '../metadata/types';
import type { ModelAction } from '../actions/declared-routes';
import { isJobClass, registeredJob, type JobClass, type RegisteredJob } from '../jobs/job';
import type { SecretsProvider } from '../features/secrets';

/** Marks definitions made by this copy of the framework (a plugin bundling its own is refused). */
export const PLUGIN_MARK: unique symbol = Symbol('netinv.plugin');

export class PluginError extends Error {}

export interface PluginOptions {
  /** Application label, content-type prefix and table prefix: lower case, digits, underscores. */
  name: string;
  /** Path under `/api/plugins/` (default: the name). */
  base_url?: string;
  verbose_name?: string;
  /** The plugin's own version. */
  version: string;
  /** netinv versions the plugin works with, inclusive. */
  min_version?: string;
  max_version?: string;
  author?: string;
  author_email?: string;
  description?: string;
  /** Settings with their defaults; `PLUGINS_CONFIG[name]` overrides them. */
  default_settings?: Record<string, unknown>;
  /** Settings that `PLUGINS_CONFIG[name]` must give. */
  required_settings?: string[];
  models?: ModelClass[];
  /** Results of defineActions (one list per model), or one flat list. */
  actions?: ReadonlyArray<ModelAction | readonly ModelAction[]>;
  /** TypeORM migration classes, run after the core migrations. */
  migrations?: Function[];
  /** Job classes (`@JobInfo` subclasses of Job); their module is `<name>.jobs`. */
  jobs?: JobClass[];
  /** Secrets providers: Secrets may name them (`provider`) next to the core ones. */
  secrets_providers?: SecretsProvider[];
}

export interface PluginDefinition {
  readonly [PLUGIN_MARK]: true;
  readonly name: string;
  readonly base_url: string;
  readonly verbose_name: string;
  readonly version: string;
  readonly min_version?: string;
  readonly max_version?: string;
  readonly author: string;
  readonly author_email: string;
  readonly description: string;
  readonly default_settings: Readonly<Record<string, unknown>>;
  readonly required_settings: readonly string[];
  readonly migrations: readonly Function[];
  /** The plugin's jobs, with class paths `plugins/<name>.jobs/<Class>`. */
  readonly jobs: readonly RegisteredJob[];
  readonly secrets_providers: readonly SecretsProvider[];
  /** The application its models form: label = name, routes under `/api/plugins/<base_url>/`. */
  readonly app: AppDefinition;
}

const NAME = /^[a-z][a-z0-9_]*$/;
const BASE_URL = /^[a-z0-9][a-z0-9_-]*$/;
const VERSION = /^\d+(\.\d+){0,2}([-+].*)?$/;

/**
 * Declares a plugin: its identity, the netinv versions it supports, its settings, models, extra
 * actions and migrations. Its models are declared like core models; this gives them the app label
 * `name`, tables `<name>_<model>` and routes under `/api/plugins/<base_url>/`.
 */
export function definePlugin(options: PluginOptions): PluginDefinition {
  const where = `plugin ${JSON.stringify(options.name)}`;
  if (typeof options.name !== 'string' || !NAME.test(options.name)) {
    throw new PluginError(`${where}: name must be lower case letters, digits and underscores, starting with a letter`);
  }
  const baseUrl = options.base_url ?? options.name;
  if (!BASE_URL.test(baseUrl)) throw new PluginError(`${where}: base_url ${JSON.stringify(baseUrl)} must be one lower-case path segment`);
  if (typeof options.version !== 'string' || !VERSION.test(options.version)) throw new PluginError(`${where}: version must look like 1.2.3`);
  for (const key of ['min_version', 'max_version'] as const) {
    const v = options[key];
    if (v !== undefined && !VERSION.test(v)) throw new PluginError(`${where}: ${key} must look like 1.2.3`);
  }
  const actions = (options.actions ?? []).flatMap((a) => (Array.isArray(a) ? [...(a as readonly ModelAction[])] : [a as ModelAction]));
  const models = options.models ?? [];
  for (const action of actions) {
    // A field-kind action (`withField`) serves whichever models declare the field.
    if (action.model && !models.includes(action.model as ModelClass)) throw new PluginError(`${where}: an action names ${action.model.name}, which is not one of its models`);
  }
  for (const job of options.jobs ?? []) {
    if (!isJobClass(job)) throw new PluginError(`${where}: ${String((job as { name?: string })?.name)} is not a job class (a subclass of Job declared with @JobInfo)`);
  }
  for (const p of options.secrets_providers ?? []) {
    if (typeof p?.slug !== 'string' || typeof p.name !== 'string' || typeof p.retrieve !== 'function') throw new PluginError(`${where}: a secrets provider needs a slug, a name and retrieve()`);
  }
  const jobs = (options.jobs ?? []).map((cls) => registeredJob(cls, { source: 'plugins', module_name: `${options.name}.jobs` }));
  const verboseName = options.verbose_name ?? options.name;
  const app = defineApp(options.name, models, { plugin: true, urlBase: `plugins/${baseUrl}`, displayName: verboseName, actions });
  return Object.freeze({
    [PLUGIN_MARK]: true as const,
    name: options.name,
    base_url: baseUrl,
    verbose_name: verboseName,
    version: options.version,
    min_version: options.min_version,
    max_version: options.max_version,
    author: options.author ?? '',
    author_email: options.author_email ?? '',
    description: options.description ?? '',
    default_settings: Object.freeze({ ...(options.default_settings ?? {}) }),
    required_settings: Object.freeze([...(options.required_settings ?? [])]),
    migrations: Object.freeze([...(options.migrations ?? [])]),
    jobs: Object.freeze(jobs),
    secrets_providers: Object.freeze([...(options.secrets_providers ?? [])]),
    app,
  });
}

export function isPluginDefinition(value: unknown): value is PluginDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_MARK] === true;
}

/** Looks like a definition (it has a name and an app) but was made by another framework copy. */
export function looksLikeForeignDefinition(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || isPluginDefinition(value)) return false;
  const v = value as Record<string | symbol, unknown>;
  return typeof v.name === 'string' && typeof v.app === 'object' && Object.getOwnPropertySymbols(v).some((s) => s.description === 'netinv.plugin');
}
