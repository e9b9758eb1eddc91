import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  parse,
  print,
  specifiedRules,
  validate,
  VariablesInAllowedPositionRule,
  visit,
  type ArgumentNode,
  type ASTVisitor,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import type { Json, JsonObject } from '../metadata/types';
import { formatError, formatSyntaxError } from './errors';
import { excessiveNesting, limitsRule, type QueryLimits } from './limits';
import type { GraphReads } from './reads';

/** What a request asks: the document, its variables and the operation to run. */
export interface GraphQLParams {
  query: string;
  variables: Record<string, unknown> | null;
  operationName: string | null;
}

/** The answer: the status Nautobot gives and the body, `errors` first. */
export interface GraphQLOutcome {
  status: number;
  body: JsonObject;
}

export function failure(status: number, message: string): GraphQLOutcome {
  return { status, body: { errors: [{ message }] } };
}

const stripList = (type: string) => type.replace(/[[\]!]/g, '');

/**
 * Nautobot types list filters `[String]`, while the documented client examples declare their
 * variables `String!`; a single value is a valid input for a list, so a variable of the list's
 * item type is accepted where the list is expected. Every other misplaced variable is refused.
 */
function listTolerantVariables(context: ValidationContext): ASTVisitor {
  const tolerant = new Proxy(context, {
    get(target, prop) {
      if (prop === 'reportError') {
        return (error: GraphQLError) => {
          const m = /^Variable "\$[^"]+" of type "([^"]+)" used in position expecting type "([^"]+)"\.$/.exec(error.message);
          if (m && m[2].startsWith('[') && stripList(m[1]) === stripList(m[2])) return;
          target.reportError(error);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return VariablesInAllowedPositionRule(tolerant);
}

function rules(limits: QueryLimits): ValidationRule[] {
  return [...specifiedRules.filter((r) => r !== VariablesInAllowedPositionRule), listTolerantVariables, limitsRule(limits)];
}

/** The operation that would run, for refusing mutations before validation as Nautobot does. */
function refusedOperation(document: DocumentNode, operationName: string | null): string | null {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (operation && operation.operation !== 'query') return `'${operation.operation}' is not a supported operation, Only query are supported.`;
  return null;
}

/** Each argument of a document by its value node, to name the argument a bad literal was given to. */
function argumentsByValue(document: DocumentNode): Map<ValueNode, ArgumentNode> {
  const out = new Map<ValueNode, ArgumentNode>();
  visit(document, { Argument: (node) => void out.set(node.value, node) });
  return out;
}

/**
 * A literal of the wrong type as graphql-core 2 reported it, naming the argument:
 * `Argument "offset" has invalid value "3".\nExpected type "Int", found "3".`
 */
function argumentMessage(error: GraphQLError, argumentOf: Map<ValueNode, ArgumentNode>): string | undefined {
  const node = error.nodes?.[0] as ValueNode | undefined;
  const argument = node ? argumentOf.get(node) : undefined;
  if (!node || !argument) return undefined;
  const type = /^Expected value of type "([^"]+)"/.exec(error.message)?.[1] ?? /^(\w+) cannot represent/.exec(error.message)?.[1];
  if (!type) return undefined;
  const found = print(node);
  return `Argument "${argument.name.value}" has invalid value ${found}.\nExpected type "${type}", found ${found}.`;
}

/** Runs a document: 400 for what fails before execution (syntax, validation, variables), else 200. */
export async function runGraphQL(
  schema: GraphQLSchema,
  reads: GraphReads,
  params: GraphQLParams,
  limits: QueryLimits,
  options: { validationStatus?: number } = {},
): Promise<GraphQLOutcome> {
  const nested = excessiveNesting(params.query);
  if (nested) return { status: 400, body: { errors: [{ ...nested }] } };
  let document: DocumentNode;
  try {
    document = parse(params.query);
  } catch (err) {
    if (err instanceof GraphQLError) return { status: 400, body: { errors: [formatSyntaxError(err, params.query)] } };
    throw err;
  }
  const refused = refusedOperation(document, params.operationName);
  if (refused) return failure(400, refused);
  const invalid = validate(schema, document, rules(limits));
  if (invalid.length) {
    const argumentOf = argumentsByValue(document);
    return { status: options.validationStatus ?? 400, body: { errors: invalid.map((e) => formatError(e, argumentMessage(e, argumentOf))) } };
  }
  reads.expect(schema, document);
  const result = await execute({
    schema,
    document,
    contextValue: reads,
    variableValues: params.variables ?? undefined,
    operationName: params.operationName ?? undefined,
  });
  const body: JsonObject = {};
  if (result.errors?.length) body.errors = result.errors.map((e) => formatError(e));
  // Without `data`, execution never started (operation or variables): Nautobot answers 400.
  if (result.data === undefined) return { status: 400, body };
  body.data = result.data as Json;
  return { status: 200, body };
}

/** Whether a document parses, and the message Nautobot gives when it does not (saved queries). */
export function syntaxError(query: string): string | null {
  const nested = excessiveNesting(query);
  if (nested) return nested.message;
  try {
    parse(query);
    return null;
  } catch (err) {
    if (err instanceof GraphQLError) return formatSyntaxError(err, query).message as string;
    throw err;
  }
}

/** Variable definitions of a document with their default literals as text, `""` without one (saved queries). */
export function variableDefaults(query: string): Record<string, string> {
  const out: Record<string, string> = {};
  const document = parse(query);
  for (const def of document.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const v of def.variableDefinitions ?? []) {
      const d = v.defaultValue;
      out[v.variable.name.value] = !d ? '' : 'value' in d && typeof d.value !== 'object' ? String(d.value) : '';
    }
  }
  return out;
}
