/** What applications and plugins hand to the router besides their models: the hand-written routes. */
import type { RequestHandler } from 'express';
import type { FieldKind } from '../fields/kind';
import type { Action } from '../auth/types';
import type { Predicate } from '../query/predicate';
import type { RequestContext } from '../http/context';
import type { Negotiated } from '../http/negotiation';
import type { Reply } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import type { Registry } from '../metadata/registry';
import type { Id } from '../query/id';
import type { FormBody } from '../http/form';

export interface HandlerArgs {
  /** Object-level restriction for the method's action (TRUE when unrestricted). */
  restrict: Predicate;
  /** Parsed id of a detail route. */
  id?: Id;
  /** Reads the JSON body (415/400 on bad input). */
  body(): unknown;
  /** Reads a multipart/form-data body (415 for another media type, 400 when malformed). */
  form(): Promise<FormBody>;
  /** The caller's restriction for another model and action (extra actions touching two models). */
  restrictFor(model: ModelMeta, action: Action): Promise<Predicate>;
  /** The model of the route (an action shared by several models serves each under its own). */
  model?: ModelMeta;
  /**
   * Whether the caller could use an unsafe method of this route: the route has it and the
   * model-level check passes (OPTIONS describes only what the caller may send).
   */
  mayUse(method: string): Promise<boolean>;
}

export type Handler = (ctx: RequestContext, args: HandlerArgs) => Promise<Reply>;

/** Picks the renderer, response type and requested version of a route from `Accept` and `?format=`. */
export type Negotiator = (accept: string | undefined, format: string | undefined) => Negotiated;

/** A route outside the model endpoints (`/api/status/`, `/api/users/config/`). */
export interface ExtraRoute {
  /** Path under `/api`: `/status/`; file-like paths (`/swagger.json`) have no trailing slash. */
  path: string;
  methods: Partial<Record<string, Handler>>;
  /** `authenticated`: any logged-in user; `staff`: staff users only; `none`: open. */
  auth: 'authenticated' | 'staff' | 'none';
  /** Whether the response carries API-Version (Nautobot omits it on some views). */
  versioned?: boolean;
  /** Replaces the JSON/HTML negotiation (schema documents, the documentation page). */
  negotiate?: Negotiator;
  /** Listed in the OpenAPI document (default true). */
  documented?: boolean;
  /** Its unsafe methods only read (GraphQL's POST): read-only tokens may use them. */
  readsOnly?: boolean;
}

/** Plain Express handlers (static files, redirects) answered before any other route. */
export interface Mount {
  /** Path prefix under `/api`. */
  path: string;
  handlers: RequestHandler[];
}

/** A key of an action's own objects, as the OpenAPI document shows it: a plain value or a model's nested form. */
export type ActionField =
  | {
      readonly type: 'integer' | 'string' | 'boolean';
      readonly format?: string;
      readonly enum?: ReadonlyArray<string | number>;
      readonly nullable?: boolean;
      readonly description?: string;
    }
  | { readonly nested: Function; readonly nullable?: boolean; readonly description?: string };

/**
 * How the OpenAPI document describes one method of an extra action; without it the action's
 * bodies and answers are described as any object or array of objects.
 */
export interface ActionDoc {
  readonly description?: string;
  /** Query parameters the action reads, besides `api_version`. */
  readonly query?: ReadonlyArray<{ readonly name: string; readonly type: 'integer' | 'string' | 'boolean'; readonly description: string }>;
  /**
   * The body: one object or an array of them, each the writable shape of `model` without the
   * keys in `omit` (the action sets them), plus `add` (required when listed in `required`).
   */
  readonly body?: {
    readonly model: Function;
    readonly omit?: readonly string[];
    readonly add?: Readonly<Record<string, ActionField>>;
    readonly required?: readonly string[];
    /** Component name of the item schema. */
    readonly name: string;
  };
  /**
   * The successful answer: `items`, a bare array of objects with these keys (component `name`);
   * or `created`, the full representation of the created object of that model (an array of them
   * when the body was an array).
   */
  readonly response?: { readonly items: Readonly<Record<string, ActionField>>; readonly name: string } | { readonly created: Function };
  /** When set, the 204 answered when nothing could be done (no free space), and why. */
  readonly empty?: string;
}

/** An extra action on a model (`/api/ipam/prefixes/<id>/available-prefixes/`). */
export interface ModelAction {
  /** The one model the action belongs to, or, with `withField`, none. */
  model?: Function;
  /** The action belongs to every model declaring a field of this kind (`notes_url`). */
  withField?: FieldKind;
  path: string;
  detail: boolean;
  /** Per method: the permission action it needs on `permissionModel` (default: the model). */
  methods: Partial<Record<string, { action: Action; handler: Handler; permissionModel?: Function; doc?: ActionDoc }>>;
}

/** The extra actions served under a model's endpoint. */
export function actionsOf(actions: readonly ModelAction[] | undefined, registry: Registry, model: ModelMeta): ModelAction[] {
  return (actions ?? []).filter((a) =>
    a.withField ? model.fields.some((f) => f.kind === a.withField) : !!a.model && registry.maybeForClass(a.model) === model,
  );
}
