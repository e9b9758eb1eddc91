/**
 * Writes the Markdown reference of the API (every endpoint, field, choice and filter) from the
 * model registry. The repository keeps the core's reference in docs/api-reference.md; a test
 * checks that it equals what this writes, so regenerate it when a model changes. Plugins named
 * in NETINV_PLUGINS are included (leave it unset for the committed file).
 *
 *   npm run gen:docs -- [--api-version 1.6] [--output docs/api-reference.md]
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../app/config';
import { registryWith } from '../app/database';
import { enabledPlugins } from '../app/plugins';
import { openApiSources } from '../app/routes';
import { buildReference } from '../framework/openapi';
import { SUPPORTED_VERSIONS, supportedVersion } from '../framework/versioning/version';

export const DEFAULT_OUTPUT = path.join('docs', 'api-reference.md');

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function main(): void {
  const args = process.argv.slice(2);
  const versionText = option(args, 'api-version') ?? String(SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]);
  const version = supportedVersion(versionText);
  if (!version) {
    process.stderr.write(`unsupported API version ${versionText}; use one of ${SUPPORTED_VERSIONS.join(', ')}\n`);
    process.exit(2);
  }
  const output = path.resolve(option(args, 'output') ?? DEFAULT_OUTPUT);
  const config = loadConfig();
  const plugins = enabledPlugins(config);
  const registry = registryWith(plugins);
  const text = buildReference(openApiSources(registry, config, plugins), version);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.writeFileSync(output, text);
  const models = registry.models.filter((m) => m.path !== null).length;
  process.stdout.write(`Wrote ${path.relative(process.cwd(), output)} (API ${version}, ${models} models)\n`);
}

if (require.main === module) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
}
