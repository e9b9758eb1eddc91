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
