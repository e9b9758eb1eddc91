import type { TestApp } from '../helpers/harness';

export interface FactoryContext {
  readonly app: TestApp;
  /** A unique number for names and slugs. */
  readonly n: number;
  /** Creates an object of another model through the API and returns its id. */
  make(label: string, overrides?: Record<string, unknown>): Promise<string>;
}

/** How the generic contract tests create and change objects of one model. */
export interface Factory {
  /** A valid POST body; unique values derive from `ctx.n`. */
  build(ctx: FactoryContext): Promise<Record<string, unknown>> | Record<string, unknown>;
  /** A PATCH body whose effect shows in the representation. */
  change(ctx: FactoryContext): Record<string, unknown>;
  /** Keys of the representation that the change alters besides its own keys (a display built from them). */
  derived?: string[];
  /**
   * Read-only models (no POST): makes an object of the model through other endpoints and returns
   * its id; `make` and the contract suite use it instead of POSTing `build`'s body.
   */
  seed?(ctx: FactoryContext): Promise<string>;
  /** Keys a create's response shows as null and reads compute (a location's `tree_depth`). */
  computedOnReads?: string[];
  /** Fields that make a body invalid, for models without a required field to set to null. */
  invalid?: Record<string, unknown>;
  /** A complete PUT body for an existing object, when `build` would change what cannot change. */
  replace?(ctx: FactoryContext, current: Record<string, unknown>): Promise<Record<string, unknown>> | Record<string, unknown>;
}

let counter = 0;
/**
 * Where this test file's numbers start: random, so that runs use different names, but fixed, so
 * that no two numbers of one file coincide (a new random part per number made two of them equal
 * whenever their counters differed by a multiple of 1,000 and the random parts made up for it:
 * about one run in five of the filter contract suite, which creates tens of thousands of objects).
 */
const BASE = Math.floor(Math.random() * 1e6) * 1000;

export function nextNumber(): number {
  counter += 1;
  return BASE + counter;
}

export function contextFor(app: TestApp, factories: Record<string, Factory>): FactoryContext {
  const n = nextNumber();
  const make = async (label: string, overrides: Record<string, unknown> = {}): Promise<string> => {
    const factory = factories[label];
    if (!factory) throw new Error(`no factory for ${label}`);
    if (factory.seed) return factory.seed(contextFor(app, factories));
    const body = { ...(await factory.build(contextFor(app, factories))), ...overrides };
    const path = listPathOf(app, label);
    const res = await app.post(path, body);
    if (res.status !== 201) throw new Error(`creating ${label} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  return { app, n, make };
}

export function listPathOf(app: TestApp, label: string): string {
  const model = app.server.registry.get(label);
  if (!model?.path) throw new Error(`${label} has no endpoint`);
  return model.listPath;
}
