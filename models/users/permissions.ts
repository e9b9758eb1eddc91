import {
  Store,
  allowedBy,
  baseCheck,
  ormFilter,
  PermissionDenied,
  TRUE,
  type Action,
  type JsonObject,
  type ModelMeta,
  type PermissionEngine,
  type Predicate,
  type RequestContext,
  type Values,
  DataKey,
} from '../../framework';
import { ObjectPermission, substituteUser } from './object-permission';

const CACHE_KEY = new DataKey<Values[]>('users.objectPermissions');

/** The enabled permissions of the caller, given directly or through a group: read once per request. */
async function permissionsOf(ctx: RequestContext): Promise<Values[]> {
  const cached = ctx.features.get(CACHE_KEY);
  if (cached) return cached;
  const user = ctx.user;
  if (!user || !user.isActive) return [];
  const model = ctx.registry.forClass(ObjectPermission);
  const [direct, viaGroups] = await Promise.all([
    new Store(ctx.db.reader).find(model, { enabled: true, users__id: user.id }),
    new Store(ctx.db.reader).find(model, { enabled: true, groups__users__id: user.id }),
  ]);
  const byId = new Map([...direct, ...viaGroups].map((p) => [p.id, p]));
  const all = [...byId.values()];
  ctx.features.set(CACHE_KEY, all);
  return all;
}

function grants(p: Values, model: ModelMeta, action: Action): boolean {
  return (p.object_types as string[]).includes(model.label) && (p.actions as string[]).includes(action);
}

/** The objects one permission admits: everything when it has no constraints. */
function admitted(p: Values, model: ModelMeta, userId: string): Predicate {
  const c = p.constraints as JsonObject | JsonObject[] | null;
  const sets = c === null ? [] : Array.isArray(c) ? c : [c];
  if (sets.length === 0 || sets.some((s) => Object.keys(s).length === 0)) return TRUE;
  const or = sets.map((s) => ormFilter(model, substituteUser(s, userId)));
  return or.length === 1 ? or[0] : { kind: 'or', items: or };
}

/**
 * Nautobot's object permissions: a model-level check (some enabled permission grants the action
 * on the type), then the union of the granting permissions' constraints restricts the objects.
 */
export const objectPermissionEngine: PermissionEngine = {
  async restrict(ctx, model, action) {
    if (baseCheck(ctx, model, action) === 'allow') return TRUE;
    const granting = (await permissionsOf(ctx)).filter((p) => grants(p, model, action));
    if (granting.length === 0) throw new PermissionDenied();
    const parts = granting.map((p) => admitted(p, model, String(ctx.user?.id)));
    if (parts.some((p) => p.kind === 'const' && p.value)) return TRUE;
    return parts.length === 1 ? parts[0] : { kind: 'or', items: parts };
  },
  allows(ctx, model, action) {
    return allowedBy(this, ctx, model, action);
  },
};
