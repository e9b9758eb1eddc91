import { Params } from '../store/params';
import type { ModelMeta } from '../metadata/model-meta';
import type { JsonObject } from '../metadata/types';
import { objectEmitter, orderBy, renderRows, representation, type Plan } from './representation';
import type { RenderContext } from './render-context';
import type { Id } from '../query/id';
import { SelectBuilder } from '../store/select';

function nestedPlan(model: ModelMeta, rc: RenderContext): Plan {
  const cache = (model.extra.nestedPlans ??= new Map<string, Plan>()) as Map<string, Plan>;
  const key = `${rc.version}:${rc.db.dialect.name}`;
  let plan = cache.get(key);
  if (!plan) {
    const builder = new SelectBuilder(model, rc.db.dialect, representation);
    const emit = objectEmitter(model, builder.root, { brief: true, nested: true, version: rc.version });
    plan = { builder, emit, orderBy: orderBy(model, builder.root, rc.db.dialect), select: builder.selectFrom(), parentFirst: null };
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
  const params = new Params(rc.db.dialect);
  const q = rc.db.dialect.quote;
  const rows = await rc.db.rows(
    `${plan.select} WHERE ${q('t0')}.${q(model.pk.column as string)} IN (${params.list([...new Set(ids)])}) ORDER BY ${plan.orderBy}`,
    params.values,
  );
  // Loaded data of this plan stays apart from the page being rendered around it.
  const own: RenderContext = { ...rc, loaded: new Map() };
  for (const obj of await renderRows(plan, rows, own)) out.set((obj as JsonObject).id as Id, obj as JsonObject);
  return out;
}
