import type { Json, Values } from '../metadata/types';
import type { ChoiceOptions, IntegerOptions, ObjectOptions, StringOptions, VariableOptions, VariableSpec, VariableType } from './variables';
import type { JobContext } from './context';

/** Attributes a job class declares; the Job record copies them unless overridden through the API. */
export interface JobOptions {
  /** Default: the class name. */
  name?: string;
  description?: string;
  /** Default: the module's name (`<plugin>.jobs`, or the file name in the jobs directory). */
  grouping?: string;
  /** Changes are always rolled back, whatever `commit` says. */
  read_only?: boolean;
  approval_required?: boolean;
  commit_default?: boolean;
  hidden?: boolean;
  /** Default true, as in Nautobot: such jobs cannot be scheduled, and their inputs are not kept. */
  has_sensitive_variables?: boolean;
  /** Seconds after which the job is asked to stop (its `ctx.signal` aborts); 0: the worker's default. */
  soft_time_limit?: number;
  /** Seconds after which the run is abandoned and rolled back; 0: the worker's default. */
  time_limit?: number;
  task_queues?: string[];
}

/**
 * A job: automation code run by the job queue. Subclasses declare their inputs with `@Var.*`
 * property decorators and implement `run`; the variables are set on the instance before `run`.
 * Whatever `run` returns (JSON) is stored as the result's `data.output`.
 */
export abstract class Job {
  abstract run(ctx: JobContext): Promise<Json | void>;
}

/**
 * Receives object changes from job hooks: the run's `object_change` is the change record's id;
 * `receiveJobHook` gets the record (action, changed_object_type, changed_object_id, object_data).
 */
export abstract class JobHookReceiver extends Job {
  async run(ctx: JobContext): Promise<Json | void> {
    const model = ctx.store.registry?.get('extras.objectchange');
    const change = model ? await ctx.store.get(model, String(ctx.data.object_change)) : null;
    if (!change) {
      await ctx.logFailure(`Change record ${String(ctx.data.object_change)} does not exist.`);
      return;
    }
    return this.receiveJobHook(ctx, change);
  }

  abstract receiveJobHook(ctx: JobContext, change: Values): Promise<Json | void>;
}

/** Run from job buttons (`object_pk`, `object_model_name`): `receiveJobButton` gets the object's stored values. */
export abstract class JobButtonReceiver extends Job {
  async run(ctx: JobContext): Promise<Json | void> {
    const model = ctx.store.registry?.get(String(ctx.data.object_model_name));
    const obj = model ? await ctx.store.get(model, String(ctx.data.object_pk)) : null;
    if (!obj) {
      await ctx.logFailure(`${String(ctx.data.object_model_name)} ${String(ctx.data.object_pk)} does not exist.`);
      return;
    }
    return this.receiveJobButton(ctx, obj);
  }

  abstract receiveJobButton(ctx: JobContext, obj: Values): Promise<Json | void>;
}

export type JobClass = (abstract new () => Job) & { readonly name: string };

const OPTIONS = new WeakMap<Function, JobOptions>();
const VARIABLES = new WeakMap<Function, VariableSpec[]>();

/** Declares a class as a job with its attributes. */
export function JobInfo(options: JobOptions = {}) {
  return (cls: Function): void => {
    OPTIONS.set(cls, { ...options });
  };
}

export function jobOptionsOf(cls: Function): JobOptions {
  return OPTIONS.get(cls) ?? {};
}

/** Variables of a job class, its base classes' first, in declaration order. */
export function jobVariablesOf(cls: Function): VariableSpec[] {
  const chain: Function[] = [];
  for (let c: Function | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) chain.unshift(c);
  return chain.flatMap((c) => VARIABLES.get(c) ?? []);
}

export function isJobClass(value: unknown): value is JobClass {
  return typeof value === 'function' && value.prototype instanceof Job && OPTIONS.has(value);
}

export function isHookReceiver(cls: Function): boolean {
  return cls.prototype instanceof JobHookReceiver;
}

export function isButtonReceiver(cls: Function): boolean {
  return cls.prototype instanceof JobButtonReceiver;
}

function variable(type: VariableType, options: VariableSpec['options']) {
  return (target: object, property: string): void => {
    const cls = target.constructor;
    const list = VARIABLES.get(cls) ?? [];
    list.push({ name: property, type, options });
    VARIABLES.set(cls, list);
  };
}

/** Input variables of a job, one decorator per Nautobot variable class. */
export const Var = {
  String: (options: StringOptions = {}) => variable('StringVar', options),
  Text: (options: VariableOptions = {}) => variable('TextVar', options),
  Integer: (options: IntegerOptions = {}) => variable('IntegerVar', options),
  Boolean: (options: VariableOptions = {}) => variable('BooleanVar', options),
  Choice: (options: ChoiceOptions) => variable('ChoiceVar', options),
  MultiChoice: (options: ChoiceOptions) => variable('MultiChoiceVar', options),
  Object: (options: ObjectOptions) => variable('ObjectVar', options),
  MultiObject: (options: ObjectOptions) => variable('MultiObjectVar', options),
  File: (options: VariableOptions = {}) => variable('FileVar', options),
  IPAddress: (options: VariableOptions = {}) => variable('IPAddressVar', options),
  IPAddressWithMask: (options: VariableOptions = {}) => variable('IPAddressWithMaskVar', options),
  IPNetwork: (options: VariableOptions = {}) => variable('IPNetworkVar', options),
};

/** Where a job class came from, as the Job record and the class path name it. */
export interface JobSource {
  source: 'local' | 'plugins' | 'git';
  module_name: string;
}

/** A job class with its origin: what a plugin or the jobs directory contributes. */
export interface RegisteredJob extends JobSource {
  readonly cls: JobClass;
  /** `<source>/<module>/<Class>`: the legacy API's id, JobResult.name, ScheduledJob.job_class. */
  readonly classPath: string;
}

export function registeredJob(cls: JobClass, source: JobSource): RegisteredJob {
  return { cls, ...source, classPath: `${source.source}/${source.module_name}/${cls.name}` };
}

// Declared here, after Var: the receivers' inputs as Nautobot declares them.
Var.Object({ model: 'extras.objectchange' })(JobHookReceiver.prototype, 'object_change');
Var.String()(JobButtonReceiver.prototype, 'object_pk');
Var.String()(JobButtonReceiver.prototype, 'object_model_name');
