import { Store, type Executor, ValidationError, type ExtraRoute, type Registry, unstorableInput } from '../../framework';
import { User } from './user';

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Nested keys of `patch` replace or extend those of `base`. */
function merge(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [k, v] of Object.entries(patch)) out[k] = isObject(v) && isObject(out[k]) ? merge(out[k] as Record<string, unknown>, v) : v;
  return out;
}

/** `/api/users/config/`: the caller's saved preferences; PATCH merges keys into them. */
export function userConfigRoute(registry: Registry): ExtraRoute {
  const model = () => registry.forClass(User);
  const current = async (db: Executor, id: string) => {
    const [user] = await new Store(db).find(model(), { id });
    return (user?.config_data as Record<string, unknown> | undefined) ?? {};
  };
  return {
    path: '/users/config/',
    auth: 'authenticated',
    methods: {
      GET: async (ctx) => ({ status: 200, body: await current(ctx.db.reader, String(ctx.user?.id)) }),
      PATCH: async (ctx, args) => {
        const patch = args.body();
        if (!isObject(patch)) throw ValidationError.nonField('Invalid data. Expected a dictionary.');
        // The same checks as any JSON field: nesting (counted from the config document), NUL, lone surrogates.
        const errors: Record<string, string[]> = {};
        for (const [key, value] of Object.entries(patch)) {
          const problem = unstorableInput({ [key]: value }, ctx.config.maxJsonDepth);
          if (problem) errors[key] = [problem];
        }
        if (Object.keys(errors).length) throw new ValidationError(errors);
        const id = String(ctx.user?.id);
        const merged = await ctx.db.transaction(async (tx) => {
          const next = merge(await current(tx, id), patch);
          await new Store(tx).update(model(), id, { config_data: next });
          return next;
        });
        return { status: 200, body: merged };
      },
    },
  };
}
