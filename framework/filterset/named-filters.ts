import { FieldError } from '../errors';
import { booleanFilterValue } from '../fields/boolean';
import { FilterValueError } from '../fields/kind';
import { canonicalUuid } from '../fields/uuid';
import type { ModelMeta } from '../metadata/model-meta';
import { not, TRUE, type Predicate } from '../query/predicate';
import type { FilterContext, FilterDef } from './definition';
import { Predicates } from '../query/orm';

/**
 * A @Filter method: the parsed (last) value, the predicate builder, every parsed value, and the
 * filter context (for a filter whose value names another object to be looked up first).
 */
type NamedFilterMethod = (value: unknown, p: Predicates, values: unknown[], fc: FilterContext) => Predicate | Promise<Predicate>;

/** Named filters declared with @Filter on static methods. */
export function namedFilters(model: ModelMeta): FilterDef[] {
  // `lookups: ['n']` adds `<name>__n`: the objects the plain filter leaves out.
  const variants = (d: ModelMeta['namedFilters'][number]) => [false, ...((d.options.lookups ?? []).includes('n') ? [true] : [])];
  return model.namedFilters.flatMap((d) => variants(d).map((negated): FilterDef => {
    const method = (model.cls as unknown as Record<string, NamedFilterMethod>)[d.method].bind(model.cls);
    const predicates = new Predicates(model);
    return {
      name: negated ? `${d.name}__n` : d.name,
      multiple: d.options.multiple ?? 'last',
      type: d.options.type === 'integer' ? 'integer' : d.options.type === 'boolean' ? 'boolean' : d.options.type === 'uuid' ? 'uuid' : 'string',
      help: d.options.help,
      target: d.method,
      lookup: 'method',
      negated,
      ...(d.options.type === 'address' || d.options.type === 'network' ? { format: d.options.type } : {}),
      async build(values: string[], fc: FilterContext) {
        const parsed = values.map((v) => parseNamedValue(d.options.type, v)).filter((v) => v !== undefined);
        if (parsed.length === 0) return TRUE;
        try {
          const p = await method(parsed[parsed.length - 1], predicates, parsed, fc);
          return negated ? not(p) : p;
        } catch (err) {
          // A model's filter refusing a value reads like any malformed filter value.
          if (err instanceof FieldError) throw new FilterValueError(err.messages.join(' '));
          throw err;
        }
      },
    };
  }));
}

function parseNamedValue(type: string, raw: string): unknown {
  switch (type) {
    case 'integer': {
      if (!/^[-+]?\d+$/.test(raw.trim())) throw new FilterValueError('Enter a whole number.');
      return Number(raw.trim());
    }
    case 'boolean':
      return booleanFilterValue(raw);
    case 'uuid': {
      const id = canonicalUuid(raw);
      if (!id) throw new FilterValueError(`“${raw}” is not a valid UUID.`);
      return id;
    }
    default:
      return raw;
  }
}
