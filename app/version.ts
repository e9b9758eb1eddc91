import * as fs from 'node:fs';
import * as path from 'node:path';

/** netinv's version from package.json (found upwards, from sources or from compiled output). */
export function netinvVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'netinv') return pkg.version ?? '0.0.0';
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}
