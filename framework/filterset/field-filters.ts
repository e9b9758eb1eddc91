import type { FieldMeta } from '../metadata/model-meta';
import { fieldTest, not, or, TRUE } from '../query/predicate';
import type { FilterDef } from './definition';
import { through, type Step } from './steps';
import { SUFFIXES } from './suffixes';

/**
 * `<field>` and `<field>__<suffix>` filters of a plain (column) field; with `steps`, of a field of
 * a related model (`mac_address` of devices tests their interfaces), named `base`.
 */
export function fieldFilters(field: FieldMeta, steps: Step[] = [], name?: string): FilterDef[] {
  const lookups = field.options.lookups === false ? [] : field.options.lookups ?? field.kind.lookups?.(field) ?? [];
  const base = name ?? field.options.filterName ?? field.name;
  const defs: FilterDef[] = [];
  const choices = field.kind.filterChoices?.(field);
  const multiple = field.options.single === true ? 'last' : field.kind.filterMultiple ?? 'or';
  for (const suffix of lookups) {
    const spec = SUFFIXES[suffix];
    if (!spec) continue;
    const [lookup, negated] = spec;
    const own = field.kind.lookupValues?.(field, lookup);
    const type = own?.type ?? (choices?.every((c) => typeof c === 'number') ? 'integer' : field.kind.filterType ?? 'string');
    defs.push({
      name: suffix ? `${base}__${suffix}` : base,
      multiple,
      type,
      target: field.name,
      lookup,
      negated,
      choices: own ? own.choices : choices,
      help: field.options.help,
      build(values) {
        // A kind may ignore a value it does not recognise (booleans): undefined drops it.
        const parsed = values.map((v) => (field.kind.filterValue ? field.kind.filterValue(field, v, lookup) : v)).filter((v) => v !== undefined);
        if (parsed.length === 0) return TRUE;
        if (multiple === 'and') {
          // One test holding every value: the kind requires all of them; the negation excludes any.
          const test = through(steps, fieldTest(field, lookup, parsed));
          return negated ? not(through(steps, or(parsed.map((v) => fieldTest(field, lookup, [v]))))) : test;
        }
        const positive = through(steps, lookup === 'exact' ? fieldTest(field, 'exact', parsed) : or(parsed.map((v) => fieldTest(field, lookup, [v]))));
        return negated ? not(positive) : positive;
      },
    });
  }
  return defs;
}
