import type { FilterMultiple } from '../fields/kind';
import type { FieldMeta } from '../metadata/model-meta';
import { jsonKeyTest } from '../query/json-key';
import { fieldTest, not, or, TRUE, type Predicate } from '../query/predicate';
import type { FilterDef } from './definition';
import { through, type Step } from './steps';
import { SUFFIXES } from './suffixes';

/** The REST lookup suffixes of a field's generated filters ('' is the plain filter): its own, or its kind's. */
export function fieldLookups(field: FieldMeta): readonly string[] {
  return field.options.lookups === false ? [] : field.options.lookups ?? field.kind.lookups?.(field) ?? [];
}

/** Where the value a filter tests lives, and how its values repeat. */
interface FilterTarget {
  /** The test of the value with one lookup, holding any of the values (all of them for an `and` kind). */
  test(lookup: string, values: unknown[]): Predicate;
  /** The test as one on the filtered model (through related objects). */
  wrap(p: Predicate): Predicate;
  multiple: FilterMultiple;
  help?: string;
}

/**
 * The filter `name` applying `lookup` (negated or not) to a value of `field`'s kind: values parse,
 * type and compare as the kind declares; `target` says where the value is tested.
 */
function lookupFilter(field: FieldMeta, name: string, lookup: string, negated: boolean, target: FilterTarget): FilterDef {
  const { test, wrap, multiple } = target;
  const choices = field.kind.filterChoices?.(field);
  const own = field.kind.lookupValues?.(field, lookup);
  const type = own?.type ?? (choices?.length && choices.every((c) => typeof c === 'number') ? 'integer' : field.kind.filterType ?? 'string');
  return {
    name,
    multiple,
    type,
    target: field.name,
    lookup,
    negated,
    choices: own ? own.choices : choices,
    help: target.help,
    build(values) {
      // A kind may ignore a value it does not recognise (booleans): undefined drops it.
      const parsed = values.map((v) => (field.kind.filterValue ? field.kind.filterValue(field, v, lookup) : v)).filter((v) => v !== undefined);
      if (parsed.length === 0) return TRUE;
      if (multiple === 'and') {
        // One test holding every value: the kind requires all of them; the negation excludes any.
        return negated ? not(wrap(or(parsed.map((v) => test(lookup, [v]))))) : wrap(test(lookup, parsed));
      }
      const positive = wrap(lookup === 'exact' ? test('exact', parsed) : or(parsed.map((v) => test(lookup, [v]))));
      return negated ? not(positive) : positive;
    },
  };
}

/**
 * `<field>` and `<field>__<suffix>` filters of a plain (column) field; with `steps`, of a field of
 * a related model (`mac_address` of devices tests their interfaces), named `base`.
 */
export function fieldFilters(field: FieldMeta, steps: Step[] = [], name?: string): FilterDef[] {
  const base = name ?? field.options.filterName ?? field.name;
  const target: FilterTarget = {
    test: (lookup, values) => fieldTest(field, lookup, values),
    wrap: (p) => through(steps, p),
    multiple: field.options.single === true ? 'last' : field.kind.filterMultiple ?? 'or',
    help: field.options.help,
  };
  const defs: FilterDef[] = [];
  for (const suffix of fieldLookups(field)) {
    const spec = SUFFIXES[suffix];
    if (!spec) continue;
    const [lookup, negated] = spec;
    defs.push(lookupFilter(field, suffix ? `${base}__${suffix}` : base, lookup, negated, target));
  }
  return defs;
}

/**
 * A filter of a value kept under `key` of the JSON document field `document` (custom field data),
 * as the filter of a column of `value`'s kind would be: values parse and type as the kind says and
 * compare through the key as its `jsonValue` says. `suffix` is one of the field's lookups
 * (otherwise there is no such filter), or '' for the plain filter, which every value has, testing
 * `lookup` (default `exact`). Repeated values OR, unless `multiple` says otherwise.
 */
export function documentKeyFilter(
  document: FieldMeta,
  key: string,
  value: FieldMeta,
  name: string,
  suffix: string,
  options: { lookup?: string; multiple?: FilterMultiple } = {},
): FilterDef | undefined {
  if (suffix !== '' && !fieldLookups(value).includes(suffix)) return undefined;
  const spec = SUFFIXES[suffix];
  if (!spec) return undefined;
  const [lookup, negated] = suffix === '' ? [options.lookup ?? 'exact', false] : spec;
  const as = value.kind.jsonValue ?? 'text';
  return lookupFilter(value, name, lookup, negated, {
    test: (l, values) => jsonKeyTest(document, key, as, l, values),
    wrap: (p) => p,
    multiple: options.multiple ?? 'or',
  });
}
