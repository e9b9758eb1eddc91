import { canonicalUuid } from '../fields/uuid';
import { reverseName, type FieldMeta, type ModelMeta, type ReverseRelation } from '../metadata/model-meta';
import { FALSE, fieldTest, or, TRUE, type Predicate } from '../query/predicate';
import type { FilterDef } from './definition';
import { through, type Step } from './steps';

/**
 * A search entry (`name`, `device_type.manufacturer.name`, `terminations.xconnect_id`): the
 * foreign keys, or reverse relations by their related name, crossed and the field.
 */
export function searchPath(model: ModelMeta, entry: string): { steps: Step[]; field: FieldMeta } | null {
  const names = entry.split('.');
  const steps: Step[] = [];
  let m: ModelMeta | undefined = model;
  for (const [i, name] of names.entries()) {
    const f: FieldMeta | undefined = m?.field(name);
    const reverse: ReverseRelation | undefined = !f && i < names.length - 1 ? m?.reverse.find((r) => reverseName(r) === name) : undefined;
    if (reverse) {
      steps.push({ kind: 'reverse', model: reverse.model, field: reverse.field });
      m = reverse.model;
      continue;
    }
    if (!f) return null;
    if (i === names.length - 1) return { steps, field: f };
    if (!f.target || !f.column) return null;
    steps.push({ kind: 'fk', field: f });
    m = f.target;
  }
  return null;
}

/** Digits that JavaScript holds exactly: longer runs compare with no stored integer. */
function isWholeNumber(text: string): boolean {
  return /^\d+$/.test(text) && Number.isSafeInteger(Number(text));
}

/** `q`: the model's search fields contain the text (integer fields equal it), or the id is it. */
export function searchFilter(model: ModelMeta): FilterDef {
  const fields = (model.options.search ?? []).map((entry) => searchPath(model, entry) as NonNullable<ReturnType<typeof searchPath>>);
  return {
    name: 'q',
    multiple: 'last',
    type: 'string',
    help: `Search: ${[...(model.options.search ?? []), 'id'].join(', ')}`,
    target: null,
    lookup: 'search',
    negated: false,
    build([value]) {
      if (!value || !value.trim()) return TRUE;
      const parts: Predicate[] = fields.map(({ steps, field: f }) =>
        through(steps, f.kind.filterType === 'integer' ? (isWholeNumber(value.trim()) ? fieldTest(f, 'exact', [Number(value.trim())]) : FALSE) : fieldTest(f, 'icontains', [value])),
      );
      const id = model.integerPk ? (isWholeNumber(value.trim()) ? Number(value.trim()) : null) : canonicalUuid(value.trim());
      if (id !== null) parts.push(fieldTest(model.pk, 'exact', [id]));
      return or(parts);
    },
  };
}
