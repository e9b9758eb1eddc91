/**
 * Finds the route of a request path among the route table's paths in one walk of its segments.
 * Express tries its routes one regular expression after another, and with three hundred routes
 * under `/api` that walk cost more than the database read of a single object; here the cost
 * depends on the path's length alone.
 *
 * Paths are Express-style templates whose segments are either literal or a whole `:name`
 * parameter. When several templates match a path (a literal and a parameter segment at the
 * same place), the one added first wins, as it would in Express. Matching is case-sensitive and
 * strict about the trailing slash, like the API's Express router; parameters are
 * percent-decoded, and a malformed escape is Express's URIError with status 400.
 */

interface Node<T> {
  readonly literal: Map<string, Node<T>>;
  /** Parameter segments by name (routes may name the same position differently). */
  readonly params: Map<string, Node<T>>;
  /** The template ending here, with the order it was added in. */
  end: { readonly value: T; readonly order: number } | null;
}

export interface PathMatch<T> {
  readonly value: T;
  readonly params: Record<string, string>;
}

const newNode = <T>(): Node<T> => ({ literal: new Map(), params: new Map(), end: null });

export class PathMatcher<T> {
  private readonly root: Node<T> = newNode();
  private added = 0;

  /** Adds a template; one that cannot be matched by segments (patterns, wildcards) is refused. */
  add(template: string, value: T): void {
    if (!template.startsWith('/')) throw new Error(`route path ${template} does not start with /`);
    let node = this.root;
    for (const segment of template.slice(1).split('/')) {
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        if (!/^\w+$/.test(name)) throw new Error(`route path ${template}: unsupported parameter ${segment}`);
        let next = node.params.get(name);
        if (!next) node.params.set(name, (next = newNode()));
        node = next;
      } else {
        if (/[:*?+(){}[\]]/.test(segment)) throw new Error(`route path ${template}: unsupported segment ${segment}`);
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.end ??= { value, order: this.added++ };
  }

  /** The route of `path` (no query string) and its decoded parameters, or null. */
  match(path: string): PathMatch<T> | null {
    if (!path.startsWith('/')) return null;
    const segments = path.slice(1).split('/');
    const found = this.walk(this.root, segments, 0, []);
    if (!found) return null;
    const params: Record<string, string> = {};
    for (const [name, raw] of found.params) params[name] = decodeParam(raw);
    return { value: found.end.value, params };
  }

  /** The earliest-added template matching `segments` from `i`, with the raw parameters on its way. */
  private walk(node: Node<T>, segments: string[], i: number, params: Array<[string, string]>): { end: NonNullable<Node<T>['end']>; params: Array<[string, string]> } | null {
    if (i === segments.length) return node.end ? { end: node.end, params } : null;
    const segment = segments[i];
    const literal = node.literal.get(segment);
    let best = literal ? this.walk(literal, segments, i + 1, params) : null;
    if (segment === '') return best;
    for (const [name, child] of node.params) {
      const found = this.walk(child, segments, i + 1, [...params, [name, segment]]);
      if (found && (!best || found.end.order < best.end.order)) best = found;
    }
    return best;
  }
}

function decodeParam(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    // Express's own error for a malformed escape, which the error mapper answers as "not found".
    throw Object.assign(new URIError(`Failed to decode param '${raw}'`), { status: 400 });
  }
}
