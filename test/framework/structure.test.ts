import * as fs from 'node:fs';
import * as path from 'node:path';
import { importCycles, importsOf, ROOT, sourceFiles } from '../helpers/source-graph';

/**
 * The shape ARCHITECTURE in the README describes, checked on the source: no import cycles inside
 * framework/, imports pointing down the layers only, SQL only in framework/store/ and the
 * migrations, behaviour chosen by what a field kind declares rather than by its name.
 */

const FRAMEWORK = sourceFiles('framework');

/** Folders of framework/ by layer, bottom first; a module may import its own layer and those below. */
const LAYERS: readonly (readonly string[])[] = [
  // Declarations, no I/O: model and field metadata, predicates as data, IP arithmetic, errors.
  ['errors', 'metadata', 'fields', 'query', 'network', 'versioning', 'decorators', 'models', 'template'],
  // The one place that talks to the database.
  ['store'],
  // Speak to the store: filters, representations, permissions, features, request state.
  ['filterset', 'serializer', 'auth', 'features', 'http', 'pagination'],
  // Generic handlers and extra actions.
  ['views', 'actions', 'plugins', 'jobs'],
  // Derived from the route table.
  ['router', 'openapi', 'options', 'browsable', 'graphql'],
  // The public surface.
  ['index.ts'],
];

function layerOf(file: string): number {
  const folder = file.split('/')[1];
  const layer = LAYERS.findIndex((folders) => folders.includes(folder));
  if (layer < 0) throw new Error(`${file}: framework/${folder} is in no layer of this test`);
  return layer;
}

/** Code without comments, so that prose about SQL does not count as SQL. */
function codeOf(file: string): string {
  return fs
    .readFileSync(path.join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const SQL = /\bSELECT\b[^;]*\bFROM\b|\bINSERT INTO\b|\bUPDATE\s+\$\{[^}]*\}\s+(AS\s+\S+\s+)?SET\b|\bDELETE FROM\b|\bEXISTS \(|\bCOUNT\(\*\)/;

describe('source structure', () => {
  test('no import cycle inside framework/ (type-only imports included)', () => {
    expect(importCycles(FRAMEWORK)).toEqual([]);
  });

  test('framework/ imports point down the layers', () => {
    const upward: string[] = [];
    for (const file of FRAMEWORK) {
      for (const target of importsOf(file)) {
        if (!target.startsWith('framework/')) {
          upward.push(`${file} -> ${target} (outside framework/)`);
          continue;
        }
        if (layerOf(target) > layerOf(file)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  test('models/ and plugins/ use the public surface (framework/index.ts) only', () => {
    const files = [...sourceFiles('models'), ...sourceFiles('plugins')];
    const reaching = files.flatMap((file) => importsOf(file).filter((t) => t.startsWith('framework/') && t !== 'framework/index.ts').map((t) => `${file} -> ${t}`));
    expect(reaching).toEqual([]);
  });

  test('no SQL outside framework/store/ and the migrations', () => {
    // The benchmark's floor server is raw SQL on purpose: it measures what the database alone can do.
    const exempt = new Set(['app/bench/floor-server.ts']);
    const files = ['framework', 'models', 'app', 'generators', 'plugins']
      .flatMap((folder) => sourceFiles(folder))
      .filter((f) => !f.startsWith('framework/store/') && !f.startsWith('app/migrations/') && !/\/migrations\//.test(f) && !exempt.has(f));
    const withSql = files.filter((f) => SQL.test(codeOf(f)));
    expect(withSql).toEqual([]);
  });

  test('the SQL check finds SQL where there is some', () => {
    expect(SQL.test(codeOf('framework/store/rows.ts'))).toBe(true);
  });

  test('no behaviour chosen by comparing a field kind name', () => {
    const files = [...FRAMEWORK, ...sourceFiles('models'), ...sourceFiles('app')];
    const comparing = files.filter((f) => /kind\.name\s*[!=]==|[!=]==\s*\w+\.kind\.name|\.includes\([^)]*kind\.name\)/.test(codeOf(f)));
    expect(comparing).toEqual([]);
  });
});
