import type { OpenApiSchema, SchemaContext, SchemaMode } from '../fields/kind';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { ApiVersion } from '../versioning/version';

export const REF = '#/components/schemas/';

export function ref(name: string): OpenApiSchema {
  return { $ref: `${REF}${name}` };
}

/**
 * The component schemas of one document. Model schemas are built on first use, so nested forms
 * of models reached only through relations are included and nothing unused is.
 */
export class Components {
  readonly schemas: Record<string, OpenApiSchema> = {};
  private readonly names = new Map<ModelMeta, string>();
  readonly context: SchemaContext;

  constructor(private readonly registry: Registry, readonly version: ApiVersion) {
    const taken = new Map<string, number>();
    for (const m of registry.models) taken.set(m.cls.name, (taken.get(m.cls.name) ?? 0) + 1);
    for (const m of registry.models) {
      // Plugin models may reuse a core class name: those get their application's name in front.
      this.names.set(m, (taken.get(m.cls.name) ?? 0) > 1 ? `${pascal(m.app.label)}${m.cls.name}` : m.cls.name);
    }
    this.context = {
      version,
      nested: (model) => ref(this.nested(model)),
      related: (model) => relatedSchema(model),
    };
  }

  nameOf(model: ModelMeta): string {
    return this.names.get(model) as string;
  }

  private define(name: string, build: () => OpenApiSchema): string {
    if (!(name in this.schemas)) {
      this.schemas[name] = {}; // placeholder: self-referencing models (trees) stop here
      this.schemas[name] = build();
    }
    return name;
  }

  /** A schema of its own under `name` (an extra action's objects), built once. */
  custom(name: string, build: () => OpenApiSchema): string {
    return this.define(name, build);
  }

  /** `Prefix`: the full representation. */
  read(model: ModelMeta): string {
    return this.define(this.nameOf(model), () => objectSchema(model, representedFields(model, this.version, false), 'read', this.context));
  }

  /** `NestedPrefix`: the brief form, also used where other objects embed this one. */
  nested(model: ModelMeta): string {
    return this.define(`Nested${this.nameOf(model)}`, () => objectSchema(model, representedFields(model, this.version, true), 'brief', this.context));
  }

  /** `WritablePrefixRequest` (POST, PUT) or `PatchedWritablePrefixRequest` (PATCH). */
  writable(model: ModelMeta, patched: boolean): string {
    const name = `${patched ? 'Patched' : ''}Writable${this.nameOf(model)}Request`;
    return this.define(name, () => writableSchema(model, this.version, this.context, { patched, withId: false }));
  }

  /** Items of bulk PUT and PATCH: the writable shape plus the required `id`. */
  bulkWritable(model: ModelMeta, patched: boolean): string {
    const name = `${patched ? 'Patched' : ''}BulkWritable${this.nameOf(model)}Request`;
    return this.define(name, () => writableSchema(model, this.version, this.context, { patched, withId: true }));
  }

  /** Items of a bulk DELETE: `{id}`. */
  bulkOperation(model: ModelMeta): string {
    const integer = model.integerPk;
    return this.define(integer ? 'BulkOperationIntegerIDRequest' : 'BulkOperationRequest', () => ({
      type: 'object',
      properties: { id: idSchema(model) },
      required: ['id'],
    }));
  }

  /** `PaginatedPrefixList`: the list envelope. */
  paginated(model: ModelMeta): string {
    const item = this.read(model);
    return this.define(`Paginated${this.nameOf(model)}List`, () => paginatedSchema(ref(item)));
  }

  /** Shared error bodies. */
  errors(): void {
    this.define('Error', () => ({
      type: 'object',
      properties: { detail: { type: 'string' } },
      required: ['detail'],
    }));
    this.define('ValidationError', () => ({
      type: 'object',
      description: 'Messages per field; `non_field_errors` for the object as a whole. Bulk requests answer one such object per item, in request order.',
      additionalProperties: { type: 'array', items: { type: 'string' } },
    }));
    this.define('ServerError', () => ({
      type: 'object',
      properties: { error: { type: 'string' }, exception: { type: 'string' }, netinv_version: { type: 'string' } },
      required: ['error', 'exception', 'netinv_version'],
    }));
  }
}

function pascal(label: string): string {
  return label.split(/[_\-.]/).map((p) => p.charAt(0).toUpperCase() + p.slice(1)).join('');
}

export function paginatedSchema(item: OpenApiSchema): OpenApiSchema {
  return {
    type: 'object',
    properties: {
      count: { type: 'integer', example: 123 },
      next: { type: 'string', format: 'uri', nullable: true },
      previous: { type: 'string', format: 'uri', nullable: true },
      results: { type: 'array', items: item },
    },
    required: ['count', 'next', 'previous', 'results'],
  };
}

function idSchema(model: ModelMeta): OpenApiSchema {
  return model.integerPk ? { type: 'integer' } : { type: 'string', format: 'uuid' };
}

/** A related object on write: its id, or attributes matching exactly one object. */
function relatedSchema(model: ModelMeta): OpenApiSchema {
  return {
    oneOf: [
      idSchema(model),
      { type: 'object', additionalProperties: true, description: `Attributes of exactly one ${model.verboseName}` },
    ],
  };
}

/** Fields of the representation, as the serializer emits them for this version. */
function representedFields(model: ModelMeta, version: ApiVersion, brief: boolean): FieldMeta[] {
  if (brief) {
    return model.brief
      .map((n) => model.field(n) as FieldMeta)
      .filter((f) => f.inVersion(version) && f.kind.nestedForm !== false);
  }
  return model.fields.filter((f) => f.name !== 'id' && !f.hidden && !f.writeOnly && f.inVersion(version));
}

/** Fields a client may send for this version. */
function writableFields(model: ModelMeta, version: ApiVersion): FieldMeta[] {
  return model.fields.filter((f) => f.name !== 'id' && !f.hidden && !f.readOnly && !!f.kind.parse && f.inVersion(version));
}

/** The kind's schema with the field's documentation; a `$ref` is wrapped since it takes no siblings. */
function fieldSchema(field: FieldMeta, mode: SchemaMode, sc: SchemaContext, extra: OpenApiSchema): OpenApiSchema {
  const base = field.kind.schema ? field.kind.schema(field, mode, sc) : {};
  const wrapped = '$ref' in base ? { allOf: [base] } : { ...base };
  const out: OpenApiSchema = { ...wrapped, ...extra };
  if (field.options.label) out.title = field.options.label;
  if (field.options.help && out.description === undefined) out.description = field.options.help;
  return out;
}

function objectSchema(model: ModelMeta, fields: FieldMeta[], mode: SchemaMode, sc: SchemaContext): OpenApiSchema {
  const properties: Record<string, OpenApiSchema> = {
    id: { ...idSchema(model), readOnly: true },
    display: { type: 'string', readOnly: true, description: 'Human friendly display value' },
    url: { type: 'string', format: 'uri', readOnly: true },
  };
  if (model.path === null) delete properties.url;
  for (const f of fields) properties[f.name] = fieldSchema(f, mode, sc, f.readOnly ? { readOnly: true } : {});
  return { type: 'object', properties, required: Object.keys(properties) };
}

function writableSchema(model: ModelMeta, version: ApiVersion, sc: SchemaContext, o: { patched: boolean; withId: boolean }): OpenApiSchema {
  const properties: Record<string, OpenApiSchema> = {};
  const required: string[] = [];
  if (o.withId) {
    properties.id = idSchema(model);
    required.push('id');
  }
  for (const f of writableFields(model, version)) {
    properties[f.name] = fieldSchema(f, 'write', sc, f.writeOnly ? { writeOnly: true } : {});
    if (f.required && !o.patched) required.push(f.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
