/**
 * A small subset of Jinja2 for templates written against plain JSON data (computed fields):
 *
 *   {{ obj.site.name }}  {{ obj.tags[0].name | upper }}  {{ obj.cf.owner | default('nobody') }}
 *   {% if obj.status.value == 'active' %}up{% elif obj.tenant %}…{% else %}down{% endif %}
 *   {# a comment #}     {{- trims whitespace before, -}} after (also for {% %} tags)
 *
 * Nothing in a template can run code: expressions only read the context's own properties (the
 * context is JSON data, so there are no methods or prototypes to reach), filters come from the
 * fixed list below, there are no loops, and output is capped. Errors are TemplateErrors; the
 * caller decides what a failed rendering shows (a computed field's fallback value).
 *
 * Semantics follow Jinja's defaults: a missing attribute is undefined and renders as '', but
 * reading an attribute of an undefined value is an error; values print as Python's str() does
 * (None, True, ['a', 'b']); an object with a `display` prints as that (the str() of a model in
 * Nautobot), a choice object `{value, label}` as its label.
 */
import type { Json, JsonObject } from '../metadata/types';

export class TemplateError extends Error {}

/** The value of a missing name or attribute (Jinja's Undefined). */
class Undefined {
  constructor(readonly name: string) {}
}

type Value = Json | Undefined;

const MAX_OUTPUT = 65536;
const MAX_DEPTH = 32;

// -- tokens of expressions -----------------------------------------------------------------------

type Token =
  | { t: 'name'; v: string }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'op'; v: string };

const OPERATORS = ['==', '!=', '<=', '>=', '<', '>', '|', '.', ',', '(', ')', '[', ']'];

function tokenize(source: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i)) as RegExpExecArray;
      out.push({ t: 'name', v: m[0] });
      i += m[0].length;
      continue;
    }
    if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?/.exec(source.slice(i)) as RegExpExecArray;
      out.push({ t: 'num', v: Number(m[0]) });
      i += m[0].length;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\' && j + 1 < source.length) {
          const next = source[j + 1];
          text += next === 'n' ? '\n' : next === 't' ? '\t' : next;
          j += 2;
        } else {
          text += source[j++];
        }
      }
      if (j >= source.length) throw new TemplateError('unterminated string');
      out.push({ t: 'str', v: text });
      i = j + 1;
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (!op) throw new TemplateError(`unexpected character '${c}'`);
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

// -- expression trees ----------------------------------------------------------------------------

type Expr =
  | { e: 'lit'; v: Json }
  | { e: 'var'; name: string }
  | { e: 'attr'; of: Expr; key: Expr }
  | { e: 'filter'; of: Expr; name: string; args: Expr[] }
  | { e: 'not'; of: Expr }
  | { e: 'bool'; op: 'and' | 'or'; left: Expr; right: Expr }
  | { e: 'cmp'; op: string; left: Expr; right: Expr };

class ExprParser {
  private pos = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): Expr {
    const expr = this.or();
    if (this.pos < this.tokens.length) throw new TemplateError('unexpected tokens after expression');
    return expr;
  }
  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }
  private isOp(v: string): boolean {
    const t = this.peek();
    return t !== undefined && t.t === 'op' && t.v === v;
  }
  private isName(v: string): boolean {
    const t = this.peek();
    return t !== undefined && t.t === 'name' && t.v === v;
  }
  private expectOp(v: string): void {
    if (!this.isOp(v)) throw new TemplateError(`expected '${v}'`);
    this.pos++;
  }
  private or(): Expr {
    let left = this.and();
    while (this.isName('or')) {
      this.pos++;
      left = { e: 'bool', op: 'or', left, right: this.and() };
    }
    return left;
  }
  private and(): Expr {
    let left = this.not();
    while (this.isName('and')) {
      this.pos++;
      left = { e: 'bool', op: 'and', left, right: this.not() };
    }
    return left;
  }
  private not(): Expr {
    if (this.isName('not')) {
      this.pos++;
      return { e: 'not', of: this.not() };
    }
    return this.comparison();
  }
  private comparison(): Expr {
    const left = this.filtered();
    const t = this.peek();
    if (t && t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
      this.pos++;
      return { e: 'cmp', op: t.v, left, right: this.filtered() };
    }
    return left;
  }
  private filtered(): Expr {
    let expr = this.postfix();
    while (this.isOp('|')) {
      this.pos++;
      const t = this.peek();
      if (!t || t.t !== 'name') throw new TemplateError('expected a filter name');
      this.pos++;
      const args: Expr[] = [];
      if (this.isOp('(')) {
        this.pos++;
        while (!this.isOp(')')) {
          args.push(this.or());
          if (!this.isOp(')')) this.expectOp(',');
        }
        this.pos++;
      }
      expr = { e: 'filter', of: expr, name: t.v, args };
    }
    return expr;
  }
  private postfix(): Expr {
    let expr = this.primary();
    for (;;) {
      if (this.isOp('.')) {
        this.pos++;
        const t = this.peek();
        if (!t || (t.t !== 'name' && !(t.t === 'num' && Number.isInteger(t.v)))) throw new TemplateError('expected an attribute name');
        this.pos++;
        expr = { e: 'attr', of: expr, key: { e: 'lit', v: t.v } };
      } else if (this.isOp('[')) {
        this.pos++;
        const key = this.or();
        this.expectOp(']');
        expr = { e: 'attr', of: expr, key };
      } else if (this.isOp('(')) {
        throw new TemplateError('calls are not supported');
      } else {
        return expr;
      }
    }
  }
  private primary(): Expr {
    const t = this.peek();
    if (!t) throw new TemplateError('expected an expression');
    this.pos++;
    if (t.t === 'str' || t.t === 'num') return { e: 'lit', v: t.v };
    if (t.t === 'name') {
      if (t.v === 'true' || t.v === 'True') return { e: 'lit', v: true };
      if (t.v === 'false' || t.v === 'False') return { e: 'lit', v: false };
      if (t.v === 'none' || t.v === 'None') return { e: 'lit', v: null };
      return { e: 'var', name: t.v };
    }
    if (t.v === '(') {
      const inner = this.or();
      this.expectOp(')');
      return inner;
    }
    throw new TemplateError(`unexpected '${t.v}'`);
  }
}

// -- template structure --------------------------------------------------------------------------

type Node = { n: 'text'; text: string } | { n: 'out'; expr: Expr } | { n: 'if'; branches: Array<{ cond: Expr; body: Node[] }>; otherwise: Node[] };

interface Tag {
  kind: 'text' | 'out' | 'stmt';
  body: string;
}

/** Splits the source into text, `{{ }}` and `{% %}` pieces; comments are dropped; `-` trims. */
function lex(source: string): Tag[] {
  const tags: Tag[] = [];
  let i = 0;
  let trimNext = false;
  const pushText = (text: string, trimEnd: boolean) => {
    let t = trimNext ? text.replace(/^\s+/, '') : text;
    if (trimEnd) t = t.replace(/\s+$/, '');
    if (t) tags.push({ kind: 'text', body: t });
  };
  while (i < source.length) {
    const open = source.slice(i).search(/\{[{%#]/);
    if (open < 0) {
      pushText(source.slice(i), false);
      break;
    }
    const start = i + open;
    const kind = source[start + 1];
    const close = kind === '{' ? '}}' : kind === '%' ? '%}' : '#}';
    const end = source.indexOf(close, start + 2);
    if (end < 0) throw new TemplateError('unclosed tag');
    let inner = source.slice(start + 2, end);
    const trimBefore = inner.startsWith('-');
    if (trimBefore) inner = inner.slice(1);
    const trimAfter = inner.endsWith('-');
    if (trimAfter) inner = inner.slice(0, -1);
    pushText(source.slice(i, start), trimBefore);
    if (kind === '{') tags.push({ kind: 'out', body: inner });
    else if (kind === '%') tags.push({ kind: 'stmt', body: inner.trim() });
    trimNext = trimAfter;
    i = end + 2;
  }
  return tags;
}

function expression(source: string): Expr {
  return new ExprParser(tokenize(source)).parse();
}

/** Builds the node tree; `{% if %}` is the only statement. */
function parseNodes(tags: Tag[]): Node[] {
  let pos = 0;
  const block = (terminators: string[]): { nodes: Node[]; end: string | null } => {
    const nodes: Node[] = [];
    while (pos < tags.length) {
      const tag = tags[pos++];
      if (tag.kind === 'text') nodes.push({ n: 'text', text: tag.body });
      else if (tag.kind === 'out') nodes.push({ n: 'out', expr: expression(tag.body) });
      else {
        const [keyword] = tag.body.split(/\s+/, 1);
        if (terminators.includes(keyword)) {
          pos--;
          return { nodes, end: keyword };
        }
        if (keyword !== 'if') throw new TemplateError(`unsupported tag '${keyword}'`);
        const branches: Array<{ cond: Expr; body: Node[] }> = [];
        let cond = expression(tag.body.slice(2));
        let otherwise: Node[] = [];
        for (;;) {
          const inner = block(['elif', 'else', 'endif']);
          if (inner.end === null) throw new TemplateError("missing '{% endif %}'");
          const closing = tags[pos++];
          if (inner.end === 'elif') {
            branches.push({ cond, body: inner.nodes });
            cond = expression(closing.body.slice(4));
            continue;
          }
          branches.push({ cond, body: inner.nodes });
          if (inner.end === 'else') {
            const rest = block(['endif']);
            if (rest.end !== 'endif') throw new TemplateError("missing '{% endif %}'");
            pos++;
            otherwise = rest.nodes;
          }
          break;
        }
        nodes.push({ n: 'if', branches, otherwise });
      }
    }
    return { nodes, end: null };
  };
  const top = block([]);
  return top.nodes;
}

// -- values --------------------------------------------------------------------------------------

function isObject(v: Value): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Undefined);
}

function own(container: Json, key: string | number): Value {
  if (Array.isArray(container)) {
    if (typeof key !== 'number' || !Number.isInteger(key)) return new Undefined(String(key));
    const i = key < 0 ? container.length + key : key;
    return i >= 0 && i < container.length ? container[i] : new Undefined(String(key));
  }
  if (isObject(container) && Object.prototype.hasOwnProperty.call(container, String(key))) return container[String(key)];
  return new Undefined(String(key));
}

function truthy(v: Value): boolean {
  if (v instanceof Undefined || v === null || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isObject(v)) return Object.keys(v).length > 0;
  return true;
}

function quoted(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  return `${quote}${s.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`)}${quote}`;
}

/** Python's repr() of a value inside a list or dict. */
function repr(v: Value): string {
  if (typeof v === 'string') return quoted(v);
  if (isObject(v) && (typeof v.display === 'string' || typeof v.label === 'string')) return quoted(str(v));
  if (isObject(v)) return `{${Object.entries(v).map(([k, x]) => `${quoted(k)}: ${repr(x)}`).join(', ')}}`;
  return str(v);
}

/** Python's str() of a value, with objects printing as their display (a model's str()). */
function str(v: Value): string {
  if (v instanceof Undefined) return '';
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
  if (typeof v.display === 'string') return v.display;
  if (typeof v.label === 'string' && 'value' in v) return v.label;
  return repr(v);
}

function asJson(v: Value): Json {
  return v instanceof Undefined ? null : v;
}

function numberOf(v: Value, fallback: number): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*[-+]?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return fallback;
}

function title(s: string): string {
  return s.toLowerCase().replace(/(^|[^A-Za-z])([a-z])/g, (_m, before: string, c: string) => before + c.toUpperCase());
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

type Filter = (value: Value, args: Value[]) => Value;

/** The filters a template may use; each works on data only. */
const FILTERS: Record<string, Filter> = {
  upper: (v) => str(v).toUpperCase(),
  lower: (v) => str(v).toLowerCase(),
  title: (v) => title(str(v)),
  capitalize: (v) => {
    const s = str(v);
    return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  },
  trim: (v) => str(v).trim(),
  string: (v) => str(v),
  length: (v) => (typeof v === 'string' ? [...v].length : Array.isArray(v) ? v.length : isObject(v) ? Object.keys(v).length : 0),
  default: (v, [fallback = '', boolean = false]) => (v instanceof Undefined || (truthy(boolean) && !truthy(v)) ? asJson(fallback) : v),
  join: (v, [separator = '']) => (Array.isArray(v) ? v.map((x) => str(x)).join(str(separator)) : str(v).split('').join(str(separator))),
  first: (v) => (Array.isArray(v) ? (v.length ? v[0] : new Undefined('first')) : typeof v === 'string' ? v.charAt(0) : new Undefined('first')),
  last: (v) =>
    Array.isArray(v) ? (v.length ? v[v.length - 1] : new Undefined('last')) : typeof v === 'string' ? v.slice(-1) : new Undefined('last'),
  int: (v, [fallback = 0]) => Math.trunc(numberOf(v, numberOf(fallback, 0))),
  float: (v, [fallback = 0]) => numberOf(v, numberOf(fallback, 0)),
  abs: (v) => Math.abs(numberOf(v, NaN)),
  replace: (v, [from = '', to = '']) => str(v).split(str(from)).join(str(to)),
  truncate: (v, [length = 255, killwords = false, end = '...']) => {
    const s = str(v);
    const max = numberOf(length, 255);
    if (s.length <= max) return s;
    const tail = str(end);
    const cut = s.slice(0, Math.max(0, max - tail.length));
    return (truthy(killwords) ? cut : cut.replace(/\s+\S*$/, '')) + tail;
  },
  wordcount: (v) => str(v).split(/\s+/).filter(Boolean).length,
  tojson: (v) => JSON.stringify(asJson(v)),
  escape: (v) => escapeHtml(str(v)),
  e: (v) => escapeHtml(str(v)),
  safe: (v) => v,
};
FILTERS.d = FILTERS.default;
FILTERS.count = FILTERS.length;

function compare(op: string, a: Value, b: Value): boolean {
  if (op === '==' || op === '!=') {
    const equal = JSON.stringify(asJson(a)) === JSON.stringify(asJson(b)) && a instanceof Undefined === b instanceof Undefined;
    return op === '==' ? equal : !equal;
  }
  const comparable = (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
  if (!comparable) throw new TemplateError(`'${op}' not supported between these values`);
  const x = a as number | string;
  const y = b as number | string;
  return op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y;
}

function evaluate(expr: Expr, context: JsonObject, depth = 0): Value {
  if (depth > MAX_DEPTH) throw new TemplateError('expression too deep');
  switch (expr.e) {
    case 'lit':
      return expr.v;
    case 'var':
      return own(context, expr.name);
    case 'attr': {
      const container = evaluate(expr.of, context, depth + 1);
      if (container instanceof Undefined) throw new TemplateError(`'${container.name}' is undefined`);
      const key = evaluate(expr.key, context, depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number') return new Undefined(str(key));
      return own(container, key);
    }
    case 'filter': {
      const filter = Object.prototype.hasOwnProperty.call(FILTERS, expr.name) ? FILTERS[expr.name] : undefined;
      if (!filter) throw new TemplateError(`no filter named '${expr.name}'`);
      return filter(
        evaluate(expr.of, context, depth + 1),
        expr.args.map((a) => evaluate(a, context, depth + 1)),
      );
    }
    case 'not':
      return !truthy(evaluate(expr.of, context, depth + 1));
    case 'bool': {
      const left = evaluate(expr.left, context, depth + 1);
      if (expr.op === 'and') return truthy(left) ? evaluate(expr.right, context, depth + 1) : left;
      return truthy(left) ? left : evaluate(expr.right, context, depth + 1);
    }
    case 'cmp':
      return compare(expr.op, evaluate(expr.left, context, depth + 1), evaluate(expr.right, context, depth + 1));
  }
}

function renderNodes(nodes: Node[], context: JsonObject, out: string[], size: { n: number }): void {
  const emit = (text: string) => {
    size.n += text.length;
    if (size.n > MAX_OUTPUT) throw new TemplateError('output too large');
    out.push(text);
  };
  for (const node of nodes) {
    if (node.n === 'text') emit(node.text);
    else if (node.n === 'out') emit(str(evaluate(node.expr, context)));
    else {
      const branch = node.branches.find((b) => truthy(evaluate(b.cond, context)));
      renderNodes(branch ? branch.body : node.otherwise, context, out, size);
    }
  }
}

/** A parsed template, reusable for many contexts. */
export class Template {
  private readonly nodes: Node[];
  constructor(source: string) {
    this.nodes = parseNodes(lex(source));
  }
  render(context: JsonObject): string {
    const out: string[] = [];
    renderNodes(this.nodes, context, out, { n: 0 });
    return out.join('');
  }
}

/** Parses and renders in one step; throws TemplateError on any syntax or evaluation error. */
export function renderTemplate(source: string, context: JsonObject): string {
  return new Template(source).render(context);
}
