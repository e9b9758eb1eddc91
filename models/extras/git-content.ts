import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  FieldError,
  ValidationError,
  fieldTest,
  and,
  ormFilter,
  pyRepr,
  slugify,
  type FieldMeta,
  type Id,
  type JobLogLevel,
  type JobLogLine,
  type Json,
  type JsonObject,
  type ModelClass,
  type Registry,
  type Store,
  type Values,
} from '../../framework';
import { Device } from '../dcim/device';
import { DeviceRole } from '../dcim/device-role';
import { DeviceType } from '../dcim/device-type';
import { Platform } from '../dcim/platform';
import { Region } from '../dcim/region';
import { Site } from '../dcim/site';
import { Tenant } from '../tenancy/tenant';
import { TenantGroup } from '../tenancy/tenant-group';
import { Cluster } from '../virtualization/cluster';
import { ClusterGroup } from '../virtualization/cluster-group';
import { VirtualMachine } from '../virtualization/virtual-machine';
import { ConfigContext, ConfigContextSchema } from './config-context';
import { DynamicGroup } from './dynamic-group';
import { ExportTemplate } from './export-template';
import { Tag } from './tag';

/**
 * What a Git repository provides, loaded as Nautobot 1.6 loads it (nautobot/extras/datasources/
 * git.py): the layout, the `_metadata` keys, the log lines. Records carry the repository as their
 * owner; a sync creates, refreshes and deletes only what it owns.
 */

export const OWNER_TYPE = 'extras.gitrepository';

/** Files larger than this are refused (a config context is data, not a dump). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** A problem with one file or record: logged as a failure, the sync goes on to report the others. */
export class ContentError extends Error {}

/** The repository whose content is refreshed. */
export interface Owner {
  readonly id: Id;
  readonly name: string;
}

/** How records are written: through the API's validation and change log (a sync's job context, a delete's write). */
export interface ContentWriter {
  readonly store: Store;
  create(cls: ModelClass, body: Record<string, unknown>): Promise<Id>;
  update(cls: ModelClass, id: Id, body: Record<string, unknown>): Promise<void>;
  remove(cls: ModelClass, ids: Id[]): Promise<void>;
  /** Clears a device's or VM's local context data and its owner. */
  clearLocalContext(cls: ModelClass, id: Id): Promise<void>;
}

/** The log of the job result a sync or a delete writes, counting failures. */
export class SyncLog {
  failures = 0;

  constructor(private readonly write: (line: JobLogLine) => Promise<void>) {}

  async log(level: JobLogLevel, message: string, grouping = 'main', obj?: string | null): Promise<void> {
    if (level === 'failure') this.failures++;
    await this.write({ level, message, grouping: grouping.slice(0, 100), log_object: obj ? obj.slice(0, 200) : null, absolute_url: null });
  }
}

export interface ContentEnv {
  readonly registry: Registry;
  readonly owner: Owner;
  readonly writer: ContentWriter;
  readonly log: SyncLog;
  readonly signal?: AbortSignal;
}

/** Python's str() of an exception, for the failure lines. */
export function errorText(err: unknown): string {
  if (err instanceof ValidationError) return pyRepr(err.detail);
  if (err instanceof FieldError) return err.messages.join(' ');
  return err instanceof Error ? err.message : String(err);
}

/** Unexpected errors (the database's) end the sync; rule violations are failures of one file. */
function isContentProblem(err: unknown): boolean {
  return err instanceof ContentError || err instanceof ValidationError || err instanceof FieldError;
}

// -- Files ------------------------------------------------------------------------------------

function isDirectory(p: string): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
}

/** Entry names of a directory, sorted (Nautobot takes the file system's order). */
function entries(dir: string): string[] {
  return isDirectory(dir) ? fs.readdirSync(dir).sort() : [];
}

/** A file's text: a regular file of the checkout, never a link to elsewhere. */
function readText(file: string): string {
  const stat = fs.lstatSync(file);
  if (stat.isSymbolicLink()) throw new ContentError(`${path.basename(file)} is a symbolic link, which is not read`);
  if (stat.isDirectory()) throw new ContentError(`[Errno 21] Is a directory: '${path.basename(file)}'`);
  if (!stat.isFile()) throw new ContentError(`${path.basename(file)} is not a regular file`);
  if (stat.size > MAX_FILE_BYTES) throw new ContentError(`${path.basename(file)} is larger than ${MAX_FILE_BYTES} bytes`);
  return fs.readFileSync(file, 'utf8');
}

/** JSON a database column can hold: YAML dates as text, no NaN, sets or binary values. */
function toJson(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ContentError(`${String(value)} is not a JSON value`);
    return value;
  }
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (Array.isArray(value)) return value.map(toJson);
  if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = toJson(v);
    return out;
  }
  throw new ContentError(`a ${(value as object).constructor?.name ?? 'value'} is not a JSON value`);
}

/** A data file, JSON or YAML (PyYAML's safe_load reads both; YAML 1.1, repeated keys allowed, the last wins). */
function readData(file: string): Json {
  const text = readText(file);
  try {
    return JSON.parse(text) as Json;
  } catch {
    /* not JSON: YAML */
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { version: '1.1', uniqueKeys: false, maxAliasCount: 100, prettyErrors: false });
  } catch (err) {
    throw new ContentError((err as Error).message.split('\n')[0]);
  }
  return toJson(parsed);
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Python's == on JSON values: key order does not count. */
function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value ?? null);
}

function sameIds(a: unknown, b: unknown): boolean {
  return canonical([...((a as Id[] | undefined) ?? [])].sort()) === canonical([...((b as Id[] | undefined) ?? [])].sort());
}

function ownedBy(registry: Registry, cls: ModelClass, owner: Owner) {
  const model = registry.forClass(cls);
  return and([fieldTest(model.field('owner_content_type') as FieldMeta, 'exact', [OWNER_TYPE]), fieldTest(model.field('owner_object_id') as FieldMeta, 'exact', [owner.id])]);
}

function localOwnedBy(registry: Registry, cls: ModelClass, owner: Owner) {
  const model = registry.forClass(cls);
  return and([
    fieldTest(model.field('local_context_data_owner_content_type') as FieldMeta, 'exact', [OWNER_TYPE]),
    fieldTest(model.field('local_context_data_owner_object_id') as FieldMeta, 'exact', [owner.id]),
  ]);
}

function stopIfAborted(env: ContentEnv): void {
  if (env.signal?.aborted) throw new Error(`The sync was stopped: ${String(env.signal.reason ?? 'aborted')}`);
}

// -- Config context schemas -------------------------------------------------------------------

const SCHEMAS = 'config context schemas';

async function refreshSchemas(env: ContentEnv, root: string | null): Promise<void> {
  const preserve = new Set<string>();
  if (root) {
    const dir = path.join(root, 'config_context_schemas');
    const owned = new Map((await env.writer.store.find(ConfigContextSchema, ownedBy(env.registry, ConfigContextSchema, env.owner))).map((r) => [String(r.name), r]));
    for (const file of entries(dir)) {
      if (!isFile(path.join(dir, file)) && !fs.lstatSync(path.join(dir, file)).isSymbolicLink()) continue;
      stopIfAborted(env);
      await env.log.log('default', `Loading config context schema from \`${file}\``, SCHEMAS);
      try {
        const data = readData(path.join(dir, file));
        const items = Array.isArray(data) ? data : isObject(data) ? [data] : null;
        if (!items) throw new ContentError('data must be a dict or a list of dicts');
        for (const item of items) {
          if (!isObject(item)) throw new ContentError('each item in list data must be a dict');
          preserve.add(await importSchema(env, item, owned));
        }
      } catch (err) {
        if (!isContentProblem(err)) throw err;
        await env.log.log('failure', `Error in loading config context schema data from \`${file}\`: ${errorText(err)}`, SCHEMAS);
      }
    }
  }
  const stale = (await env.writer.store.find(ConfigContextSchema, ownedBy(env.registry, ConfigContextSchema, env.owner))).filter((r) => !preserve.has(String(r.name)));
  for (const record of stale) {
    await env.writer.remove(ConfigContextSchema, [record.id as Id]);
    await env.log.log('warning', `Deleted config context schema [${env.owner.name}] ${String(record.name)}`, SCHEMAS);
  }
}

async function importSchema(env: ContentEnv, data: JsonObject, owned: Map<string, Values>): Promise<string> {
  const metadata = data._metadata;
  if (!isObject(metadata)) throw new ContentError('data is missing the required `_metadata` key.');
  if (metadata.name === undefined || metadata.name === null) throw new ContentError('data `_metadata` is missing the required `name` key.');
  if (!('data_schema' in data)) throw new ContentError("'data_schema'");
  const name = String(metadata.name);
  const description = metadata.description === undefined ? '' : String(metadata.description ?? '');
  const display = `[${env.owner.name}] ${name}`;
  const current = owned.get(name);
  if (!current) {
    const id = await env.writer.create(ConfigContextSchema, {
      name,
      slug: slugify(name),
      owner_content_type: OWNER_TYPE,
      owner_object_id: env.owner.id,
      description,
      data_schema: data.data_schema,
    });
    owned.set(name, { id, name, description, data_schema: data.data_schema });
    await env.log.log('success', 'Successfully created config context schema', SCHEMAS, display);
    return name;
  }
  const changes: Record<string, unknown> = {};
  if (current.description !== description) changes.description = description;
  if (!sameJson(current.data_schema, data.data_schema)) changes.data_schema = data.data_schema;
  if (Object.keys(changes).length) {
    await env.writer.update(ConfigContextSchema, current.id as Id, changes);
    Object.assign(current, changes);
    await env.log.log('success', 'Successfully refreshed config context schema', SCHEMAS, display);
  } else await env.log.log('info', 'No change to config context schema', SCHEMAS, display);
  return name;
}

// -- Config contexts ----------------------------------------------------------------------------

const CONTEXTS = 'config contexts';
const LOCAL_CONTEXTS = 'local config contexts';

/**
 * Assignment keys of `_metadata` (and `config_contexts/<key>/<slug>` directories) with the model
 * their attribute objects select. `locations` is Nautobot's too, but netinv's config contexts
 * have no location assignment.
 */
const ASSIGNMENTS: ReadonlyArray<readonly [string, ModelClass | null]> = [
  ['regions', Region],
  ['sites', Site],
  ['locations', null],
  ['device_types', DeviceType],
  ['roles', DeviceRole],
  ['platforms', Platform],
  ['cluster_groups', ClusterGroup],
  ['clusters', Cluster],
  ['tenant_groups', TenantGroup],
  ['tenants', Tenant],
  ['tags', Tag],
  ['dynamic_groups', DynamicGroup],
];

const LOCAL_TYPES: ReadonlyArray<readonly [string, ModelClass]> = [
  ['devices', Device],
  ['virtual_machines', VirtualMachine],
];

async function refreshContexts(env: ContentEnv, root: string | null): Promise<void> {
  const preserve = new Set<string>();
  const preserveLocal = new Map<string, Set<string>>(LOCAL_TYPES.map(([t]) => [t, new Set<string>()]));
  if (root) {
    const dir = path.join(root, 'config_contexts');
    const owned = new Map((await env.writer.store.find(ConfigContext, ownedBy(env.registry, ConfigContext, env.owner))).map((r) => [String(r.name), r]));
    // Flat files: the context's metadata is all in the file.
    for (const file of entries(dir)) {
      const full = path.join(dir, file);
      if (!isFile(full) && !fs.lstatSync(full).isSymbolicLink()) continue;
      stopIfAborted(env);
      await env.log.log('default', `Loading config context from \`${file}\``, CONTEXTS);
      try {
        const data = readData(full);
        if (isObject(data)) preserve.add(await importContext(env, data, owned));
        else if (Array.isArray(data)) for (const item of data) preserve.add(await importContext(env, item, owned));
        else throw new ContentError('data must be a dict or list of dicts');
      } catch (err) {
        if (!isContentProblem(err)) throw err;
        await env.log.log('failure', `Error in loading config context data from \`${file}\`: ${errorText(err)}`, CONTEXTS);
      }
    }
    // `<assignment>/<slug>.(json|yaml)`: a context assigned to the object of that slug.
    for (const [filterType] of ASSIGNMENTS) {
      if (isDirectory(path.join(root, filterType))) {
        await env.log.log('warning', `Found "${filterType}" directory in the repository root. If this is meant to contain config contexts, it should be moved into a \`config_contexts/\` subdirectory.`, CONTEXTS);
      }
      const sub = path.join(dir, filterType);
      for (const file of entries(sub)) {
        stopIfAborted(env);
        const slug = path.parse(file).name;
        await env.log.log('default', `Loading config context, filter \`${filterType} = [slug: "${slug}"]\`, from \`${filterType}/${file}\``, CONTEXTS);
        try {
          const data = readData(path.join(sub, file));
          if (!isObject(data)) throw new ContentError(`'${pyTypeOf(data)}' object has no attribute 'setdefault'`);
          const metadata = isObject(data._metadata) ? data._metadata : (data._metadata = {});
          const list = Array.isArray(metadata[filterType]) ? (metadata[filterType] as Json[]) : (metadata[filterType] = []);
          list.push({ slug });
          preserve.add(await importContext(env, data, owned));
        } catch (err) {
          if (!isContentProblem(err)) throw err;
          await env.log.log('failure', `Error in loading config context data from \`${file}\`: ${errorText(err)}`, CONTEXTS);
        }
      }
    }
    // `devices/<name>` and `virtual_machines/<name>`: local context data of that object.
    for (const [localType, cls] of LOCAL_TYPES) {
      if (isDirectory(path.join(root, localType))) {
        await env.log.log('warning', `Found "${localType}" directory in the repository root. If this is meant to contain config contexts, it should be moved into a \`config_contexts/\` subdirectory.`, CONTEXTS);
      }
      const sub = path.join(dir, localType);
      for (const file of entries(sub)) {
        stopIfAborted(env);
        const name = path.parse(file).name;
        await env.log.log('default', `Loading local config context for \`${name}\` from \`${localType}/${file}\``, LOCAL_CONTEXTS);
        try {
          await importLocalContext(env, cls, name, readData(path.join(sub, file)));
          preserveLocal.get(localType)?.add(name);
        } catch (err) {
          if (!isContentProblem(err)) throw err;
          await env.log.log('failure', `Error in loading local config context from \`${localType}/${file}\`: ${errorText(err)}`, LOCAL_CONTEXTS);
        }
      }
    }
  }
  // What this repository owns and no longer provides.
  const stale = (await env.writer.store.find(ConfigContext, ownedBy(env.registry, ConfigContext, env.owner))).filter((r) => !preserve.has(String(r.name)));
  for (const record of stale) {
    await env.writer.remove(ConfigContext, [record.id as Id]);
    await env.log.log('warning', `Deleted config context [${env.owner.name}] ${String(record.name)}`, CONTEXTS);
  }
  for (const [localType, cls] of LOCAL_TYPES) {
    const rows = await env.writer.store.find(cls, localOwnedBy(env.registry, cls, env.owner));
    for (const row of rows.filter((r) => !preserveLocal.get(localType)?.has(String(r.name)))) {
      await env.writer.clearLocalContext(cls, row.id as Id);
      await env.log.log('warning', 'Deleted local config context', LOCAL_CONTEXTS, String(row.name));
    }
  }
}

function pyTypeOf(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'boolean') return 'bool';
  return 'dict';
}

/** The ids `_metadata[key]` selects, one object per attribute object (Nautobot's `objects.get(**data)`). */
async function assigned(env: ContentEnv, key: string, cls: ModelClass | null, raw: unknown, contextName: string): Promise<Id[]> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ContentError(`\`_metadata\` key \`${key}\` must be a list of objects`);
  if (raw.length === 0) return [];
  if (!cls) throw new ContentError(`netinv's config contexts have no \`${key}\` assignment; unable to create/update context ${contextName}`);
  const model = env.registry.forClass(cls);
  const ids: Id[] = [];
  for (const attributes of raw) {
    if (!isObject(attributes)) throw new ContentError(`\`_metadata\` key \`${key}\` must be a list of objects`);
    let found: Values[];
    try {
      found = await env.writer.store.find(model, ormFilter(model, attributes));
    } catch (err) {
      if (err instanceof FieldError) throw new ContentError(`${cls.name}: ${err.message}`);
      throw err;
    }
    if (found.length === 0) throw new ContentError(`No matching ${cls.name} found for ${pyRepr(attributes)}; unable to create/update context ${contextName}`);
    if (found.length > 1) throw new ContentError(`Multiple ${cls.name} found for ${pyRepr(attributes)}; unable to create/update context ${contextName}`);
    ids.push(found[0].id as Id);
  }
  return ids;
}

/** The schema a context names: one of this repository's, else the one schema of that name. */
async function schemaNamed(env: ContentEnv, name: string): Promise<Id | null> {
  const all = await env.writer.store.find(ConfigContextSchema, { name });
  const own = all.filter((s) => s.owner_content_type === OWNER_TYPE && s.owner_object_id === env.owner.id);
  const pick = own.length ? own : all;
  if (pick.length > 1) throw new ContentError(`Multiple ConfigContextSchema found for {'name': ${pyRepr(name)}}`);
  return pick.length ? (pick[0].id as Id) : null;
}

async function importContext(env: ContentEnv, data: Json, owned: Map<string, Values>): Promise<string> {
  if (!isObject(data)) throw new ContentError('each item in list data must be a dict');
  const metadata = data._metadata;
  if (!isObject(metadata)) throw new ContentError('data is missing the required `_metadata` key.');
  if (metadata.name === undefined || metadata.name === null) throw new ContentError('data `_metadata` is missing the required `name` key.');
  const name = String(metadata.name);
  const display = `[${env.owner.name}] ${name}`;
  const relations: Record<string, Id[]> = {};
  for (const [key, cls] of ASSIGNMENTS) relations[key] = await assigned(env, key, cls, metadata[key], name);
  const body: Record<string, unknown> = {
    weight: metadata.weight === undefined ? 1000 : metadata.weight,
    description: metadata.description === undefined ? '' : metadata.description,
    is_active: metadata.is_active === undefined ? true : metadata.is_active,
  };
  let schema: Id | null = null;
  if (metadata.schema) {
    schema = await schemaNamed(env, String(metadata.schema));
    if (!schema) await env.log.log('failure', `ConfigContextSchema ${String(metadata.schema)} does not exist.`, CONTEXTS, display);
  }
  body.schema = schema;
  const { _metadata: _omitted, ...contextData } = data;
  body.data = contextData;
  // Tags are written by slug, the other assignments by id.
  const tagSlugs = relations.tags.length ? (await env.writer.store.find(Tag, relations.tags)).map((t) => String(t.slug)) : [];
  const current = owned.get(name);
  if (!current) {
    const writeBody: Record<string, unknown> = { name, owner_content_type: OWNER_TYPE, owner_object_id: env.owner.id, ...body };
    for (const [key] of ASSIGNMENTS) if (key !== 'locations') writeBody[key] = key === 'tags' ? tagSlugs : relations[key];
    const id = await env.writer.create(ConfigContext, writeBody);
    owned.set(name, { ...(await env.writer.store.get(ConfigContext, id)) } as Values);
    await env.log.log('success', 'Successfully created config context', CONTEXTS, display);
    return name;
  }
  const changes: Record<string, unknown> = {};
  for (const key of ['weight', 'description', 'is_active'] as const) if (!sameJson(current[key], body[key])) changes[key] = body[key];
  if ((current.schema ?? null) !== schema && !(metadata.schema && !schema)) changes.schema = schema;
  if (!sameJson(current.data, contextData)) changes.data = contextData;
  for (const [key] of ASSIGNMENTS) {
    if (key === 'locations' || sameIds(current[key], relations[key])) continue;
    changes[key] = key === 'tags' ? tagSlugs : relations[key];
  }
  if (Object.keys(changes).length) {
    await env.writer.update(ConfigContext, current.id as Id, changes);
    owned.set(name, { ...(await env.writer.store.get(ConfigContext, current.id as Id)) } as Values);
    await env.log.log('success', 'Successfully refreshed config context', CONTEXTS, display);
  } else await env.log.log('info', 'No change to config context', CONTEXTS, display);
  return name;
}

async function importLocalContext(env: ContentEnv, cls: ModelClass, name: string, data: Json): Promise<void> {
  const found = await env.writer.store.find(cls, { name });
  if (found.length > 1) throw new ContentError('multiple records with the same name found; unable to determine which one to apply to!');
  if (found.length === 0) throw new ContentError('record not found!');
  const record = found[0];
  const ownerType = record.local_context_data_owner_content_type ?? null;
  const ownerId = record.local_context_data_owner_object_id ?? null;
  const ownedHere = ownerType === OWNER_TYPE && ownerId === env.owner.id;
  if (ownerType !== null && !ownedHere) {
    const ownerModel = env.registry.get(String(ownerType));
    const other = ownerModel && ownerId ? await env.writer.store.get(ownerModel, ownerId as Id) : null;
    await env.log.log('failure', `DATA CONFLICT: Local context data is owned by another owner, ${String(other?.name ?? `${String(ownerType)} ${String(ownerId)}`)}`, LOCAL_CONTEXTS, name);
    return;
  }
  if (ownedHere && sameJson(record.local_context_data, data)) {
    await env.log.log('info', 'No change to local config context', LOCAL_CONTEXTS, name);
    return;
  }
  await env.writer.update(cls, record.id as Id, { local_context_data: data });
  await env.writer.store.update(cls, record.id as Id, { local_context_data_owner_content_type: OWNER_TYPE, local_context_data_owner_object_id: env.owner.id });
  await env.log.log('success', 'Successfully updated local config context', LOCAL_CONTEXTS, name);
}

// -- Export templates ---------------------------------------------------------------------------

const TEMPLATES = 'export templates';

/** Python's mimetypes.guess_type for the extensions templates use; anything else is text/plain. */
const MIME_TYPES: Record<string, string> = {
  csv: 'text/csv',
  json: 'application/json',
  txt: 'text/plain',
  text: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  xml: 'text/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  md: 'text/markdown',
  js: 'text/javascript',
  css: 'text/css',
  svg: 'image/svg+xml',
  conf: 'text/plain',
  cfg: 'text/plain',
  ini: 'text/plain',
  py: 'text/x-python',
  sh: 'application/x-sh',
  tsv: 'text/tab-separated-values',
};

const ROOT_APPS = ['circuits', 'dcim', 'extras', 'ipam', 'tenancy', 'users', 'virtualization'];

async function refreshTemplates(env: ContentEnv, root: string | null): Promise<void> {
  const preserve = new Map<string, Set<string>>();
  if (root) {
    for (const app of ROOT_APPS) {
      if (isDirectory(path.join(root, app))) {
        await env.log.log('warning', `Found "${app}" directory in the repository root. If this is meant to contain export templates, it should be moved into an \`export_templates/\` subdirectory.`, TEMPLATES);
      }
    }
    const base = path.join(root, 'export_templates');
    const owned = await env.writer.store.find(ExportTemplate, ownedBy(env.registry, ExportTemplate, env.owner));
    const key = (ct: unknown, name: unknown) => `${String(ct)}\u0000${String(name)}`;
    const byKey = new Map(owned.map((r) => [key(r.content_type, r.name), r]));
    for (const app of entries(base)) {
      if (!isDirectory(path.join(base, app))) continue;
      for (const modelName of entries(path.join(base, app))) {
        const modelDir = path.join(base, app, modelName);
        if (!isDirectory(modelDir)) continue;
        const label = `${app}.${modelName}`;
        if (!env.registry.get(label)) {
          await env.log.log('warning', `Skipping \`${label}\` as it isn't a known content type`, TEMPLATES);
          continue;
        }
        for (const file of entries(modelDir)) {
          stopIfAborted(env);
          await env.log.log('default', `Loading \`${label}\` export template from \`${file}\``, TEMPLATES);
          if (!preserve.has(label)) preserve.set(label, new Set());
          preserve.get(label)?.add(file);
          const display = `[${env.owner.name}] ${label.replace('.', ' | ')}: ${file}`;
          try {
            const code = readText(path.join(modelDir, file));
            const dot = file.lastIndexOf('.');
            const extension = dot > 0 ? file.slice(dot + 1) : '';
            const wanted = { template_code: code, mime_type: MIME_TYPES[extension.toLowerCase()] ?? 'text/plain', file_extension: extension };
            const current = byKey.get(key(label, file));
            if (!current) {
              const id = await env.writer.create(ExportTemplate, { content_type: label, name: file, owner_content_type: OWNER_TYPE, owner_object_id: env.owner.id, ...wanted });
              byKey.set(key(label, file), { id, content_type: label, name: file, ...wanted });
              await env.log.log('success', 'Successfully created export template', TEMPLATES, display);
              continue;
            }
            const changes = Object.fromEntries(Object.entries(wanted).filter(([k, v]) => current[k] !== v));
            if (Object.keys(changes).length) {
              await env.writer.update(ExportTemplate, current.id as Id, changes);
              Object.assign(current, changes);
              await env.log.log('success', 'Successfully refreshed export template', TEMPLATES, display);
            } else await env.log.log('info', 'No change to export template', TEMPLATES, display);
          } catch (err) {
            if (!isContentProblem(err)) throw err;
            await env.log.log('failure', errorText(err), TEMPLATES, display);
          }
        }
      }
    }
  }
  const stale = (await env.writer.store.find(ExportTemplate, ownedBy(env.registry, ExportTemplate, env.owner))).filter((r) => !preserve.get(String(r.content_type))?.has(String(r.name)));
  for (const record of stale) {
    await env.writer.remove(ExportTemplate, [record.id as Id]);
    await env.log.log('warning', `Deleted export template [${env.owner.name}] ${String(record.content_type).replace('.', ' | ')}: ${String(record.name)}`, TEMPLATES);
  }
}

// -- Jobs -------------------------------------------------------------------------------------

async function refreshJobs(env: ContentEnv, root: string | null): Promise<void> {
  if (!root) return;
  await env.log.log('warning', 'netinv does not load jobs from Git repositories: the `jobs/` directory is ignored.', 'jobs');
}

/**
 * Each kind of content in Nautobot's order (schemas before the contexts that name them). With
 * `root` the kind's files are loaded from the checkout; without it (the repository does not
 * provide that kind, or is being deleted) everything of the kind it owns is deleted.
 */
export const CONTENT_LOADERS: Readonly<Record<string, (env: ContentEnv, root: string | null) => Promise<void>>> = {
  'extras.configcontextschema': refreshSchemas,
  'extras.configcontext': refreshContexts,
  'extras.job': refreshJobs,
  'extras.exporttemplate': refreshTemplates,
};
