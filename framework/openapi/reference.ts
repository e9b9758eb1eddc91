/**
 * A Markdown reference of the API, from the same registry and route table as the OpenAPI
 * document: per application and model its endpoints and methods, extra actions, brief form,
 * fields (type, required, read-only, versions), choices and filters with their lookups.
 */
import type { FieldInfo, InfoContext, OpenApiSchema, SchemaContext } from '../fields/kind';
import { filterSetFor, type FilterDescription } from '../filterset/filterset';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { RouteEntry } from '../router/route-table';
import type { ApiVersion } from '../versioning/version';
import { SUPPORTED_VERSIONS } from '../versioning/version';
import { templatePath, type OpenApiSources } from './document';

/** Text for a table cell: pipes escaped, lines joined. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

function code(text: string): string {
  return `\`${text}\``;
}

/** GitHub's anchor of a heading. */
function anchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
}

/** OPTIONS' description of a field, without data from the database. */
function infoOf(field: FieldMeta, version: ApiVersion): FieldInfo {
  const ic: InfoContext = { choicesFor: () => undefined, nestedInfo: () => ({}), version };
  return field.kind.info(field, ic);
}

/** `since 1.4`, `until 1.3` (the last version that has it is the one before). */
function versions(field: FieldMeta): string[] {
  const out: string[] = [];
  if (field.options.since) out.push(`since API ${field.options.since}`);
  if (field.options.until) out.push(`API versions before ${field.options.until} only`);
  return out;
}

/** A short name of an OpenAPI schema: `string (date-time)`, `list of nested object`… */
function schemaType(s: OpenApiSchema): string {
  if (s.$ref || s.allOf || s.oneOf) return 'nested object';
  if (s.type === 'array') return `list of ${schemaType((s.items ?? {}) as OpenApiSchema)}`;
  if (s.type === 'object') return s.properties && 'value' in (s.properties as object) ? 'choice object {value, label}' : 'object';
  if (typeof s.type === 'string') return s.format ? `${s.type} (${String(s.format)})` : s.type;
  return 'any JSON';
}

/** The field's type: OPTIONS' name, or where that is only `field`, its read schema's. */
function typeOf(field: FieldMeta, info: FieldInfo, version: ApiVersion): string {
  if (info.type !== 'field' || !field.kind.schema) return info.type;
  const sc: SchemaContext = { version, nested: () => ({ $ref: 'nested' }), related: () => ({ $ref: 'related' }) };
  return schemaType(field.kind.schema(field, 'read', sc));
}

function fieldRow(field: FieldMeta, version: ApiVersion): string {
  const info = infoOf(field, version);
  const readOnly = field.readOnly || !field.kind.parse;
  let type = typeOf(field, info, version);
  if (field.target) type += ` → ${code(field.target.label)}`;
  const notes: string[] = [];
  if (field.writeOnly) notes.push('write-only');
  if (field.nullable && !readOnly) notes.push('nullable');
  if (info.max_length !== undefined) notes.push(`max length ${info.max_length}`);
  if (info.min_value !== undefined) notes.push(`min ${info.min_value}`);
  if (info.max_value !== undefined) notes.push(`max ${info.max_value}`);
  if (field.kind.loadChoices) notes.push('choices from the database');
  notes.push(...versions(field));
  if (field.options.help) notes.push(field.options.help);
  return `| ${code(field.name)} | ${cell(type)} | ${field.required ? 'yes' : 'no'} | ${readOnly ? 'yes' : 'no'} | ${cell(notes.join('; '))} |`;
}

/** Fields of the model as the API shows or takes them (hidden ones left out), in declaration order. */
function apiFields(model: ModelMeta): FieldMeta[] {
  return model.fields.filter((f) => f.name !== 'id' && !f.hidden);
}

function fieldsSection(model: ModelMeta, version: ApiVersion): string[] {
  const idType = model.integerPk ? 'integer' : 'string (UUID)';
  const rows = [
    '| Field | Type | Required | Read-only | Notes |',
    '|---|---|---|---|---|',
    `| ${code('id')} | ${idType} | no | yes | |`,
    '| `display` | string | no | yes | human friendly display value |',
  ];
  if (model.path !== null) rows.push('| `url` | string (URL) | no | yes | |');
  for (const f of apiFields(model)) rows.push(fieldRow(f, version));
  return rows;
}

function choicesSection(model: ModelMeta, version: ApiVersion): string[] {
  const out: string[] = [];
  for (const f of apiFields(model)) {
    const choices = infoOf(f, version).choices;
    if (!choices?.length) continue;
    const values = choices.map((c) => (String(c.value) === c.display ? code(String(c.value)) : `${code(String(c.value))} (${c.display})`));
    out.push(`- ${code(f.name)}: ${values.join(', ')}`);
  }
  return out;
}

/** A filter and the names of its lookups (`name`, then `name__ic`, `name__n`…), grouped under the base name. */
interface FilterGroup {
  base: FilterDescription;
  suffixes: string[];
}

function filterGroups(model: ModelMeta): FilterGroup[] {
  const all = filterSetFor(model).describe();
  const names = new Set(all.map((f) => f.name));
  const groups = new Map<string, FilterGroup>();
  const pending: FilterDescription[] = [];
  for (const f of all) {
    const cut = f.name.lastIndexOf('__');
    if (cut > 0 && names.has(f.name.slice(0, cut))) pending.push(f);
    else groups.set(f.name, { base: f, suffixes: [] });
  }
  for (const f of pending) {
    const cut = f.name.lastIndexOf('__');
    const group = groups.get(f.name.slice(0, cut));
    if (group) group.suffixes.push(f.name.slice(cut));
    else groups.set(f.name, { base: f, suffixes: [] });
  }
  return [...groups.values()].sort((a, b) => a.base.name.localeCompare(b.base.name));
}

function valueOf(f: FilterDescription): string {
  const type = f.format ?? f.type;
  const repeat = f.multiple === 'last' ? 'one value (the last counts)' : f.multiple === 'and' ? 'repeatable (all must match)' : 'repeatable (any may match)';
  const choices = f.choices?.length ? `; one of ${f.choices.map((c) => code(String(c))).join(', ')}` : '';
  return `${type}, ${repeat}${choices}`;
}

function filtersSection(model: ModelMeta): string[] {
  const rows = ['| Filter | Lookups | Value | Meaning |', '|---|---|---|---|'];
  for (const { base, suffixes } of filterGroups(model)) {
    rows.push(`| ${code(base.name)} | ${suffixes.map(code).join(' ')} | ${cell(valueOf(base))} | ${cell(base.help)} |`);
  }
  return rows;
}

/** `include`/`exclude` and the filters features add per request, where they apply. */
function parametersSection(model: ModelMeta, version: ApiVersion): string[] {
  const out = ['- `limit`, `offset`: pagination of the list; `brief`: the brief form, on reads.'];
  const byName = new Map<string, { effect: 'show' | 'hide'; fields: string[] }>();
  for (const f of model.fields) {
    if (f.hidden || !f.inVersion(version)) continue;
    for (const { name, effect } of f.kind.queryParamEffects?.(f) ?? []) {
      const entry = byName.get(name) ?? { effect, fields: [] };
      entry.fields.push(code(f.name));
      byName.set(name, entry);
    }
  }
  for (const [name, { effect, fields }] of [...byName].sort(([a], [b]) => a.localeCompare(b))) {
    out.push(`- ${code(name)}: ${effect === 'show' ? 'adds' : 'leaves out'} ${fields.join(', ')} on reads.`);
  }
  if (model.features.has('custom_fields')) out.push('- `cf_<name>` and its lookups: one filter per custom field of the model (not for `disabled` filter logic).');
  if (model.features.has('relationships')) out.push('- `cr_<slug>__source`, `__destination`, `__peer`: one filter per relationship side the model is on.');
  return out;
}

function methodsOf(entry: RouteEntry | undefined): string[] {
  return entry ? Object.keys(entry.methods).filter((m) => m !== 'OPTIONS') : [];
}

function modelSection(model: ModelMeta, table: readonly RouteEntry[], version: ApiVersion): string[] {
  const list = table.find((e) => e.kind === 'list' && e.model === model);
  const detail = table.find((e) => e.kind === 'detail' && e.model === model);
  const actions = table.filter((e) => e.kind === 'action' && e.model === model);
  const out = [`### ${model.title}`, ''];
  out.push(`Model ${code(model.label)}.`, '');
  if (list) out.push(`- ${code(`/api${templatePath(list.path)}`)}: ${methodsOf(list).join(', ')}`);
  if (detail) out.push(`- ${code(`/api${templatePath(detail.path)}`)}: ${methodsOf(detail).join(', ')}`);
  for (const a of actions) {
    const described = Object.values(a.methods).map((m) => m?.doc?.description).find((d) => d);
    out.push(`- ${code(`/api${templatePath(a.path)}`)}: ${methodsOf(a).join(', ')}${described ? ` (${cell(described)})` : ''}`);
  }
  out.push(`- Brief form: ${['id', 'display', ...(model.path !== null ? ['url'] : []), ...model.brief].map(code).join(', ')}`, '');
  out.push('#### Fields', '', ...fieldsSection(model, version), '');
  const choices = choicesSection(model, version);
  if (choices.length) out.push('#### Choices', '', ...choices, '');
  out.push('#### Filters', '', ...filtersSection(model), '');
  out.push('Other query parameters:', '', ...parametersSection(model, version), '');
  return out;
}

/**
 * The Markdown reference of every routed model of the registry, grouped by application, fields
 * described as of `version` (each field's own versions noted).
 */
export function buildReference(sources: OpenApiSources, version: ApiVersion = SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.length - 1]): string {
  const { registry, table } = sources;
  const apps = registry.apps.filter((a) => a.models.some((m) => m.path !== null));
  const out = [
    '# API reference',
    '',
    `<!-- Generated by \`npm run gen:docs\` from the model registry; do not edit by hand. -->`,
    '',
    `Every endpoint, field, choice and filter of the REST API, as of API version ${version} (fields that`,
    'enter or leave with a version say so). Request and response bodies are JSON; every endpoint also',
    'takes `api_version` (or `Accept: application/json; version=…`). Filters take the lookups listed',
    'as suffixes (`name__ic=core`); the OpenAPI document at `/api/swagger.json` has the same content',
    'as schemas, plus the filters defined in the database (custom fields, relationships).',
    '',
    '## Contents',
    '',
  ];
  for (const app of apps) {
    const models = app.models.filter((m) => m.path !== null).sort((a, b) => String(a.path).localeCompare(String(b.path)));
    out.push(`- [${app.displayName}](#${anchor(`${app.displayName} /api/${app.urlBase}/`)}): ${models.map((m) => `[${m.path}](#${anchor(m.title)})`).join(', ')}`);
  }
  out.push('');
  for (const app of apps) {
    out.push(`## ${app.displayName} (\`/api/${app.urlBase}/\`)`, '');
    const models = app.models.filter((m) => m.path !== null).sort((a, b) => String(a.path).localeCompare(String(b.path)));
    for (const model of models) out.push(...modelSection(model, table, version));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
