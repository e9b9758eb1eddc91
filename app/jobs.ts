import * as fs from 'node:fs';
import * as path from 'node:path';
import { isJobClass, registeredJob, type RegisteredJob } from '../framework';
import type { LoadedPlugin } from '../framework/plugins';
import { PluginError } from '../framework/plugins';

const MODULE = /^([A-Za-z_][A-Za-z0-9_]*)\.(js|ts)$/;

/**
 * The job classes of the jobs directory: every exported `@JobInfo` class of each module directly
 * in it, under the module's file name (`local/<file>/<Class>`). A module that fails to load stops
 * the start, naming it.
 */
export function jobsFromDirectory(root: string): RegisteredJob[] {
  if (!root) return [];
  const dir = path.resolve(root);
  if (!fs.existsSync(dir)) throw new PluginError(`jobs directory ${dir} does not exist`);
  const out: RegisteredJob[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    const m = MODULE.exec(file);
    if (!m || file.endsWith('.d.ts')) continue;
    let exported: Record<string, unknown>;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      exported = require(path.join(dir, file)) as Record<string, unknown>;
    } catch (err) {
      throw new PluginError(`jobs module ${path.join(dir, file)}: ${(err as Error).message}`);
    }
    for (const value of Object.values(exported)) if (isJobClass(value)) out.push(registeredJob(value, { source: 'local', module_name: m[1] }));
  }
  return out;
}

/** Every job this server knows: the plugins' in their order, then the jobs directory's. */
export function allJobs(plugins: readonly LoadedPlugin[], jobsRoot: string): RegisteredJob[] {
  return [...plugins.flatMap((p) => p.definition.jobs ?? []), ...jobsFromDirectory(jobsRoot)];
}
