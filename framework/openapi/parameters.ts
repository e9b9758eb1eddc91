import type { OpenApiSchema } from '../fields/kind';
import { filterSetFor, type FilterDef } from '../filterset/filterset';
import type { ModelMeta } from '../metadata/model-meta';
import { SUPPORTED_VERSIONS, type ApiVersion } from '../versioning/version';

const VALUE_SCHEMAS: Record<FilterDef['type'], OpenApiSchema> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  'date-time': { type: 'string', format: 'date-time' },
  uuid: { type: 'string', format: 'uuid' },
};

/**
 * Each filter of the model's filter set (with its generated lookups), as a query parameter, and
 * the filters features add in this request (`cf_<name>`, `cr_<slug>__peer`).
 */
export function filterParameters(model: ModelMeta, featureFilters: readonly FilterDef[] = []): OpenApiSchema[] {
  const out: OpenApiSchema[] = [];
  const own = [...filterSetFor(model).filters.values()];
  const defs = [...own, ...featureFilters.filter((f) => !filterSetFor(model).filters.has(f.name))];
  for (const def of defs.sort((a, b) => a.name.localeCompare(b.name))) {
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

/**
 * `include` and `exclude` where the model has keys they show or hide on reads (Nautobot's
 * opt-in `relationships` and `computed_fields`, opt-out `config_context`).
 */
export function renderParameters(model: ModelMeta, version: ApiVersion): OpenApiSchema[] {
  const byName = new Map<string, { effect: 'show' | 'hide'; fields: string[] }>();
  for (const f of model.fields) {
    if (f.hidden || !f.inVersion(version)) continue;
    for (const { name, effect } of f.kind.queryParamEffects?.(f) ?? []) {
      const entry = byName.get(name) ?? { effect, fields: [] };
      entry.fields.push(`\`${f.name}\``);
      byName.set(name, entry);
    }
  }
  return [...byName.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, { effect, fields }]) => ({
    name,
    in: 'query',
    required: false,
    description: effect === 'show'
      ? `Keys to add to the objects: ${fields.join(', ')} (write responses always carry them). One value is matched as text (\`${name}=${fields.map((f) => f.slice(1, -1)).join(',')}\`); repeated values must each name a key.`
      : `Keys to leave out of the objects: ${fields.join(', ')}; the last value is matched as text.`,
    schema: { type: 'string' },
  }));
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
