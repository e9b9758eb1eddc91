import * as fs from 'node:fs';
import * as path from 'node:path';
import { ValidationError } from '../errors';
import type { Registry } from '../metadata/registry';
import type { Json, JsonObject } from '../metadata/types';
import { renderTemplate } from '../template/engine';

/**
 * Secrets providers: where a secret's value is read from (Nautobot's `nautobot/extras/secrets/`).
 * A Secret stores only a provider's slug and its parameters; the value is read when code asks for
 * it (`secretValue`) and never stored or serialised.
 */

/** What a provider needs to know of a secret: its name (for messages), provider and parameters. */
export interface SecretRef {
  readonly name: string;
  readonly provider: string;
  readonly parameters: Json;
}

/** Nautobot's SecretError: `<Class>: Secret "<name>" (provider "<Provider>"): <message>`. */
export class SecretError extends Error {
  constructor(
    readonly secret: string,
    readonly providerName: string,
    readonly detail: string,
  ) {
    super(detail);
    this.name = new.target.name;
  }

  override toString(): string {
    return `${this.name}: Secret "${this.secret}" (provider "${this.providerName}"): ${this.detail}`;
  }
}
/** The secret's provider is not registered. */
export class SecretProviderError extends SecretError {}
/** The secret's parameters do not let the provider find a value. */
export class SecretParametersError extends SecretError {}
/** The value the parameters point at does not exist (undefined variable, missing file). */
export class SecretValueNotFoundError extends SecretError {}

export interface SecretsProvider {
  /** The `provider` value of a Secret: `environment-variable`. */
  readonly slug: string;
  /** The provider's class name in messages (`EnvironmentVariableSecretsProvider`). */
  readonly name: string;
  /** Checks the parameters on write; throws ValidationError with the messages to answer. */
  validate?(parameters: JsonObject): void;
  /**
   * Reads the value for `secret` from its parameters (already rendered with `obj`); throws a
   * SecretError (SecretParametersError, SecretValueNotFoundError) when it cannot.
   */
  retrieve(secret: SecretRef, parameters: JsonObject): string | Promise<string>;
}

export const environmentVariableProvider: SecretsProvider = {
  slug: 'environment-variable',
  name: 'EnvironmentVariableSecretsProvider',
  retrieve(secret, parameters) {
    const variable = parameters.variable;
    if (variable === undefined || variable === null) throw new SecretParametersError(secret.name, this.name, 'The "variable" parameter is mandatory!');
    const value = process.env[String(variable)];
    if (value === undefined) throw new SecretValueNotFoundError(secret.name, this.name, `Undefined environment variable "${String(variable)}"!`);
    return value;
  },
};

export const textFileProvider: SecretsProvider = {
  slug: 'text-file',
  name: 'TextFileSecretsProvider',
  validate(parameters) {
    const p = parameters.path;
    if (typeof p !== 'string' || !path.isAbsolute(p)) throw ValidationError.model('Path must be an absolute path, not a relative one');
    if (p.split(/[\\/]/).includes('..')) throw ValidationError.model('Illegal character sequence in path');
  },
  async retrieve(secret, parameters) {
    const p = parameters.path;
    if (p === undefined || p === null) throw new SecretParametersError(secret.name, this.name, 'The "path" parameter is mandatory!');
    try {
      if (!(await fs.promises.stat(String(p))).isFile()) throw new Error('not a file');
      return (await fs.promises.readFile(String(p), 'utf8')).trim();
    } catch {
      throw new SecretValueNotFoundError(secret.name, this.name, `File "${String(p)}" not found!`);
    }
  },
};

/** The providers every netinv has. */
export const CORE_SECRETS_PROVIDERS: readonly SecretsProvider[] = Object.freeze([environmentVariableProvider, textFileProvider]);

/** Per registry, as other caches derived from it: the providers the enabled plugins add. */
const added = new WeakMap<Registry, ReadonlyMap<string, SecretsProvider>>();

/** Registers the plugins' providers for the server built on `registry`; a slug may be taken once. */
export function setSecretsProviders(registry: Registry, providers: readonly SecretsProvider[]): void {
  const map = new Map<string, SecretsProvider>();
  for (const p of providers) {
    if (CORE_SECRETS_PROVIDERS.some((c) => c.slug === p.slug) || map.has(p.slug)) throw new Error(`secrets provider "${p.slug}" is registered twice`);
    map.set(p.slug, p);
  }
  added.set(registry, map);
}

/** The provider registered under `slug` (core or a plugin's), if any. */
export function secretsProviderOf(registry: Registry | null, slug: string): SecretsProvider | undefined {
  return CORE_SECRETS_PROVIDERS.find((p) => p.slug === slug) ?? (registry ? added.get(registry)?.get(slug) : undefined);
}

/** Every provider of the server built on `registry`, core first. */
export function secretsProvidersOf(registry: Registry | null): SecretsProvider[] {
  return [...CORE_SECRETS_PROVIDERS, ...(registry ? [...(added.get(registry)?.values() ?? [])] : [])];
}

/** The write-time check of a Secret's provider and parameters, with Nautobot's messages. */
export function validateSecretParameters(registry: Registry | null, provider: string, parameters: Json): void {
  const found = secretsProviderOf(registry, provider);
  if (!found) throw new ValidationError({ provider: [`No registered provider "${provider}" is available`] });
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) throw new ValidationError({ parameters: ['Parameters must be a JSON object.'] });
  found.validate?.(parameters);
}

/** Parameter values may be templates rendered with `obj`, the object the secret is used for. */
function rendered(secret: SecretRef, providerName: string, obj: JsonObject | null): JsonObject {
  const params = secret.parameters;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) throw new SecretParametersError(secret.name, providerName, 'Parameters must be a JSON object');
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(params)) {
    if (typeof value === 'string' && /\{[{%]/.test(value)) {
      try {
        out[key] = renderTemplate(value, { obj });
      } catch (err) {
        throw new SecretParametersError(secret.name, providerName, `Cannot render the "${key}" parameter: ${(err as Error).message}`);
      }
    } else out[key] = value;
  }
  return out;
}

/**
 * Reads a secret's value through its provider: for code that uses it (jobs, Git repositories),
 * never for a response. Throws a SecretError (`String(err)` is Nautobot's message).
 */
export async function secretValue(registry: Registry | null, secret: SecretRef, options: { obj?: JsonObject | null } = {}): Promise<string> {
  const provider = secretsProviderOf(registry, secret.provider);
  if (!provider) throw new SecretProviderError(secret.name, secret.provider, `No registered provider "${secret.provider}" is available`);
  return provider.retrieve(secret, rendered(secret, provider.name, options.obj ?? null));
}
