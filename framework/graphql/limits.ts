import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

/** Bounds on a document that keep one request from costing the server without limit. */
export interface QueryLimits {
  /** Deepest nesting of selections (`devices { interfaces { ip_addresses { … } } }` is 3); 0: none. */
  maxDepth: number;
  /** Most fields a document may select, fragments expanded; 0: none. */
  maxComplexity: number;
}

interface Measure {
  depth: number;
  fields: number;
}

/** Depth and field count of a selection set, fragments expanded once per use (cycles are another rule's). */
function measure(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): Measure {
  let depth = 0;
  let fields = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      // Introspection (GraphiQL, client code generators) is bounded by the schema, not by data.
      if (sel.name.value.startsWith('__')) continue;
      fields += 1;
      if (sel.selectionSet) {
        const inner = measure(sel.selectionSet, fragments, seen);
        depth = Math.max(depth, inner.depth + 1);
        fields += inner.fields;
      } else depth = Math.max(depth, 1);
    } else {
      const fragment = sel.kind === Kind.INLINE_FRAGMENT ? sel : fragments.get(sel.name.value);
      if (!fragment || (sel.kind === Kind.FRAGMENT_SPREAD && seen.has(sel.name.value))) continue;
      const next = sel.kind === Kind.FRAGMENT_SPREAD ? new Set([...seen, sel.name.value]) : seen;
      const inner = measure(fragment.selectionSet, fragments, next);
      depth = Math.max(depth, inner.depth);
      fields += inner.fields;
    }
  }
  return { depth, fields };
}

/** A validation rule refusing operations deeper or larger than the limits, with a clear message. */
export function limitsRule(limits: QueryLimits): (context: ValidationContext) => ASTVisitor {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    return {
      OperationDefinition(node) {
        const { depth, fields } = measure(node.selectionSet, fragments, new Set());
        // Root fields are depth 1: `{ devices { name } }` has depth 2 counting the scalars.
        const nesting = depth - 1;
        if (limits.maxDepth > 0 && nesting > limits.maxDepth) {
          context.reportError(new GraphQLError(`Query depth ${nesting} exceeds the maximum depth of ${limits.maxDepth} (NETINV_GRAPHQL_MAX_DEPTH).`, { nodes: [node] }));
        }
        if (limits.maxComplexity > 0 && fields > limits.maxComplexity) {
          context.reportError(new GraphQLError(`Query complexity ${fields} exceeds the maximum complexity of ${limits.maxComplexity} (NETINV_GRAPHQL_MAX_COMPLEXITY).`, { nodes: [node] }));
        }
      },
    };
  };
}

/** A document refused for its nesting, in the shape of a formatted GraphQL error. */
export interface NestingError {
  message: string;
  locations: Array<{ line: number; column: number }>;
}

/** How deeply braces, brackets and parentheses may nest in a document: graphql-js parses and visits recursively. */
export const MAX_DOCUMENT_NESTING = 100;

/**
 * Where a document first nests deeper than `max` levels of `{`, `[` and `(`, or null: a linear scan
 * before parsing, so a deeply nested document is refused instead of overflowing the stack. Strings,
 * block strings and comments are skipped as the GraphQL lexer skips them.
 */
export function excessiveNesting(query: string, max = MAX_DOCUMENT_NESTING): NestingError | null {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  const n = query.length;
  for (let i = 0; i < n; i++) {
    const c = query[i];
    if (c === '\n' || (c === '\r' && query[i + 1] !== '\n')) {
      line += 1;
      lineStart = i + 1;
    } else if (c === '#') {
      while (i + 1 < n && query[i + 1] !== '\n' && query[i + 1] !== '\r') i++;
    } else if (c === '"') {
      if (query.startsWith('"""', i)) {
        // A block string runs to the next unescaped `"""` and may span lines.
        i += 3;
        while (i < n && !query.startsWith('"""', i)) {
          if (query.startsWith('\\"""', i)) i += 3;
          else if (query[i] === '\n' || (query[i] === '\r' && query[i + 1] !== '\n')) {
            line += 1;
            lineStart = i + 1;
          }
          i++;
        }
        i += 2;
      } else {
        // A string ends at its closing quote or, unterminated, at the end of the line (a syntax error later).
        i++;
        while (i < n && query[i] !== '"' && query[i] !== '\n' && query[i] !== '\r') i += query[i] === '\\' ? 2 : 1;
        if (query[i] === '\n' || query[i] === '\r') i--;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      depth += 1;
      if (depth > max) {
        return { message: `Query nested deeper than ${max} levels of braces, brackets and parentheses.`, locations: [{ line, column: i - lineStart + 1 }] };
      }
    } else if ((c === '}' || c === ']' || c === ')') && depth > 0) depth -= 1;
  }
  return null;
}
