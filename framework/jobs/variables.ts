import { FieldError } from '../errors';
import { pyRepr } from '../fields/common';
import { canonicalUuid } from '../fields/uuid';
import { resolveRelated } from '../fields/related-reference';
import type { ModelClass, Json } from '../metadata/types';
import type { Registry } from '../metadata/registry';
import { parseNetwork } from '../network/ip';
import type { Id } from '../query/id';
import { Store } from '../store/store';
import type { Executor } from '../store/executor';

/** Nautobot's variable class names, as `GET …/variables/` reports them. */
export type VariableType =
  | 'StringVar'
  | 'TextVar'
  | 'IntegerVar'
  | 'BooleanVar'
  | 'ChoiceVar'
  | 'MultiChoiceVar'
  | 'ObjectVar'
  | 'MultiObjectVar'
  | 'FileVar'
  | 'IPAddressVar'
  | 'IPAddressWithMaskVar'
  | 'IPNetworkVar';

export interface VariableOptions {
  label?: string;
  description?: string;
  /** Default true, except for booleans (an unchecked box is a value). */
  required?: boolean;
  default?: Json;
}

export interface StringOptions extends VariableOptions {
  min_length?: number;
  max_length?: number;
  regex?: string;
}

export interface IntegerOptions extends VariableOptions {
  min_value?: number;
  max_value?: number;
}

export interface ChoiceOptions extends VariableOptions {
  /** `[value, label]` pairs, or values standing for themselves. */
  choices: ReadonlyArray<readonly [string, string] | string>;
}

export interface ObjectOptions extends VariableOptions {
  /** The model of the objects offered, e.g. `() => Site` or the label `dcim.site`. */
  model: (() => ModelClass) | string;
  /** Django-style attributes the offered objects must have (`{"status": "active"}`). */
  query_params?: Record<string, unknown>;
}

/** One declared input of a job, in declaration order. */
export interface VariableSpec {
  readonly name: string;
  readonly type: VariableType;
  readonly options: VariableOptions & Partial<StringOptions & IntegerOptions & ChoiceOptions & ObjectOptions>;
}

export function isRequired(spec: VariableSpec): boolean {
  return spec.type !== 'BooleanVar' && spec.options.required !== false;
}

export function choicePairs(spec: VariableSpec): Array<[string, string]> {
  return (spec.options.choices ?? []).map((c) => (typeof c === 'string' ? [c, c] : [c[0], c[1]]));
}

/** The model label of an object variable. */
export function modelLabelOf(spec: VariableSpec, registry: Registry): string | null {
  const model = spec.options.model;
  if (model === undefined) return null;
  return typeof model === 'string' ? model : registry.forClass(model()).label;
}

/** The entry of `GET …/variables/`: only the keys that apply, as Nautobot lists them. */
export function describeVariable(spec: VariableSpec, registry: Registry): Record<string, Json> {
  const o = spec.options;
  const out: Record<string, Json> = { name: spec.name, type: spec.type, required: isRequired(spec) };
  if (o.label !== undefined) out.label = o.label;
  if (o.description !== undefined) out.help_text = o.description;
  for (const key of ['min_length', 'max_length', 'min_value', 'max_value'] as const) if (o[key] !== undefined) out[key] = o[key] as number;
  if (o.choices !== undefined) out.choices = choicePairs(spec);
  if (o.default !== undefined) out.default = o.default;
  const label = modelLabelOf(spec, registry);
  if (label) out.model = label;
  return out;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new FieldError('Enter a valid value.');
}

function parseString(spec: VariableSpec, value: unknown): string {
  const s = text(value);
  const o = spec.options;
  if (o.min_length !== undefined && s.length < o.min_length) throw new FieldError(`Ensure this value has at least ${o.min_length} characters (it has ${s.length}).`);
  if (o.max_length !== undefined && s.length > o.max_length) throw new FieldError(`Ensure this value has at most ${o.max_length} characters (it has ${s.length}).`);
  if (o.regex !== undefined && !new RegExp(o.regex).test(s)) throw new FieldError('Invalid value. Must match regex: ' + o.regex);
  return s;
}

function parseInteger(spec: VariableSpec, value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) throw new FieldError('Enter a whole number.');
  const o = spec.options;
  if (o.min_value !== undefined && n < o.min_value) throw new FieldError(`Ensure this value is greater than or equal to ${o.min_value}.`);
  if (o.max_value !== undefined && n > o.max_value) throw new FieldError(`Ensure this value is less than or equal to ${o.max_value}.`);
  return n;
}

function parseBoolean(value: unknown): boolean {
  // Django's BooleanField: 'false', '0' and empty values are false, anything else true.
  if (typeof value === 'string') return !['', 'false', '0', 'False'].includes(value);
  return Boolean(value);
}

function parseChoice(spec: VariableSpec, value: unknown): string {
  const s = typeof value === 'string' || typeof value === 'number' ? String(value) : pyRepr(value);
  if (!choicePairs(spec).some(([v]) => v === s)) throw new FieldError(`Select a valid choice. ${s} is not one of the available choices.`);
  return s;
}

function parseMultiChoice(spec: VariableSpec, value: unknown): string[] {
  if (!Array.isArray(value)) throw new FieldError('Enter a list of values.');
  return value.map((v) => parseChoice(spec, v));
}

function parseAddress(value: unknown, withMask: boolean): string {
  const s = text(value).trim();
  try {
    if (withMask !== s.includes('/')) throw new Error('mask');
    parseNetwork(s);
    return s;
  } catch {
    throw new FieldError(withMask ? 'Please specify a valid IPv4 or IPv6 address with mask.' : 'Please specify a valid IPv4 or IPv6 address.');
  }
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Where object variables are looked up: the registry and a connection. */
export interface VariableLookup {
  registry: Registry;
  db: Executor;
}

async function resolveObject(spec: VariableSpec, value: unknown, lookup: VariableLookup): Promise<Id> {
  const label = modelLabelOf(spec, lookup.registry) as string;
  const model = lookup.registry.get(label);
  if (!model) throw new FieldError(`Unknown model ${label}.`);
  const store = new Store(lookup.db, lookup.registry);
  let id: Id | null;
  try {
    id = await resolveRelated(model, value, { store }, false);
  } catch (err) {
    if (err instanceof FieldError) throw new FieldError('Select a valid choice. That choice is not one of the available choices.');
    throw err;
  }
  if (id === null) throw new FieldError('This field is required.');
  if (spec.options.query_params && !(await store.exists(model, { ...spec.options.query_params, id }))) {
    throw new FieldError('Select a valid choice. That choice is not one of the available choices.');
  }
  return id;
}

/**
 * One variable's value from the run request, as the job will see it: strings, numbers, booleans,
 * choice values, object ids (objects by UUID or by an attribute object), addresses as text.
 * Throws FieldError with Django's form messages.
 */
export async function parseVariable(spec: VariableSpec, value: unknown, lookup: VariableLookup): Promise<Json> {
  if (isEmpty(value)) {
    if (spec.type === 'BooleanVar') return false;
    if (isRequired(spec)) throw new FieldError('This field is required.');
    return spec.options.default ?? (spec.type === 'MultiChoiceVar' || spec.type === 'MultiObjectVar' ? [] : null);
  }
  switch (spec.type) {
    case 'StringVar':
    case 'TextVar':
      return parseString(spec, value);
    case 'IntegerVar':
      return parseInteger(spec, value);
    case 'BooleanVar':
      return parseBoolean(value);
    case 'ChoiceVar':
      return parseChoice(spec, value);
    case 'MultiChoiceVar':
      return parseMultiChoice(spec, value);
    case 'ObjectVar':
      return resolveObject(spec, value, lookup);
    case 'MultiObjectVar': {
      if (!Array.isArray(value)) throw new FieldError('Enter a list of values.');
      const ids: Json[] = [];
      for (const item of value) {
        if (typeof item === 'string' && canonicalUuid(item) === null) throw new FieldError(`“${item}” is not a valid UUID.`);
        ids.push(await resolveObject(spec, item, lookup));
      }
      return ids;
    }
    case 'IPAddressVar':
      return parseAddress(value, false);
    case 'IPAddressWithMaskVar':
      return parseAddress(value, true);
    case 'IPNetworkVar':
      return parseAddress(value, true);
    case 'FileVar':
      return text(value);
  }
}
