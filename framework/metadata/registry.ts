import { Column, Entity, Index, Unique } from 'typeorm';
import { declaredFields, declaredFilters, declaredModel } from './storage';
import { FieldMeta, ModelMeta, reverseName, type AppMeta, type ReverseRelation, type HookName } from './model-meta';
import type { ModelClass, Thunk } from './types';

/** Providers of cross-cutting features, contributed by applications (extras provides tags). */
export interface FeatureProviders {
  tags?: { tag: Thunk<ModelClass>; through: Thunk<ModelClass> };
  [feature: string]: unknown;
}

export interface AppDefinition {
  label: string;
  displayName: string;
  urlBase: string;
  models: ModelClass[];
  provides: FeatureProviders;
  plugin?: boolean;
  /** A plugin's settings (its defaults overridden by configuration). */
  settings?: Readonly<Record<string, unknown>>;
}

export interface AppOptions {
  displayName?: string;
  urlBase?: string;
  provides?: FeatureProviders;
  plugin?: boolean;
}

export class RegistryError extends Error {}

const applied = new WeakSet<Function>();

/**
 * The column every model table has beside its fields: the object's version, 1 when inserted and
 * one more on every update of the row. Never part of the API body; the ETag of a detail response
 * is made of it (views/etag.ts), and If-Match compares with it.
 */
export const VERSION_COLUMN = '_version';

function modelName(cls: Function): string {
  return (declaredModel(cls)?.name ?? cls.name).toLowerCase();
}

/**
 * Declares an application's models: its label and models, in order. Gives each class its table
 * `<app>_<model>`; the registry is built later from these definitions. Model and plugin code
 * call defineApp (actions/define-app.ts), which adds the application's extra routes.
 */
export function declareApp(label: string, models: ModelClass[], options: AppOptions = {}): AppDefinition {
  for (const cls of models) {
    if (applied.has(cls)) continue;
    applied.add(cls);
    const opts = declaredModel(cls);
    if (!opts) throw new RegistryError(`${cls.name} in app ${label} lacks @Model`);
    const table = `${label}_${modelName(cls)}`;
    Entity({ name: table })(cls);
    Column({ name: VERSION_COLUMN, type: 'integer', default: 1 })(cls.prototype, VERSION_COLUMN);
    for (const d of declaredFields(cls)) d.kind.define?.({ property: d.property, options: d.options }, cls, table, modelName(cls));
    for (const set of opts.uniqueTogether ?? []) {
      const fields = declaredFields(cls);
      const properties = set.map((n) => {
        const f = fields.find((d) => d.property === n);
        if (!f) throw new RegistryError(`${cls.name}.uniqueTogether names unknown field ${n}`);
        return n;
      });
      Unique(properties)(cls);
    }
    for (const set of opts.indexTogether ?? []) {
      const names = new Set(declaredFields(cls).map((d) => d.property));
      const unknown = set.find((n) => !names.has(n));
      if (unknown) throw new RegistryError(`${cls.name}.indexTogether names unknown field ${unknown}`);
      Index(set)(cls);
    }
  }
  return {
    label,
    displayName: options.displayName ?? label.charAt(0).toUpperCase() + label.slice(1),
    urlBase: options.urlBase ?? label,
    models,
    provides: options.provides ?? {},
    plugin: options.plugin,
  };
}

/** The frozen description every other module reads. */
export class Registry {
  readonly apps: AppMeta[] = [];
  readonly models: ModelMeta[] = [];
  private readonly byClass = new Map<Function, ModelMeta>();
  private readonly byLabel = new Map<string, ModelMeta>();
  readonly providers: FeatureProviders = {};

  forClass(cls: Function): ModelMeta {
    const m = this.byClass.get(cls);
    if (!m) throw new RegistryError(`${cls.name} is not a registered model`);
    return m;
  }
  maybeForClass(cls: Function): ModelMeta | undefined {
    return this.byClass.get(cls);
  }
  get(label: string): ModelMeta | undefined {
    return this.byLabel.get(label);
  }
  /** Models with an API endpoint. */
  get routed(): ModelMeta[] {
    return this.models.filter((m) => m.path !== null);
  }
  entities(): Function[] {
    return this.models.map((m) => m.cls);
  }
  /** Labels of models taking part in a feature (`tags`, `statuses`, `custom_fields`…). */
  labelsWith(feature: string): string[] {
    return this.models.filter((m) => m.has(feature)).map((m) => m.label).sort();
  }

  /** @internal */
  add(meta: ModelMeta): void {
    meta.registry = this;
    this.models.push(meta);
    this.byClass.set(meta.cls, meta);
    this.byLabel.set(meta.label, meta);
  }
}

/** Kinds that need the whole registry (relation targets, link tables) implement this. */
export interface ResolvingKind {
  resolve(field: FieldMeta, registry: Registry): void;
}

function isResolving(kind: unknown): kind is ResolvingKind {
  return typeof (kind as ResolvingKind).resolve === 'function';
}

const HOOKS: HookName[] = ['prepare', 'clean', 'beforeSave', 'afterSave', 'beforeDelete', 'scope'];

/** Resolves thunks, inverse sides, features and hooks, validates, then freezes. */
export function buildRegistry(definitions: AppDefinition[]): Registry {
  const registry = new Registry();
  for (const def of definitions) Object.assign(registry.providers, def.provides);

  for (const def of definitions) {
    if (registry.apps.some((a) => a.label === def.label)) throw new RegistryError(`two applications labelled ${def.label}`);
    const app: AppMeta = { label: def.label, urlBase: def.urlBase, displayName: def.displayName, models: [], plugin: def.plugin, settings: def.settings ?? {} };
    registry.apps.push(app);
    const paths = new Set<string>();
    for (const cls of def.models) {
      const options = declaredModel(cls);
      if (!options) throw new RegistryError(`${cls.name} lacks @Model`);
      const meta = new ModelMeta(cls, app, modelName(cls), options);
      if (registry.get(meta.label)) throw new RegistryError(`two models labelled ${meta.label}`);
      if (options.path !== null) {
        if (paths.has(options.path)) throw new RegistryError(`two models on /api/${app.urlBase}/${options.path}/`);
        paths.add(options.path);
      }
      const declared = declaredFields(cls);
      const head = declared.filter((d) => d.options.slot === 'head');
      const body = declared.filter((d) => !d.options.slot);
      const tail = declared
        .filter((d) => d.options.slot === 'tail')
        .sort((a, b) => (a.options.rank ?? 0) - (b.options.rank ?? 0));
      for (const d of [...head, ...body, ...tail]) {
        if (d.property.includes('__')) throw new RegistryError(`${cls.name}.${d.property}: "__" is reserved for lookups`);
        meta.addField(new FieldMeta(d.property, d.kind, d.options as FieldMeta['options'], d.seq));
      }
      if (!meta.field('id')) throw new RegistryError(`${cls.name} has no id field`);
      meta.namedFilters = declaredFilters(cls);
      for (const hook of HOOKS) {
        if (typeof (cls as unknown as Record<string, unknown>)[hook] === 'function') meta.hooks.set(hook, hook);
      }
      for (const f of options.features ?? []) meta.features.add(f);
      for (const f of meta.fields) {
        const feature = (f.options as { feature?: string }).feature;
        if (feature) meta.features.add(feature);
      }
      app.models.push(meta);
      registry.add(meta);
    }
  }

  for (const meta of registry.models) {
    for (const field of meta.fields) if (isResolving(field.kind)) field.kind.resolve(field, registry);
  }
  for (const meta of registry.models) {
    for (const field of meta.fields) {
      if (field.target && field.column && field.kind.relation === 'foreign-key') field.target.reverse.push({ model: meta, field });
      // Many-to-many fields naming their other side (`related`) can be walked backwards too.
      if (field.target && field.kind.relation === 'many-to-many' && (field.options as { related?: string }).related) {
        field.target.reverseLinks.push({ model: meta, field });
      }
    }
  }
  validate(registry);
  return deepFreeze(registry);
}

/**
 * Freezes the registry and everything it describes (applications, models, fields, relations,
 * resolved field data), so that no module can change the description after the start. Model
 * classes (TypeORM keeps its own metadata on them) and declaration options (shared with the
 * TypeORM and class-validator decorators) stay as they are; caches derived from the registry live
 * in WeakMaps beside it.
 */
function deepFreeze<T extends object>(root: T): T {
  const seen = new Set<object>();
  const visit = (value: unknown, key: string): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    if (key === 'options' || key === 'cls') return;
    seen.add(value);
    const entries: Array<[string, unknown]> =
      value instanceof Map ? [...value.entries()].map(([k, v]) => [String(k), v]) : value instanceof Set ? [...value].map((v) => ['', v]) : Object.entries(value);
    for (const [k, v] of entries) visit(v, k);
    // Map and Set contents cannot be frozen; their owners expose them read-only (ReadonlyMap, ReadonlySet).
    Object.freeze(value);
  };
  visit(root, '');
  return root;
}

function validate(registry: Registry): void {
  for (const meta of registry.models) {
    for (const name of meta.brief) {
      if (!meta.field(name)) throw new RegistryError(`${meta.label}: brief field ${name} is not a field`);
    }
    for (const entry of meta.options.search ?? []) {
      let m: ModelMeta | undefined = meta;
      const names = entry.split('.');
      for (const [i, name] of names.entries()) {
        const f: FieldMeta | undefined = m?.field(name);
        const reverse: ReverseRelation | undefined = i < names.length - 1 && !f ? m?.reverse.find((r) => reverseName(r) === name) : undefined;
        if (reverse) {
          m = reverse.model;
          continue;
        }
        if (!f || (i < names.length - 1 && !(f.target && f.column))) throw new RegistryError(`${meta.label}: search field ${entry} is not a field`);
        m = f.target;
      }
    }
    for (const entry of meta.options.ordering ?? []) {
      const path = entry.replace(/^-/, '').split('.');
      let m: ModelMeta | undefined = meta;
      for (const [i, seg] of path.entries()) {
        const f: FieldMeta | undefined = m?.field(seg);
        if (!f) throw new RegistryError(`${meta.label}: ordering ${entry} names unknown field ${seg}`);
        m = i < path.length - 1 ? f.target : undefined;
      }
    }
    const display = meta.display;
    const displayFields = typeof display === 'string' ? [display] : [...display.fields, ...Object.values(display.objects ?? {}).flatMap((o) => [o.type, o.id])];
    for (const p of displayFields) {
      if (!meta.field(p.split('.')[0])) throw new RegistryError(`${meta.label}: display uses unknown field ${p}`);
    }
    for (const feature of meta.features) {
      if (feature === 'tags' && !registry.providers.tags) {
        throw new RegistryError(`${meta.label} uses tags but no application provides them`);
      }
    }
  }
}
