/**
 * Writes the OpenAPI document of one API version to a file, as /api/swagger.json serves it (for
 * review and client generation). Plugins enabled by NETINV_PLUGINS are included.
 *
 *   npm run gen:openapi -- [--api-version 1.6] [--output openapi.yaml]
 *
 * The format follows the file name: `.yaml`/`.yml` is YAML, anything else JSON.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../app/config';
import { registryWith } from '../app/database';
import { enabledPlugins } from '../app/plugins';
import { openApiSources } from '../app/routes';
import { buildOpenApi, toYaml } from '../framework/openapi';
import { DEFAULT_VERSION, SUPPORTED_VERSIONS, supportedVersion } from '../framework/versioning/version';

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function main(): void {
  const args = process.argv.slice(2);
  const versionText = option(args, 'api-version') ?? String(DEFAULT_VERSION);
  const version = supportedVersion(versionText);
  if (!version) {
    process.stderr.write(`unsupported API version ${versionText}; use one of ${SUPPORTED_VERSIONS.join(', ')}\n`);
    process.exit(2);
  }
  const output = path.resolve(option(args, 'output') ?? 'openapi.json');
  const config = loadConfig();
  const plugins = enabledPlugins(config);
  const registry = registryWith(plugins);
  const doc = buildOpenApi(openApiSources(registry, config, plugins), version);
  const text = /\.ya?ml$/i.test(output) ? toYaml(doc) : `${JSON.stringify(doc, null, 4)}\n`;
  fs.mkdirSync(path.dirname(output), { recursive: true });
  fs.writeFileSync(output, text);
  process.stdout.write(`Wrote ${path.relative(process.cwd(), output)} (API ${version}, ${Object.keys(doc.paths).length} paths)\n`);
}

if (require.main === module) {
  try {
    main();
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
}
