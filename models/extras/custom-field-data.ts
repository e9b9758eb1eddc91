import {
  Store,
  jsonKeyTest,
  removeJsonKey,
  rewriteJsonKey,
  setJsonKey,
  type FieldMeta,
  type Json,
  type ModelMeta,
  type Values,
  type WriteContext,
} from '../../framework';

/**
 * Keeping objects' stored custom field data in step with the definitions, inside the request's
 * transaction (Nautobot does this in background tasks, leaving a window of stale data).
 */

/** Models of these content types that store custom field data, with their data field. */
function dataFields(wc: WriteContext, contentTypes: string[]): Array<{ model: ModelMeta; field: FieldMeta }> {
  const out: Array<{ model: ModelMeta; field: FieldMeta }> = [];
  for (const label of contentTypes) {
    const model = wc.registry.get(label);
    const field = model?.field('custom_fields');
    if (model && field) out.push({ model, field });
  }
  return out;
}

/** New content types get the default where they hold no value; removed ones lose the key. */
export async function contentTypesChanged(wc: WriteContext, name: string, defaultValue: Json, added: string[], removed: string[]): Promise<void> {
  if (defaultValue !== null && defaultValue !== undefined) {
    for (const { model, field } of dataFields(wc, added)) {
      await setJsonKey(wc.tx, model, field, name, defaultValue, { onlyWhereEmpty: true });
    }
  }
  for (const { model, field } of dataFields(wc, removed)) await removeJsonKey(wc.tx, model, field, name);
}

export async function fieldDeleted(wc: WriteContext, name: string, contentTypes: string[]): Promise<void> {
  for (const { model, field } of dataFields(wc, contentTypes)) await removeJsonKey(wc.tx, model, field, name);
}

/** The test selecting objects that hold `value` in a selection field. */
function holding(fieldRow: Values, data: FieldMeta, value: string) {
  const multi = fieldRow.type === 'multi-select';
  return jsonKeyTest(data, String(fieldRow.name), multi ? 'array' : 'text', 'exact', [value]);
}

export async function usesChoice(wc: WriteContext, fieldRow: Values, value: string): Promise<boolean> {
  for (const { model, field } of dataFields(wc, fieldRow.content_types as string[])) {
    if ((await new Store(wc.tx).count(model, holding(fieldRow, field, value))) > 0) return true;
  }
  return false;
}

/** Objects holding the old value of a renamed choice hold the new one. */
export async function choiceRenamed(wc: WriteContext, fieldRow: Values, from: string, to: string): Promise<void> {
  const multi = fieldRow.type === 'multi-select';
  for (const { model, field } of dataFields(wc, fieldRow.content_types as string[])) {
    await rewriteJsonKey(wc.tx, model, field, String(fieldRow.name), holding(fieldRow, field, from), (value) =>
      multi && Array.isArray(value) ? value.map((v) => (v === from ? to : v)) : value === from ? to : value,
    );
  }
}
