import type { FieldKind } from './model-meta';
import type { FieldOptions, ModelOptions, NamedFilterDeclaration } from './types';

/** One decorated property, as its decorator recorded it. */
export interface FieldDeclaration {
  property: string;
  kind: FieldKind;
  options: FieldOptions;
  seq: number;
}

/**
 * Raw decorator arguments, recorded when model files load and resolved later by buildRegistry.
 * Nothing here refers to other classes eagerly, so model files may import each other in circles.
 */
const fields = new Map<Function, FieldDeclaration[]>();
const models = new Map<Function, ModelOptions>();
const filters = new Map<Function, NamedFilterDeclaration[]>();
const hooks = new Map<Function, Map<string, string>>();
let sequence = 0;

export function recordField(cls: Function, declaration: Omit<FieldDeclaration, 'seq'>): void {
  const list = fields.get(cls) ?? [];
  list.push({ ...declaration, seq: sequence++ });
  fields.set(cls, list);
}

export function recordModel(cls: Function, options: ModelOptions): void {
  models.set(cls, options);
}

export function recordFilter(cls: Function, declaration: NamedFilterDeclaration): void {
  const list = filters.get(cls) ?? [];
  list.push(declaration);
  filters.set(cls, list);
}

export function recordHook(cls: Function, hook: string, method: string): void {
  const map = hooks.get(cls) ?? new Map<string, string>();
  map.set(hook, method);
  hooks.set(cls, map);
}

/** The class and its ancestors, base first. */
function lineage(cls: Function): Function[] {
  const chain: Function[] = [];
  for (let c: Function | null = cls; c && c !== Function.prototype && c !== Object; c = Object.getPrototypeOf(c)) {
    chain.unshift(c);
  }
  return chain;
}

/** Declared fields of a class including inherited ones; a subclass may redeclare a field. */
export function declaredFields(cls: Function): FieldDeclaration[] {
  const byName = new Map<string, FieldDeclaration>();
  for (const c of lineage(cls)) for (const f of fields.get(c) ?? []) byName.set(f.property, f);
  return [...byName.values()].sort((a, b) => a.seq - b.seq);
}

export function declaredModel(cls: Function): ModelOptions | undefined {
  return models.get(cls);
}

export function declaredFilters(cls: Function): NamedFilterDeclaration[] {
  const byName = new Map<string, NamedFilterDeclaration>();
  for (const c of lineage(cls)) for (const f of filters.get(c) ?? []) byName.set(f.name, f);
  return [...byName.values()];
}

export function declaredHooks(cls: Function): Map<string, string> {
  const merged = new Map<string, string>();
  for (const c of lineage(cls)) for (const [k, v] of hooks.get(c) ?? []) merged.set(k, v);
  return merged;
}
