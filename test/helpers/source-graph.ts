import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

/** The project's root folder. */
export const ROOT = path.resolve(__dirname, '..', '..');

/** Every .ts file under a folder of the project, as paths relative to the root. */
export function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(rel);
    }
  };
  walk(folder);
  return out.sort();
}

/**
 * The project files a source file imports, type-only imports and re-exports included (they bind
 * modules to each other as much as value imports do), as root-relative paths.
 */
export function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const out = new Set<string>();
  for (const ref of info.importedFiles) {
    if (!ref.fileName.startsWith('.')) continue;
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), ref.fileName));
    const candidates = [`${base}.ts`, `${base}/index.ts`, base];
    const found = candidates.find((c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile());
    if (found) out.add(found);
  }
  return [...out].sort();
}

/** Strongly connected components with more than one file (or a file importing itself): import cycles. */
export function importCycles(files: readonly string[]): string[][] {
  const inside = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => inside.has(t))]));
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, indices.get(w) as number));
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const f of files) if (!indices.has(f)) connect(f);
  return cycles;
}
