import type { FilterMultiple, FilterValueType } from '../fields/kind';
import type { Predicate } from '../query/predicate';
import type { Executor } from '../store/executor';

export type { FilterValueType };

export interface FilterContext {
  readonly db: Executor;
}

/** What a related-object filter accepts: ids only, or the target's natural key or its id. */
export interface RelatedFilterInfo {
  /** Label of the target model (`dcim.region`). */
  readonly model: string;
  readonly by: 'id' | 'natural' | 'natural-only';
  /** Attribute matched besides (or, for `natural-only`, instead of) the id. */
  readonly naturalKey?: string;
  /** Tree targets: the node's descendants match too. */
  readonly descendants?: boolean;
  /** `null` selects objects without a related one. */
  readonly nullable: boolean;
}

/** One query parameter of a list endpoint. */
export interface FilterDef {
  readonly name: string;
  /** Repeated values: OR (default), AND, or only the last one counts. */
  readonly multiple: FilterMultiple;
  /** Value type, for OpenAPI. */
  readonly type: FilterValueType;
  readonly help?: string;
  /** Field, relation path or filter method the parameter tests; null for `q`. */
  readonly target?: string | null;
  /** Django lookup applied (`exact`, `icontains`, `regex`, `gte`…); `search` for `q`, `method` for @Filter. */
  readonly lookup?: string;
  /** The parameter excludes what the positive lookup selects (`__n`, `__nic`…). */
  readonly negated?: boolean;
  /** Fixed set of accepted values (choice fields). */
  readonly choices?: ReadonlyArray<string | number>;
  readonly related?: RelatedFilterInfo;
  /** What the text names, when more than free text: an IP address (with or without mask) or a network. */
  readonly format?: 'address' | 'network';
  build(values: string[], fc: FilterContext): Predicate | Promise<Predicate>;
}

/** A filter as OPTIONS, the OpenAPI document and generated docs present it. */
export interface FilterDescription {
  readonly name: string;
  readonly target: string | null;
  readonly lookup: string;
  readonly negated: boolean;
  readonly type: FilterValueType;
  readonly multiple: FilterMultiple;
  readonly help: string;
  readonly choices?: ReadonlyArray<string | number>;
  readonly related?: RelatedFilterInfo;
  readonly format?: 'address' | 'network';
}

/** Parsed query parameters: the predicate, and which parameters hold regular expressions. */
export interface ParsedFilters {
  readonly predicate: Predicate;
  /** Parameters whose values are regular expressions (their queries run with a time limit). */
  readonly regexParams: string[];
}
