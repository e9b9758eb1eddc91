import type { FieldMeta, ModelMeta } from '../metadata/model-meta';
import type { Id } from '../query/id';
import { and, fieldTest, type Predicate } from '../query/predicate';
import type { Executor } from '../store/executor';
import { selectIds } from '../store/rows';
import { buildFilters } from './build';
import type { FilterContext, FilterDef, FilterDescription, ParsedFilters } from './definition';
import { describeFilter } from './describe';
import { filterQuery, parseFilters } from './parse';
import { RESERVED_PARAMS } from './suffixes';

export type { FilterContext, FilterDef, FilterDescription, FilterValueType, ParsedFilters, RelatedFilterInfo } from './definition';
export { RESERVED_PARAMS, SUFFIXES } from './suffixes';
export { searchPath } from './search';
export { filterQuery } from './parse';

/** Every filter of a model, built once from its metadata. */
export class FilterSet {
  readonly filters: Map<string, FilterDef>;
  /** Parameters fields of this model read while rendering (`exclude=config_context`). */
  private readonly fieldParams: Set<string>;

  constructor(readonly model: ModelMeta) {
    this.fieldParams = new Set(model.fields.flatMap((f: FieldMeta) => f.kind.queryParams?.(f) ?? []));
    this.filters = buildFilters(model);
  }

  /** Parameters that are not filters here. */
  reserved(name: string): boolean {
    return RESERVED_PARAMS.has(name) || this.fieldParams.has(name) || (this.model.options.reservedParams ?? []).includes(name);
  }

  /**
   * Turns query parameters into one predicate. Unknown parameters are errors when `strict`; value
   * errors always are; both are reported together, one key per parameter.
   */
  async parse(query: Map<string, string[]>, fc: FilterContext, strict: boolean, extra?: (name: string) => FilterDef | undefined): Promise<Predicate> {
    return (await this.parseQuery(query, fc, strict, extra)).predicate;
  }

  /** As parse, also telling which parameters carry regular expressions. */
  parseQuery(query: Map<string, string[]>, fc: FilterContext, strict: boolean, extra?: (name: string) => FilterDef | undefined): Promise<ParsedFilters> {
    return parseFilters(this, query, fc, strict, extra);
  }

  /**
   * Every filter of the model, in declaration order, with its lookup, value type and a help text:
   * what OPTIONS, the OpenAPI document and generated docs list.
   */
  describe(): FilterDescription[] {
    return [...this.filters.values()].map(describeFilter);
  }
}

/** Filter sets by model, built on first use and kept beside the frozen registry. */
const FILTER_SETS = new WeakMap<ModelMeta, FilterSet>();

export function filterSetFor(model: ModelMeta): FilterSet {
  let set = FILTER_SETS.get(model);
  if (!set) FILTER_SETS.set(model, (set = new FilterSet(model)));
  return set;
}

/**
 * The objects among `ids` that a filter dictionary selects, as the list endpoint would filter
 * them (strict: unknown parameters and bad values are ValidationErrors).
 */
export async function matchingIds(
  db: Executor,
  model: ModelMeta,
  dict: Record<string, unknown>,
  ids: Id[],
  extra?: (name: string) => FilterDef | undefined,
): Promise<Set<Id>> {
  if (ids.length === 0) return new Set();
  const where = await filterSetFor(model).parse(filterQuery(dict), { db }, true, extra);
  return new Set(await selectIds(db, model, and([where, fieldTest(model.pk, 'exact', ids)])));
}
