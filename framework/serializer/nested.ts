import { planRowsById } from '../store/pages';
import type { ModelMeta } from '../metadata/model-meta';
import type { JsonObject } from '../metadata/types';
import { objectEmitter, orderKeys, orderText, renderRows, representation, type Plan } from './representation';
import type { RenderContext } from './render-context';
import type { Id } from '../query/id';
import { SelectBuilder } from '../store/select';

/** Nested-form plans by model, then by version and dialect. */
const NESTED_PLANS = new WeakMap<ModelMeta, Map<string, Plan>>();

function nestedPlan(model: ModelMeta, rc: RenderContext): Plan {
  let cache = NESTED_PLANS.get(model);
  if (!cache) NESTED_PLANS.set(model, (cache = new Map()));
  const key = `${rc.version}:${rc.db.dialect.name}`;
  let plan = cache.get(key);
  if (!plan) {
    const builder = new SelectBuilder(model, rc.db.dialect, representation);
    const emit = objectEmitter(model, builder.root, { brief: true, nested: true, version: rc.version });
    const keys = orderKeys(model, builder.root, rc.db.dialect);
    plan = { builder, emit, orderBy: orderText(keys), orderKeys: keys, select: builder.selectFrom(), parentFirst: null, versionIndex: -1 };
    cache.set(key, plan);
  }
  return plan;
}

/**
 * The nested forms of objects of `model` (as embedded in other objects), by id, in the model's
 * ordering; ids of missing objects are left out. One query (plus the nested form's loaders).
 */
export async function nestedObjects(model: ModelMeta, ids: Id[], rc: RenderContext): Promise<Map<Id, JsonObject>> {
  const out = new Map<Id, JsonObject>();
  if (ids.length === 0) return out;
  const plan = nestedPlan(model, rc);
  const rows = await planRowsById(rc.db, model, plan.selectByIds ?? plan.select, [...new Set(ids)], plan.orderBy);
  // Loaded data of this plan stays apart from the page being rendered around it.
  const own: RenderContext = { ...rc, loaded: new Map() };
  for (const obj of await renderRows(plan, rows, own)) out.set((obj as JsonObject).id as Id, obj as JsonObject);
  return out;
}
