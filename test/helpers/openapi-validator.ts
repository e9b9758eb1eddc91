/**
 * Checks a document against the rules of OpenAPI 3.0.3 that a generator can break: the fixed
 * fields of each object, schema keywords, parameters against path templates, unique operation
 * ids, responses, security requirements and that every `$ref` resolves. Returns the problems as
 * `<JSON pointer>: <message>` lines, none for a valid document.
 *
 * When the Python package openapi-spec-validator is installed (it is on the project's machines),
 * `externalValidation` runs it too, as a second, independent opinion.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

type Obj = Record<string, unknown>;

const ROOT_KEYS = new Set(['openapi', 'info', 'servers', 'paths', 'components', 'security', 'tags', 'externalDocs']);
const PATH_ITEM_KEYS = new Set(['$ref', 'summary', 'description', 'get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'servers', 'parameters']);
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const OPERATION_KEYS = new Set(['tags', 'summary', 'description', 'externalDocs', 'operationId', 'parameters', 'requestBody', 'responses', 'callbacks', 'deprecated', 'security', 'servers']);
const PARAMETER_KEYS = new Set(['name', 'in', 'description', 'required', 'deprecated', 'allowEmptyValue', 'style', 'explode', 'allowReserved', 'schema', 'example', 'examples', 'content']);
const SCHEMA_KEYS = new Set([
  'title', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern',
  'maxItems', 'minItems', 'uniqueItems', 'maxProperties', 'minProperties', 'required', 'enum', 'type', 'allOf', 'oneOf',
  'anyOf', 'not', 'items', 'properties', 'additionalProperties', 'description', 'format', 'default', 'nullable',
  'discriminator', 'readOnly', 'writeOnly', 'xml', 'externalDocs', 'example', 'deprecated',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
const COMPONENT_SECTIONS = new Set(['schemas', 'responses', 'parameters', 'examples', 'requestBodies', 'headers', 'securitySchemes', 'links', 'callbacks']);

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

class Checker {
  readonly problems: string[] = [];
  private readonly operationIds = new Map<string, string>();
  constructor(private readonly doc: Obj) {}

  fail(at: string, message: string): void {
    this.problems.push(`${at || '/'}: ${message}`);
  }

  resolve(ref: string): unknown {
    if (!ref.startsWith('#/')) return undefined;
    let node: unknown = this.doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObj(node) || !(key in node)) return undefined;
      node = node[key];
    }
    return node;
  }

  keys(at: string, o: Obj, allowed: Set<string>): void {
    for (const k of Object.keys(o)) if (!allowed.has(k) && !k.startsWith('x-')) this.fail(at, `unknown field ${k}`);
  }

  /** A `$ref` must resolve and, in 3.0, stand alone. */
  reference(at: string, o: Obj): boolean {
    if (!('$ref' in o)) return false;
    if (typeof o.$ref !== 'string' || this.resolve(o.$ref) === undefined) this.fail(at, `unresolved $ref ${String(o.$ref)}`);
    if (Object.keys(o).length > 1) this.fail(at, 'a $ref object takes no other fields');
    return true;
  }

  schema(at: string, s: unknown): void {
    if (!isObj(s)) return this.fail(at, 'schema must be an object');
    if (this.reference(at, s)) return;
    this.keys(at, s, SCHEMA_KEYS);
    if (s.type !== undefined && (typeof s.type !== 'string' || !TYPES.has(s.type))) this.fail(at, `invalid type ${JSON.stringify(s.type)}`);
    if (s.type === 'array' && s.items === undefined) this.fail(at, 'an array schema needs items');
    if (s.items !== undefined) this.schema(`${at}/items`, s.items);
    for (const k of ['allOf', 'oneOf', 'anyOf'] as const) {
      if (s[k] === undefined) continue;
      const list = s[k];
      if (!Array.isArray(list) || list.length === 0) this.fail(`${at}/${k}`, 'must be a non-empty array');
      else list.forEach((item, i) => this.schema(`${at}/${k}/${i}`, item));
    }
    if (s.not !== undefined) this.schema(`${at}/not`, s.not);
    if (s.properties !== undefined) {
      if (!isObj(s.properties)) this.fail(`${at}/properties`, 'must be an object');
      else for (const [k, v] of Object.entries(s.properties)) this.schema(`${at}/properties/${escapePointer(k)}`, v);
    }
    if (s.additionalProperties !== undefined && typeof s.additionalProperties !== 'boolean') this.schema(`${at}/additionalProperties`, s.additionalProperties);
    if (s.required !== undefined) {
      const r = s.required;
      if (!Array.isArray(r) || r.length === 0 || r.some((x) => typeof x !== 'string') || new Set(r).size !== r.length) {
        this.fail(`${at}/required`, 'must be a non-empty array of unique strings');
      } else if (isObj(s.properties)) {
        for (const name of r as string[]) if (!(name in s.properties)) this.fail(`${at}/required`, `${name} is required but not a property`);
      }
    }
    if (s.enum !== undefined && (!Array.isArray(s.enum) || s.enum.length === 0)) this.fail(`${at}/enum`, 'must be a non-empty array');
    if (s.readOnly === true && s.writeOnly === true) this.fail(at, 'readOnly and writeOnly together');
    for (const k of ['nullable', 'readOnly', 'writeOnly', 'uniqueItems', 'deprecated'] as const) {
      if (s[k] !== undefined && typeof s[k] !== 'boolean') this.fail(`${at}/${k}`, 'must be a boolean');
    }
    for (const k of ['maxLength', 'minLength', 'maxItems', 'minItems'] as const) {
      if (s[k] !== undefined && !(Number.isInteger(s[k]) && (s[k] as number) >= 0)) this.fail(`${at}/${k}`, 'must be a non-negative integer');
    }
    if (typeof s.pattern === 'string') {
      try {
        new RegExp(s.pattern, 'u');
      } catch {
        this.fail(`${at}/pattern`, 'not a valid regular expression');
      }
    }
  }

  content(at: string, c: unknown): void {
    if (!isObj(c) || Object.keys(c).length === 0) return this.fail(at, 'content must map media types to media type objects');
    for (const [type, media] of Object.entries(c)) {
      const where = `${at}/${escapePointer(type)}`;
      if (!isObj(media)) this.fail(where, 'must be an object');
      else {
        this.keys(where, media, new Set(['schema', 'example', 'examples', 'encoding']));
        if (media.schema !== undefined) this.schema(`${where}/schema`, media.schema);
      }
    }
  }

  parameter(at: string, p: unknown): Obj | null {
    if (!isObj(p)) {
      this.fail(at, 'parameter must be an object');
      return null;
    }
    if ('$ref' in p) {
      this.reference(at, p);
      const target = typeof p.$ref === 'string' ? this.resolve(p.$ref) : undefined;
      return isObj(target) ? target : null;
    }
    this.keys(at, p, PARAMETER_KEYS);
    if (typeof p.name !== 'string' || p.name === '') this.fail(at, 'parameter needs a name');
    if (!['query', 'header', 'path', 'cookie'].includes(String(p.in))) this.fail(at, `invalid in ${String(p.in)}`);
    if (p.in === 'path' && p.required !== true) this.fail(at, 'path parameters must be required');
    if ((p.schema === undefined) === (p.content === undefined)) this.fail(at, 'parameter needs exactly one of schema and content');
    if (p.schema !== undefined) this.schema(`${at}/schema`, p.schema);
    if (p.style !== undefined && !['form', 'simple', 'matrix', 'label', 'spaceDelimited', 'pipeDelimited', 'deepObject'].includes(String(p.style))) this.fail(at, 'invalid style');
    return p;
  }

  responses(at: string, r: unknown): void {
    if (!isObj(r) || Object.keys(r).length === 0) return this.fail(at, 'responses must have at least one entry');
    for (const [code, response] of Object.entries(r)) {
      const where = `${at}/${code}`;
      if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(code)) this.fail(where, 'not a status code');
      if (!isObj(response)) {
        this.fail(where, 'must be an object');
        continue;
      }
      if (this.reference(where, response)) continue;
      this.keys(where, response, new Set(['description', 'headers', 'content', 'links']));
      if (typeof response.description !== 'string') this.fail(where, 'response needs a description');
      if (response.content !== undefined) this.content(`${where}/content`, response.content);
    }
  }

  security(at: string, s: unknown): void {
    const schemes = isObj(this.doc.components) && isObj((this.doc.components as Obj).securitySchemes) ? ((this.doc.components as Obj).securitySchemes as Obj) : {};
    if (!Array.isArray(s)) return this.fail(at, 'security must be an array');
    s.forEach((req, i) => {
      if (!isObj(req)) return this.fail(`${at}/${i}`, 'must be an object');
      for (const name of Object.keys(req)) if (!(name in schemes)) this.fail(`${at}/${i}`, `unknown security scheme ${name}`);
    });
  }

  operation(at: string, op: unknown, pathParams: Obj[], template: string[]): void {
    if (!isObj(op)) return this.fail(at, 'operation must be an object');
    this.keys(at, op, OPERATION_KEYS);
    if (op.operationId !== undefined) {
      const id = String(op.operationId);
      const seen = this.operationIds.get(id);
      if (seen) this.fail(at, `operationId ${id} also used at ${seen}`);
      this.operationIds.set(id, at);
    }
    const own = Array.isArray(op.parameters) ? op.parameters.map((p, i) => this.parameter(`${at}/parameters/${i}`, p)).filter(isObj) : [];
    if (op.parameters !== undefined && !Array.isArray(op.parameters)) this.fail(`${at}/parameters`, 'must be an array');
    const seen = new Set<string>();
    for (const p of own) {
      const key = `${String(p.in)}:${String(p.name)}`;
      if (seen.has(key)) this.fail(`${at}/parameters`, `duplicate parameter ${key}`);
      seen.add(key);
    }
    const all = [...own, ...pathParams.filter((p) => !seen.has(`${String(p.in)}:${String(p.name)}`))];
    const declared = all.filter((p) => p.in === 'path').map((p) => String(p.name)).sort();
    if (JSON.stringify(declared) !== JSON.stringify([...template].sort())) {
      this.fail(at, `path parameters ${JSON.stringify(declared)} do not match the template's ${JSON.stringify(template)}`);
    }
    if (op.requestBody !== undefined) {
      const body = op.requestBody;
      if (!isObj(body)) this.fail(`${at}/requestBody`, 'must be an object');
      else if (!this.reference(`${at}/requestBody`, body)) this.content(`${at}/requestBody/content`, body.content);
    }
    this.responses(`${at}/responses`, op.responses);
    if (op.security !== undefined) this.security(`${at}/security`, op.security);
  }

  run(): void {
    const d = this.doc;
    this.keys('', d, ROOT_KEYS);
    if (typeof d.openapi !== 'string' || !/^3\.0\.\d+$/.test(d.openapi)) this.fail('/openapi', 'must be 3.0.x');
    if (!isObj(d.info) || typeof d.info.title !== 'string' || typeof d.info.version !== 'string') this.fail('/info', 'needs title and version');
    if (!isObj(d.paths)) return this.fail('/paths', 'required');
    const templates = new Map<string, string>();
    for (const [p, item] of Object.entries(d.paths)) {
      const at = `/paths/${escapePointer(p)}`;
      if (!p.startsWith('/')) this.fail(at, 'path must start with /');
      // Paths that differ only in parameter names are the same path.
      const shape = p.replace(/\{[^}]+\}/g, '{}');
      if (templates.has(shape)) this.fail(at, `same template as ${templates.get(shape)}`);
      templates.set(shape, p);
      if (!isObj(item)) {
        this.fail(at, 'path item must be an object');
        continue;
      }
      this.keys(at, item, PATH_ITEM_KEYS);
      const template = [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const pathParams = Array.isArray(item.parameters) ? item.parameters.map((x, i) => this.parameter(`${at}/parameters/${i}`, x)).filter(isObj) : [];
      for (const method of METHODS) if (item[method] !== undefined) this.operation(`${at}/${method}`, item[method], pathParams, template);
    }
    if (d.components !== undefined) {
      if (!isObj(d.components)) this.fail('/components', 'must be an object');
      else {
        this.keys('/components', d.components, COMPONENT_SECTIONS);
        for (const [section, entries] of Object.entries(d.components)) {
          if (!isObj(entries)) continue;
          for (const [name, value] of Object.entries(entries)) {
            const at = `/components/${section}/${escapePointer(name)}`;
            if (!/^[a-zA-Z0-9.\-_]+$/.test(name)) this.fail(at, 'invalid component name');
            if (section === 'schemas') this.schema(at, value);
            if (section === 'responses') this.responses(`/components/${section}`, { '200': value });
            if (section === 'securitySchemes') {
              const s = value as Obj;
              if (s.type === 'apiKey' && (typeof s.name !== 'string' || !['query', 'header', 'cookie'].includes(String(s.in)))) this.fail(at, 'apiKey needs name and in');
              if (!['apiKey', 'http', 'oauth2', 'openIdConnect'].includes(String(s.type))) this.fail(at, 'invalid security scheme type');
            }
          }
        }
      }
    }
    if (d.security !== undefined) this.security('/security', d.security);
    // Any $ref anywhere must resolve.
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) node.forEach((v, i) => walk(v, `${at}/${i}`));
      else if (isObj(node)) {
        if (typeof node.$ref === 'string' && this.resolve(node.$ref) === undefined) this.fail(at, `unresolved $ref ${node.$ref}`);
        for (const [k, v] of Object.entries(node)) walk(v, `${at}/${escapePointer(k)}`);
      }
    };
    walk(d, '');
  }
}

export function validateOpenApi(doc: unknown): string[] {
  if (!isObj(doc)) return ['/: the document must be an object'];
  const checker = new Checker(doc);
  checker.run();
  return [...new Set(checker.problems)];
}

/** Whether `python3 -m openapi_spec_validator` can run here. */
export function externalValidatorAvailable(): boolean {
  const probe = spawnSync('python3', ['-c', 'import openapi_spec_validator'], { encoding: 'utf8' });
  return probe.status === 0;
}

/** openapi-spec-validator's verdict on the document: its output, or null when it is valid. */
export function externalValidation(doc: unknown): string | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-openapi-'));
  const file = path.join(dir, 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  try {
    // The validator takes minutes on a loaded two-core machine; a kill must read as one, not as
    // an empty verdict.
    const run = spawnSync('python3', ['-m', 'openapi_spec_validator', file], { encoding: 'utf8', timeout: 900_000 });
    if (run.signal) return `openapi-spec-validator was stopped by ${run.signal} (timeout ${run.error ? String(run.error) : ''})`;
    return run.status === 0 ? null : `${run.stdout}\n${run.stderr}`.trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
