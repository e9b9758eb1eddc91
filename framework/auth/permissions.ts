import { AuthenticationFailed, NotAuthenticated, PermissionDenied } from '../errors';
import type { RequestContext } from '../http/context';
import type { ModelMeta } from '../metadata/model-meta';
import { TRUE, type Predicate } from '../query/predicate';
import type { Action } from './types';

/**
 * Decides whether the caller may perform an action on a model and which objects it may touch.
 * The users application supplies the object-permission engine; the default below lets
 * superusers do everything and other users read.
 */
export interface PermissionEngine {
  /** Object-level restriction for the action, or throws 403 when the model-level check fails. */
  restrict(ctx: RequestContext, model: ModelMeta, action: Action): Promise<Predicate>;
  /** Model-level check only (OPTIONS shows POST/PUT only when this holds). */
  allows(ctx: RequestContext, model: ModelMeta, action: Action): Promise<boolean>;
}

/**
 * `allows` for an engine whose `restrict` throws 403 when the model-level check fails: a refusal
 * is "no"; anything else (a constraint that cannot be applied, a failed query) is not an answer
 * and propagates, to end as a 500 with its cause logged (DRF's SimpleMetadata likewise catches
 * only API exceptions).
 */
export async function allowedBy(engine: PermissionEngine, ctx: RequestContext, model: ModelMeta, action: Action): Promise<boolean> {
  try {
    await engine.restrict(ctx, model, action);
    return true;
  } catch (err) {
    if (err instanceof PermissionDenied || err instanceof NotAuthenticated || err instanceof AuthenticationFailed) return false;
    throw err;
  }
}

/** `NETINV_EXEMPT_VIEW_PERMISSIONS`: `*` never exempts accounts and permissions. */
const NEVER_EXEMPT_BY_STAR = new Set(['users.user', 'auth.group', 'users.group', 'users.objectpermission']);

export function isExempt(ctx: RequestContext, model: ModelMeta): boolean {
  const list = ctx.config.exemptViewPermissions;
  if (list.includes(model.label)) return true;
  return list.includes('*') && !NEVER_EXEMPT_BY_STAR.has(model.label);
}

/** Checks shared by every engine: authentication, exemptions, the token's write flag. */
export function baseCheck(ctx: RequestContext, model: ModelMeta, action: Action): 'allow' | 'decide' {
  if (action === 'view' && isExempt(ctx, model)) return 'allow';
  if (!ctx.user) throw new NotAuthenticated();
  if (action !== 'view' && ctx.token && !ctx.token.writeEnabled) throw new PermissionDenied();
  if (ctx.user.isSuperuser) return 'allow';
  return 'decide';
}

export const readOnlyForOthers: PermissionEngine = {
  async restrict(ctx, model, action) {
    if (baseCheck(ctx, model, action) === 'allow') return TRUE;
    if (action === 'view') return TRUE;
    throw new PermissionDenied();
  },
  allows(ctx, model, action) {
    return allowedBy(this, ctx, model, action);
  },
};
