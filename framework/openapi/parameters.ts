import type { OpenApiSchema } from '../fields/kind';
import { filterSetFor, type FilterDef } from '../filterset/filterset';
import type { ModelMeta } from '../metadata/model-meta';
import { SUPPORTED_VERSIONS } from '../versioning/version';

const VALUE_SCHEMAS: Record<FilterDef['type'], OpenApiSchema> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  'date-time': { type: 'string', format: 'date-time' },
  uuid: { type: 'string', format: 'uuid' },
};

/** Each filter of the model's filter set (with its generated lookups), as a query parameter. */
export function filterParameters(model: ModelMeta): OpenApiSchema[] {
  const out: OpenApiSchema[] = [];
  for (const def of [...filterSetFor(model).filters.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const value = VALUE_SCHEMAS[def.type];
    // Repeatable filters take several values (`?status=active&status=planned`): OR, or AND for tags.
    const repeated = def.multiple !== 'last';
    const parameter: OpenApiSchema = {
      name: def.name,
      in: 'query',
      required: false,
      schema: repeated ? { type: 'array', items: value } : value,
    };
    if (repeated) {
      parameter.style = 'form';
      parameter.explode = true;
    }
    const help = def.help ?? (def.multiple === 'and' ? 'Repeat to require every value' : undefined);
    if (help) parameter.description = help;
    out.push(parameter);
  }
  return out;
}

/** `limit` and `offset`, as the paginator reads them. */
export function paginationParameters(): OpenApiSchema[] {
  return [
    { name: 'limit', in: 'query', required: false, description: 'Number of results to return per page.', schema: { type: 'integer' } },
    { name: 'offset', in: 'query', required: false, description: 'The initial index from which to return the results.', schema: { type: 'integer' } },
  ];
}

/** `?brief=`: the nested form instead of the full representation. */
export function briefParameter(): OpenApiSchema {
  return { name: 'brief', in: 'query', required: false, description: 'Return the brief (nested) form of each object.', schema: { type: 'boolean' } };
}

/** `?api_version=`, accepted by every endpoint. */
export function versionParameter(): OpenApiSchema {
  return {
    name: 'api_version',
    in: 'query',
    required: false,
    description: 'API version; the `version` parameter of the Accept header does the same.',
    schema: { type: 'string', enum: SUPPORTED_VERSIONS.map(String) },
  };
}

/** The `{id}` of a detail route. */
export function idParameter(model: ModelMeta): OpenApiSchema {
  return {
    name: 'id',
    in: 'path',
    required: true,
    description: `A ${model.integerPk ? 'unique integer value' : 'UUID string'} identifying this ${model.verboseName}.`,
    schema: model.integerPk ? { type: 'integer' } : { type: 'string', format: 'uuid' },
  };
}
