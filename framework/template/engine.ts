/**
 * The Jinja2 language of Nautobot's templates (computed fields, webhook bodies and headers,
 * custom links, export templates), evaluated over plain JSON data:
 *
 *   {{ obj.site.name }}  {{ obj.tags[0].name | upper }}  {{ obj.cf.owner | default('nobody') }}
 *   {% if obj.status.value == 'active' %}up{% elif obj.tenant %}…{% else %}down{% endif %}
 *   {% for d in queryset if d.status.value == 'active' %}{{ loop.index }},{{ d.name }}{% else %}none{% endfor %}
 *   {% set sep = ',' %}  {% set ns = namespace(n=0) %}{% set ns.n = ns.n + 1 %}
 *   {% macro row(d, sep=',') %}{{ d.name ~ sep ~ d.site.name }}{% endmacro %}{{ row(d) }}
 *   {# a comment #}  {% raw %}{{ kept as is }}{% endraw %}  {{- trims whitespace before, -}} after
 *
 * Nothing in a template can run code. Expressions read only own enumerable properties of the
 * data (objects and arrays; names starting with '__' are refused); the only callables are the
 * template's own macros, the globals `range` and `namespace`, and a few pure methods of strings
 * and mappings (`items()`, `keys()`, `values()`, `get()`, `split()`…) implemented here; filters
 * and tests come from the fixed lists below; `include`, `import`, `extends` and the other tags
 * that reach outside the template are not supported. Loop iterations, list sizes, macro
 * recursion, expression depth and output size are bounded. Every error is a TemplateError; the
 * caller decides what a failed rendering shows.
 *
 * Semantics follow Jinja's defaults: a missing attribute is undefined and renders as '', but
 * reading an attribute of an undefined value is an error; values print as Python's str() does
 * (None, True, ['a', 'b']); an object with a `display` prints as that (the str() of a model in
 * Nautobot), a choice object `{value, label}` as its label; a single trailing newline of the
 * template is dropped (keep_trailing_newline=False); no autoescaping.
 */
import type { JsonObject } from '../metadata/types';

export class TemplateError extends Error {}

/** The value of a missing name or attribute (Jinja's Undefined). */
class Undefined {
  constructor(readonly name: string) {}
}

/** A `{% macro %}` of the template: callable from expressions. */
class Macro {
  constructor(
    readonly name: string,
    readonly params: Array<{ name: string; fallback: Expr | null }>,
    readonly body: Node[],
    readonly closure: Scope,
  ) {}
}

/** `namespace(...)`: the one mutable object, for counters kept across loop iterations. */
class Namespace {
  readonly values = new Map<string, Value>();
}

/** A pure method of a string or mapping bound to its receiver (`d.items`, `s.split`). */
class BoundMethod {
  constructor(
    readonly name: string,
    readonly call: (args: Value[]) => Value,
  ) {}
}

type Value = unknown;

export interface TemplateLimits {
  /** Characters a rendering may produce. */
  maxOutput?: number;
  /** Loop iterations over a whole rendering. */
  maxIterations?: number;
}

const MAX_OUTPUT = 65536;
const MAX_ITERATIONS = 100_000;
const MAX_DEPTH = 64;
const MAX_CALL_DEPTH = 32;
const MAX_ITEMS = 100_000;
const MAX_STRING = 16 * 1024 * 1024;

// -- tokens of expressions -----------------------------------------------------------------------

type Token = { t: 'name'; v: string } | { t: 'str'; v: string } | { t: 'num'; v: number } | { t: 'op'; v: string };

const OPERATORS = ['**', '//', '==', '!=', '<=', '>=', '<', '>', '|', '.', ',', '(', ')', '[', ']', '{', '}', ':', '~', '+', '-', '*', '/', '%', '='];

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
      const afterDot = out.length > 0 && out[out.length - 1].t === 'op' && out[out.length - 1].v === '.';
      const m = (afterDot ? /^[0-9]+/ : /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?/).exec(source.slice(i)) as RegExpExecArray;
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
          text += next === 'n' ? '\n' : next === 't' ? '\t' : next === 'r' ? '\r' : next;
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

interface Args {
  args: Expr[];
  kwargs: Array<[string, Expr]>;
}

type Expr =
  | { e: 'lit'; v: Value }
  | { e: 'var'; name: string }
  | { e: 'attr'; of: Expr; key: Expr }
  | { e: 'slice'; of: Expr; start: Expr | null; stop: Expr | null }
  | { e: 'list'; items: Expr[] }
  | { e: 'dict'; items: Array<[Expr, Expr]> }
  | ({ e: 'filter'; of: Expr; name: string } & Args)
  | ({ e: 'test'; of: Expr; name: string; negate: boolean } & Args)
  | ({ e: 'call'; callee: Expr } & Args)
  | { e: 'not'; of: Expr }
  | { e: 'neg'; of: Expr }
  | { e: 'bool'; op: 'and' | 'or'; left: Expr; right: Expr }
  | { e: 'cmp'; first: Expr; rest: Array<[string, Expr]> }
  | { e: 'bin'; op: string; left: Expr; right: Expr }
  | { e: 'cond'; cond: Expr; then: Expr; otherwise: Expr | null };

const RESERVED_AFTER_TEST = new Set(['and', 'or', 'else', 'if', 'in', 'is', 'not']);

class ExprParser {
  pos = 0;
  constructor(readonly tokens: Token[]) {}

  parse(): Expr {
    const expr = this.expr();
    this.end();
    return expr;
  }
  end(): void {
    if (this.pos < this.tokens.length) throw new TemplateError('unexpected tokens after expression');
  }
  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }
  isOp(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.t === 'op' && t.v === v;
  }
  isName(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t !== undefined && t.t === 'name' && t.v === v;
  }
  expectOp(v: string): void {
    if (!this.isOp(v)) throw new TemplateError(`expected '${v}'`);
    this.pos++;
  }
  expectName(v?: string): string {
    const t = this.peek();
    if (!t || t.t !== 'name' || (v !== undefined && t.v !== v)) throw new TemplateError(v ? `expected '${v}'` : 'expected a name');
    this.pos++;
    return t.v;
  }
  /** A full expression, with `a if b else c`. */
  expr(): Expr {
    const value = this.or();
    if (this.isName('if')) {
      this.pos++;
      const cond = this.or();
      let otherwise: Expr | null = null;
      if (this.isName('else')) {
        this.pos++;
        otherwise = this.expr();
      }
      return { e: 'cond', cond, then: value, otherwise };
    }
    return value;
  }
  or(): Expr {
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
    const first = this.math1();
    const rest: Array<[string, Expr]> = [];
    for (;;) {
      const t = this.peek();
      if (t && t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)) {
        this.pos++;
        rest.push([t.v, this.math1()]);
      } else if (this.isName('in')) {
        this.pos++;
        rest.push(['in', this.math1()]);
      } else if (this.isName('not') && this.isName('in', 1)) {
        this.pos += 2;
        rest.push(['not in', this.math1()]);
      } else break;
    }
    return rest.length ? { e: 'cmp', first, rest } : first;
  }
  private math1(): Expr {
    let left = this.concat();
    while (this.isOp('+') || this.isOp('-')) {
      const op = (this.tokens[this.pos++] as { v: string }).v;
      left = { e: 'bin', op, left, right: this.concat() };
    }
    return left;
  }
  private concat(): Expr {
    let left = this.math2();
    while (this.isOp('~')) {
      this.pos++;
      left = { e: 'bin', op: '~', left, right: this.math2() };
    }
    return left;
  }
  private math2(): Expr {
    let left = this.pow();
    while (this.isOp('*') || this.isOp('/') || this.isOp('//') || this.isOp('%')) {
      const op = (this.tokens[this.pos++] as { v: string }).v;
      left = { e: 'bin', op, left, right: this.pow() };
    }
    return left;
  }
  private pow(): Expr {
    let left = this.unary();
    while (this.isOp('**')) {
      this.pos++;
      left = { e: 'bin', op: '**', left, right: this.unary() };
    }
    return left;
  }
  private unary(): Expr {
    if (this.isOp('-')) {
      this.pos++;
      return { e: 'neg', of: this.unary() };
    }
    if (this.isOp('+')) {
      this.pos++;
      return this.unary();
    }
    return this.filtered(this.postfix(this.primary()));
  }
  private callArgs(): Args {
    const args: Expr[] = [];
    const kwargs: Array<[string, Expr]> = [];
    this.expectOp('(');
    while (!this.isOp(')')) {
      const t = this.peek();
      if (t && t.t === 'name' && this.isOp('=', 1)) {
        this.pos += 2;
        kwargs.push([t.v, this.expr()]);
      } else {
        if (kwargs.length) throw new TemplateError('positional argument after keyword argument');
        args.push(this.expr());
      }
      if (!this.isOp(')')) this.expectOp(',');
    }
    this.pos++;
    return { args, kwargs };
  }
  private filtered(expr: Expr): Expr {
    for (;;) {
      if (this.isOp('|')) {
        this.pos++;
        const name = this.expectName();
        const a = this.isOp('(') ? this.callArgs() : { args: [], kwargs: [] };
        expr = this.postfix({ e: 'filter', of: expr, name, ...a });
      } else if (this.isName('is')) {
        this.pos++;
        let negate = false;
        if (this.isName('not')) {
          this.pos++;
          negate = true;
        }
        const t = this.peek();
        if (!t || !(t.t === 'name' || (t.t === 'op' && ['==', '!=', '<', '<=', '>', '>='].includes(t.v)))) throw new TemplateError('expected a test name');
        this.pos++;
        let a: Args = { args: [], kwargs: [] };
        const next = this.peek();
        if (this.isOp('(')) a = this.callArgs();
        else if (next && (next.t === 'str' || next.t === 'num' || (next.t === 'name' && !RESERVED_AFTER_TEST.has(next.v)))) {
          a = { args: [this.postfix(this.primary())], kwargs: [] };
        }
        expr = { e: 'test', of: expr, name: t.v, negate, ...a };
      } else return expr;
    }
  }
  private postfix(expr: Expr): Expr {
    for (;;) {
      if (this.isOp('.')) {
        this.pos++;
        const t = this.peek();
        if (!t || (t.t !== 'name' && !(t.t === 'num' && Number.isInteger(t.v)))) throw new TemplateError('expected an attribute name');
        this.pos++;
        expr = { e: 'attr', of: expr, key: { e: 'lit', v: t.v } };
      } else if (this.isOp('[')) {
        this.pos++;
        let start: Expr | null = null;
        if (!this.isOp(':')) start = this.expr();
        if (this.isOp(':')) {
          this.pos++;
          const stop = this.isOp(']') ? null : this.expr();
          this.expectOp(']');
          expr = { e: 'slice', of: expr, start, stop };
        } else {
          this.expectOp(']');
          expr = { e: 'attr', of: expr, key: start as Expr };
        }
      } else if (this.isOp('(')) {
        expr = { e: 'call', callee: expr, ...this.callArgs() };
      } else {
        return expr;
      }
    }
  }
  private primary(): Expr {
    const t = this.peek();
    if (!t) throw new TemplateError('expected an expression');
    this.pos++;
    if (t.t === 'str') {
      let text = t.v;
      while (this.peek()?.t === 'str') text += (this.tokens[this.pos++] as { v: string }).v;
      return { e: 'lit', v: text };
    }
    if (t.t === 'num') return { e: 'lit', v: t.v };
    if (t.t === 'name') {
      if (t.v === 'true' || t.v === 'True') return { e: 'lit', v: true };
      if (t.v === 'false' || t.v === 'False') return { e: 'lit', v: false };
      if (t.v === 'none' || t.v === 'None') return { e: 'lit', v: null };
      return { e: 'var', name: t.v };
    }
    if (t.v === '(') {
      if (this.isOp(')')) {
        this.pos++;
        return { e: 'list', items: [] };
      }
      const inner = this.expr();
      if (this.isOp(',')) {
        const items = [inner];
        while (this.isOp(',')) {
          this.pos++;
          if (this.isOp(')')) break;
          items.push(this.expr());
        }
        this.expectOp(')');
        return { e: 'list', items };
      }
      this.expectOp(')');
      return inner;
    }
    if (t.v === '[') {
      const items: Expr[] = [];
      while (!this.isOp(']')) {
        items.push(this.expr());
        if (!this.isOp(']')) this.expectOp(',');
      }
      this.pos++;
      return { e: 'list', items };
    }
    if (t.v === '{') {
      const items: Array<[Expr, Expr]> = [];
      while (!this.isOp('}')) {
        const key = this.expr();
        this.expectOp(':');
        items.push([key, this.expr()]);
        if (!this.isOp('}')) this.expectOp(',');
      }
      this.pos++;
      return { e: 'dict', items };
    }
    throw new TemplateError(`unexpected '${t.v}'`);
  }
}

// -- template structure --------------------------------------------------------------------------

type Node =
  | { n: 'text'; text: string }
  | { n: 'out'; expr: Expr }
  | { n: 'if'; branches: Array<{ cond: Expr; body: Node[] }>; otherwise: Node[] }
  | { n: 'for'; targets: string[]; iter: Expr; filter: Expr | null; body: Node[]; otherwise: Node[] }
  | { n: 'set'; name: string; attr: string | null; expr: Expr }
  | { n: 'setblock'; name: string; body: Node[] }
  | { n: 'macro'; name: string; params: Array<{ name: string; fallback: Expr | null }>; body: Node[] };

interface Tag {
  kind: 'text' | 'out' | 'stmt';
  body: string;
}

/** Where the `}}` or `%}` closing a tag opened at `from` is, skipping strings and nested braces. */
function closingOf(source: string, from: number, close: string): number {
  let depth = 0;
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === "'" || c === '"') {
      const end = source.indexOf(c, i + 1);
      if (end < 0) return -1;
      i = end;
    } else if (depth === 0 && source.startsWith(close, i)) return i;
    else if (c === '{' || c === '(' || c === '[') depth++;
    else if ((c === '}' || c === ')' || c === ']') && depth > 0) depth--;
  }
  return -1;
}

/** Splits the source into text, `{{ }}` and `{% %}` pieces; comments are dropped, raw blocks kept as text; `-` trims. */
function lex(source: string): Tag[] {
  if (source.endsWith('\r\n')) source = source.slice(0, -2);
  else if (source.endsWith('\n')) source = source.slice(0, -1);
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
    const end = kind === '#' ? source.indexOf(close, start + 2) : closingOf(source, start + 2, close);
    if (end < 0) throw new TemplateError(kind === '#' ? 'unclosed comment' : 'unclosed tag');
    let inner = source.slice(start + 2, end);
    const trimBefore = inner.startsWith('-');
    if (trimBefore) inner = inner.slice(1);
    let trimAfter = inner.endsWith('-');
    if (trimAfter) inner = inner.slice(0, -1);
    pushText(source.slice(i, start), trimBefore);
    i = end + 2;
    if (kind === '%' && inner.trim() === 'raw') {
      const endRaw = /\{%(-?)\s*endraw\s*(-?)%\}/.exec(source.slice(i));
      if (!endRaw) throw new TemplateError("missing '{% endraw %}'");
      let text = source.slice(i, i + endRaw.index);
      if (trimAfter) text = text.replace(/^\s+/, '');
      if (endRaw[1]) text = text.replace(/\s+$/, '');
      if (text) tags.push({ kind: 'text', body: text });
      i += endRaw.index + endRaw[0].length;
      trimAfter = endRaw[2] === '-';
    } else if (kind === '{') tags.push({ kind: 'out', body: inner });
    else if (kind === '%') tags.push({ kind: 'stmt', body: inner.trim() });
    trimNext = trimAfter;
  }
  return tags;
}

function expression(source: string): Expr {
  return new ExprParser(tokenize(source)).parse();
}

const UNSUPPORTED = new Set(['include', 'import', 'from', 'extends', 'block', 'call', 'filter', 'with', 'autoescape', 'do', 'break', 'continue']);

/** Builds the node tree from the tags. */
function parseNodes(tags: Tag[]): Node[] {
  let pos = 0;
  const keywordOf = (tag: Tag) => /^[A-Za-z_]*/.exec(tag.body)![0];
  const block = (terminators: string[]): { nodes: Node[]; end: string | null } => {
    const nodes: Node[] = [];
    while (pos < tags.length) {
      const tag = tags[pos++];
      if (tag.kind === 'text') {
        nodes.push({ n: 'text', text: tag.body });
        continue;
      }
      if (tag.kind === 'out') {
        nodes.push({ n: 'out', expr: expression(tag.body) });
        continue;
      }
      const keyword = keywordOf(tag);
      if (terminators.includes(keyword)) {
        pos--;
        return { nodes, end: keyword };
      }
      const rest = tag.body.slice(keyword.length);
      const until = (words: string[], closing: string): { nodes: Node[]; end: string; tag: Tag } => {
        const inner = block(words);
        if (inner.end === null) throw new TemplateError(`missing '{% ${closing} %}'`);
        return { nodes: inner.nodes, end: inner.end, tag: tags[pos++] };
      };
      if (keyword === 'if') {
        const branches: Array<{ cond: Expr; body: Node[] }> = [];
        let cond = expression(rest);
        let otherwise: Node[] = [];
        for (;;) {
          const inner = until(['elif', 'else', 'endif'], 'endif');
          branches.push({ cond, body: inner.nodes });
          if (inner.end === 'elif') {
            cond = expression(inner.tag.body.slice(4));
            continue;
          }
          if (inner.end === 'else') otherwise = until(['endif'], 'endif').nodes;
          break;
        }
        nodes.push({ n: 'if', branches, otherwise });
      } else if (keyword === 'for') {
        const p = new ExprParser(tokenize(rest));
        const targets: string[] = [];
        const paren = p.isOp('(');
        if (paren) p.pos++;
        do {
          if (targets.length) p.pos++;
          targets.push(p.expectName());
        } while (p.isOp(','));
        if (paren) p.expectOp(')');
        p.expectName('in');
        const iter = p.or();
        let filter: Expr | null = null;
        if (p.isName('if')) {
          p.pos++;
          filter = p.expr();
        }
        if (p.isName('recursive')) throw new TemplateError('recursive loops are not supported');
        p.end();
        const inner = until(['else', 'endfor'], 'endfor');
        const otherwise = inner.end === 'else' ? until(['endfor'], 'endfor').nodes : [];
        nodes.push({ n: 'for', targets, iter, filter, body: inner.nodes, otherwise });
      } else if (keyword === 'set') {
        const p = new ExprParser(tokenize(rest));
        const name = p.expectName();
        let attr: string | null = null;
        if (p.isOp('.')) {
          p.pos++;
          attr = p.expectName();
        }
        if (p.pos === p.tokens.length && attr === null) {
          nodes.push({ n: 'setblock', name, body: until(['endset'], 'endset').nodes });
        } else {
          p.expectOp('=');
          const expr = p.expr();
          p.end();
          nodes.push({ n: 'set', name, attr, expr });
        }
      } else if (keyword === 'macro') {
        const p = new ExprParser(tokenize(rest));
        const name = p.expectName();
        const params: Array<{ name: string; fallback: Expr | null }> = [];
        p.expectOp('(');
        while (!p.isOp(')')) {
          const param = p.expectName();
          let fallback: Expr | null = null;
          if (p.isOp('=')) {
            p.pos++;
            fallback = p.expr();
          }
          params.push({ name: param, fallback });
          if (!p.isOp(')')) p.expectOp(',');
        }
        p.pos++;
        p.end();
        nodes.push({ n: 'macro', name, params, body: until(['endmacro'], 'endmacro').nodes });
      } else if (UNSUPPORTED.has(keyword)) {
        throw new TemplateError(`the '${keyword}' tag is not supported`);
      } else {
        throw new TemplateError(`unknown tag '${keyword}'`);
      }
    }
    return { nodes, end: null };
  };
  const top = block([]);
  return top.nodes;
}

// -- values --------------------------------------------------------------------------------------

type Obj = { [key: string]: Value };

function isObject(v: Value): v is Obj {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function checkKey(key: string): void {
  if (key.startsWith('__')) throw new TemplateError(`access to '${key}' is not allowed`);
}

/** The own data at `key` of a container: array items, object properties, namespace values. */
function own(container: Value, key: string | number): Value {
  if (typeof key === 'string') checkKey(key);
  if (Array.isArray(container)) {
    if (typeof key !== 'number' || !Number.isInteger(key)) return new Undefined(String(key));
    const i = key < 0 ? container.length + key : key;
    return i >= 0 && i < container.length ? container[i] : new Undefined(String(key));
  }
  if (container instanceof Namespace) return container.values.has(String(key)) ? container.values.get(String(key)) : new Undefined(String(key));
  if (isObject(container) && Object.prototype.propertyIsEnumerable.call(container, String(key))) return container[String(key)];
  return new Undefined(String(key));
}

/** A dotted attribute path (`site.name`, `tags.0`) as used by sort(attribute=…) and friends. */
function attributePath(v: Value, path: Value): Value {
  let cur = v;
  for (const part of str(path).split('.')) {
    if (cur instanceof Undefined) return cur;
    cur = own(cur, /^\d+$/.test(part) ? Number(part) : part);
  }
  return cur;
}

function truthy(v: Value): boolean {
  if (v instanceof Undefined || v === null || v === undefined || v === false || v === 0 || v === '') return false;
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
  if (v instanceof Undefined || v === undefined) return '';
  if (v === null) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
  if (v instanceof Macro) return `<Macro '${v.name}'>`;
  if (v instanceof Namespace) return '<Namespace>';
  if (v instanceof BoundMethod) return `<method '${v.name}'>`;
  if (isObject(v)) {
    if (typeof v.display === 'string') return v.display;
    if (typeof v.label === 'string' && 'value' in v) return v.label;
    return repr(v);
  }
  return '';
}

/** The JSON form of a value (tojson, equality). */
function toJson(v: Value): unknown {
  if (v instanceof Undefined || v === undefined || v instanceof Macro || v instanceof BoundMethod) return null;
  if (v instanceof Namespace) return Object.fromEntries([...v.values].map(([k, x]) => [k, toJson(x)]));
  if (Array.isArray(v)) return v.map(toJson);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toJson(x)]));
  return v;
}

function numberOf(v: Value, fallback: number): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(v)) return Number(v);
  return fallback;
}

function num(v: Value, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new TemplateError(`${what}: expected a number, got ${quoted(str(v))}`);
}

function title(s: string): string {
  return s.toLowerCase().replace(/(^|[^A-Za-z0-9])([a-z])/g, (_m, before: string, c: string) => before + c.toUpperCase());
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

function items(v: Value, what: string): Value[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (isObject(v)) return Object.keys(v);
  if (v instanceof Undefined) return [];
  throw new TemplateError(`${what}: ${quoted(str(v))} is not iterable`);
}

function bounded<T>(list: T[]): T[] {
  if (list.length > MAX_ITEMS) throw new TemplateError(`a list may hold at most ${MAX_ITEMS} items`);
  return list;
}

function boundedString(s: string): string {
  if (s.length > MAX_STRING) throw new TemplateError('string too large');
  return s;
}

function equals(a: Value, b: Value): boolean {
  if (a instanceof Undefined || b instanceof Undefined) return a instanceof Undefined && b instanceof Undefined;
  if (typeof a === 'boolean' || typeof b === 'boolean') return numberOrSelf(a) === numberOrSelf(b);
  return JSON.stringify(toJson(a)) === JSON.stringify(toJson(b));
}
function numberOrSelf(v: Value): Value {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

function contains(container: Value, item: Value): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new TemplateError("'in <string>' requires a string on the left");
    return container.includes(item);
  }
  if (Array.isArray(container)) return container.some((x) => equals(x, item));
  if (isObject(container)) return typeof item === 'string' && Object.prototype.propertyIsEnumerable.call(container, item);
  if (container instanceof Undefined) throw new TemplateError(`'${container.name}' is undefined`);
  throw new TemplateError(`argument of type ${typeName(container)} is not iterable`);
}

function typeName(v: Value): string {
  if (v === null) return 'NoneType';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Undefined) return 'Undefined';
  return 'dict';
}

/** Ordering as Python's sorted() would (numbers with numbers, strings with strings, None first). */
function order(a: Value, b: Value, caseSensitive = true): number {
  a = numberOrSelf(a);
  b = numberOrSelf(b);
  if (a === null || a instanceof Undefined) return b === null || b instanceof Undefined ? 0 : -1;
  if (b === null || b instanceof Undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') {
    const x = caseSensitive ? a : a.toLowerCase();
    const y = caseSensitive ? b : b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = order(a[i], b[i], caseSensitive);
      if (c) return c;
    }
    return a.length - b.length;
  }
  if (typeof a === 'string' || typeof b === 'string' || typeof a === 'number' || typeof b === 'number') {
    if ((typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number')) {
      throw new TemplateError(`'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
    }
  }
  return str(a) < str(b) ? -1 : str(a) > str(b) ? 1 : 0;
}

// -- filters and tests ---------------------------------------------------------------------------

type Kwargs = Record<string, Value>;
type Filter = (value: Value, args: Value[], kwargs: Kwargs, state: RenderState) => Value;

/** Argument `index` or keyword `name` of a filter, else `fallback`. */
function arg(args: Value[], kwargs: Kwargs, index: number, name: string, fallback: Value): Value {
  if (Object.prototype.hasOwnProperty.call(kwargs, name)) return kwargs[name];
  return index < args.length ? args[index] : fallback;
}

type Test = (value: Value, args: Value[]) => boolean;

/** The tests of `x is <test>`, and of select/reject/selectattr/rejectattr. */
const TESTS: Record<string, Test> = {
  defined: (v) => !(v instanceof Undefined),
  undefined: (v) => v instanceof Undefined,
  none: (v) => v === null,
  true: (v) => v === true,
  false: (v) => v === false,
  boolean: (v) => typeof v === 'boolean',
  number: (v) => typeof v === 'number',
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  float: (v) => typeof v === 'number' && !Number.isInteger(v),
  string: (v) => typeof v === 'string',
  mapping: (v) => isObject(v) || v instanceof Namespace,
  iterable: (v) => Array.isArray(v) || typeof v === 'string' || isObject(v),
  sequence: (v) => Array.isArray(v) || typeof v === 'string' || isObject(v),
  callable: (v) => v instanceof Macro || v instanceof BoundMethod,
  odd: (v) => num(v, 'odd') % 2 !== 0,
  even: (v) => num(v, 'even') % 2 === 0,
  divisibleby: (v, [n]) => num(v, 'divisibleby') % num(n, 'divisibleby') === 0,
  lower: (v) => typeof v === 'string' && v === v.toLowerCase(),
  upper: (v) => typeof v === 'string' && v === v.toUpperCase(),
  equalto: (v, [x]) => equals(v, x),
  ne: (v, [x]) => !equals(v, x),
  lt: (v, [x]) => order(v, x) < 0,
  le: (v, [x]) => order(v, x) <= 0,
  gt: (v, [x]) => order(v, x) > 0,
  ge: (v, [x]) => order(v, x) >= 0,
  in: (v, [x]) => contains(x, v),
  sameas: (v, [x]) => v === x,
  filter: (v) => typeof v === 'string' && Object.prototype.hasOwnProperty.call(FILTERS, v),
  test: (v) => typeof v === 'string' && Object.prototype.hasOwnProperty.call(TESTS, v),
};
TESTS.eq = TESTS.equalto;
TESTS['=='] = TESTS.equalto;
TESTS['!='] = TESTS.ne;
TESTS['<'] = TESTS.lt;
TESTS['<='] = TESTS.le;
TESTS['>'] = TESTS.gt;
TESTS['>='] = TESTS.ge;
TESTS.greaterthan = TESTS.gt;
TESTS.lessthan = TESTS.lt;

function testNamed(name: Value): Test {
  const n = str(name);
  if (!Object.prototype.hasOwnProperty.call(TESTS, n)) throw new TemplateError(`no test named '${n}'`);
  return TESTS[n];
}

function filterNamed(name: Value): Filter {
  const n = str(name);
  if (!Object.prototype.hasOwnProperty.call(FILTERS, n)) throw new TemplateError(`no filter named '${n}'`);
  return FILTERS[n];
}

/** select/reject/selectattr/rejectattr. */
function selecting(byAttribute: boolean, keep: boolean): Filter {
  return (v, args) => {
    const [attribute, testName, ...testArgs] = byAttribute ? args : [null, ...args];
    const test: Test = testName === undefined ? (x) => truthy(x) : testNamed(testName);
    return items(v, 'select').filter((x) => test(byAttribute ? attributePath(x, attribute) : x, testArgs) === keep);
  };
}

function pyRound(value: number, precision: number, method: string): number {
  const factor = 10 ** precision;
  const scaled = value * factor;
  if (method === 'ceil') return Math.ceil(scaled) / factor;
  if (method === 'floor') return Math.floor(scaled) / factor;
  if (method !== 'common') throw new TemplateError("round: method must be 'common', 'ceil' or 'floor'");
  return (Math.sign(scaled) * Math.round(Math.abs(scaled))) / factor;
}

/** The filters a template may use; each works on data only. */
const FILTERS: Record<string, Filter> = {
  upper: (v) => str(v).toUpperCase(),
  lower: (v) => str(v).toLowerCase(),
  title: (v) => title(str(v)),
  capitalize: (v) => {
    const s = str(v);
    return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
  },
  trim: (v, args, kw) => {
    const chars = arg(args, kw, 0, 'chars', null);
    if (chars === null) return str(v).trim();
    const set = new Set(str(chars));
    const s = [...str(v)];
    let a = 0;
    let b = s.length;
    while (a < b && set.has(s[a])) a++;
    while (b > a && set.has(s[b - 1])) b--;
    return s.slice(a, b).join('');
  },
  string: (v) => str(v),
  length: (v) => (typeof v === 'string' ? [...v].length : Array.isArray(v) ? v.length : isObject(v) ? Object.keys(v).length : 0),
  default: (v, args, kw) => {
    const fallback = arg(args, kw, 0, 'default_value', '');
    return v instanceof Undefined || (truthy(arg(args, kw, 1, 'boolean', false)) && !truthy(v)) ? fallback : v;
  },
  join: (v, args, kw) => {
    const attribute = arg(args, kw, 1, 'attribute', null);
    const list = items(v, 'join').map((x) => (attribute === null ? x : attributePath(x, attribute)));
    return boundedString(list.map((x) => str(x)).join(str(arg(args, kw, 0, 'd', ''))));
  },
  first: (v) => {
    const list = items(v, 'first');
    return list.length ? list[0] : new Undefined('first');
  },
  last: (v) => {
    const list = items(v, 'last');
    return list.length ? list[list.length - 1] : new Undefined('last');
  },
  int: (v, args, kw) => {
    const fallback = arg(args, kw, 0, 'default', 0);
    const base = numberOf(arg(args, kw, 1, 'base', 10), 10);
    if (typeof v === 'string' && base !== 10) {
      const n = parseInt(v.trim().replace(/^0[xob]/i, ''), base);
      return Number.isNaN(n) ? fallback : n;
    }
    return Math.trunc(numberOf(v, numberOf(fallback, 0)));
  },
  float: (v, args, kw) => numberOf(v, numberOf(arg(args, kw, 0, 'default', 0), 0)),
  abs: (v) => Math.abs(num(v, 'abs')),
  round: (v, args, kw) => pyRound(num(v, 'round'), numberOf(arg(args, kw, 0, 'precision', 0), 0), str(arg(args, kw, 1, 'method', 'common'))),
  replace: (v, args, kw) => {
    const s = str(v);
    const from = str(arg(args, kw, 0, 'old', ''));
    const to = str(arg(args, kw, 1, 'new', ''));
    const count = arg(args, kw, 2, 'count', null);
    const parts = s.split(from);
    if (count === null || numberOf(count, -1) < 0) return boundedString(parts.join(to));
    const n = numberOf(count, 0);
    return boundedString(parts.slice(0, n + 1).join(to) + (parts.length > n + 1 ? from + parts.slice(n + 1).join(from) : ''));
  },
  truncate: (v, args, kw) => {
    const s = str(v);
    const max = numberOf(arg(args, kw, 0, 'length', 255), 255);
    const tail = str(arg(args, kw, 2, 'end', '...'));
    const leeway = numberOf(arg(args, kw, 3, 'leeway', 5), 5);
    if (s.length <= max + leeway) return s;
    const cut = s.slice(0, Math.max(0, max - tail.length));
    return (truthy(arg(args, kw, 1, 'killwords', false)) ? cut : cut.replace(/\s+\S*$/, '')) + tail;
  },
  wordcount: (v) => str(v).split(/\s+/).filter(Boolean).length,
  tojson: (v, args, kw) => {
    const indent = arg(args, kw, 0, 'indent', null);
    const text = JSON.stringify(toJson(v), null, indent === null ? undefined : numberOf(indent, 0)) ?? 'null';
    return text.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/'/g, '\\u0027');
  },
  escape: (v) => escapeHtml(str(v)),
  forceescape: (v) => escapeHtml(str(v)),
  safe: (v) => v,
  sort: (v, args, kw) => {
    const reverse = truthy(arg(args, kw, 0, 'reverse', false));
    const caseSensitive = truthy(arg(args, kw, 1, 'case_sensitive', false));
    const attribute = arg(args, kw, 2, 'attribute', null);
    const key = (x: Value) => (attribute === null ? x : attributePath(x, attribute));
    const sorted = [...items(v, 'sort')].sort((a, b) => order(key(a), key(b), caseSensitive));
    return reverse ? sorted.reverse() : sorted;
  },
  dictsort: (v, args, kw) => {
    if (!isObject(v)) throw new TemplateError('dictsort: expected a mapping');
    const caseSensitive = truthy(arg(args, kw, 0, 'case_sensitive', false));
    const byValue = str(arg(args, kw, 1, 'by', 'key')) === 'value';
    const sorted = Object.entries(v).sort((a, b) => order(byValue ? a[1] : a[0], byValue ? b[1] : b[0], caseSensitive));
    return truthy(arg(args, kw, 2, 'reverse', false)) ? sorted.reverse() : sorted;
  },
  unique: (v, args, kw) => {
    const caseSensitive = truthy(arg(args, kw, 0, 'case_sensitive', false));
    const attribute = arg(args, kw, 1, 'attribute', null);
    const seen: Value[] = [];
    const out: Value[] = [];
    for (const x of items(v, 'unique')) {
      let k = attribute === null ? x : attributePath(x, attribute);
      if (!caseSensitive && typeof k === 'string') k = k.toLowerCase();
      if (!seen.some((s) => equals(s, k))) {
        seen.push(k);
        out.push(x);
      }
    }
    return out;
  },
  select: selecting(false, true),
  reject: selecting(false, false),
  selectattr: selecting(true, true),
  rejectattr: selecting(true, false),
  map: (v, args, kw, state) => {
    const list = items(v, 'map');
    if (Object.prototype.hasOwnProperty.call(kw, 'attribute')) {
      const fallback = Object.prototype.hasOwnProperty.call(kw, 'default') ? kw.default : undefined;
      return list.map((x) => {
        const got = attributePath(x, kw.attribute);
        return got instanceof Undefined && fallback !== undefined ? fallback : got;
      });
    }
    if (!args.length) throw new TemplateError('map: expected a filter name or attribute=');
    const [name, ...rest] = args;
    const filter = filterNamed(name);
    return list.map((x) => filter(x, rest, kw, state));
  },
  list: (v) => [...items(v, 'list')],
  items: (v) => (isObject(v) ? Object.entries(v) : v instanceof Undefined ? [] : (() => { throw new TemplateError('items: expected a mapping'); })()),
  reverse: (v) => (typeof v === 'string' ? [...v].reverse().join('') : [...items(v, 'reverse')].reverse()),
  sum: (v, args, kw) => {
    const attribute = arg(args, kw, 0, 'attribute', null);
    return items(v, 'sum').reduce<number>((acc, x) => acc + num(attribute === null ? x : attributePath(x, attribute), 'sum'), num(arg(args, kw, 1, 'start', 0), 'sum'));
  },
  min: (v, args, kw) => extreme(v, args, kw, -1),
  max: (v, args, kw) => extreme(v, args, kw, 1),
  indent: (v, args, kw) => {
    const width = arg(args, kw, 0, 'width', 4);
    const pad = typeof width === 'string' ? width : ' '.repeat(Math.min(Math.max(0, numberOf(width, 4)), 1000));
    const first = truthy(arg(args, kw, 1, 'first', false));
    const blank = truthy(arg(args, kw, 2, 'blank', false));
    const lines = str(v).split('\n');
    return boundedString(lines.map((line, i) => ((i > 0 || first) && (blank || line.trim() !== '') ? pad + line : line)).join('\n'));
  },
  center: (v, args, kw) => {
    const s = str(v);
    const width = Math.min(numberOf(arg(args, kw, 0, 'width', 80), 80), 10000);
    const pad = width - s.length;
    if (pad <= 0) return s;
    const left = Math.floor(pad / 2) + (pad & width & 1);
    return ' '.repeat(left) + s + ' '.repeat(pad - left);
  },
  batch: (v, args, kw) => {
    const size = Math.trunc(numberOf(arg(args, kw, 0, 'linecount', 1), 1));
    if (size < 1) throw new TemplateError('batch: linecount must be at least 1');
    const fill = arg(args, kw, 1, 'fill_with', null);
    const list = items(v, 'batch');
    const out: Value[][] = [];
    for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
    const lastBatch = out[out.length - 1];
    if (fill !== null && lastBatch) while (lastBatch.length < size) lastBatch.push(fill);
    return out;
  },
  slice: (v, args, kw) => {
    const slices = Math.trunc(numberOf(arg(args, kw, 0, 'slices', 1), 1));
    if (slices < 1 || slices > MAX_ITEMS) throw new TemplateError('slice: slices must be at least 1');
    const list = items(v, 'slice');
    const per = Math.floor(list.length / slices);
    const extra = list.length % slices;
    const out: Value[][] = [];
    let offset = 0;
    for (let i = 0; i < slices; i++) {
      const n = per + (i < extra ? 1 : 0);
      out.push(list.slice(offset, offset + n));
      offset += n;
    }
    return out;
  },
  groupby: (v, args, kw) => {
    const attribute = arg(args, kw, 0, 'attribute', null);
    const groups: Array<{ grouper: Value; list: Value[] }> = [];
    const sorted = [...items(v, 'groupby')].sort((a, b) => order(attributePath(a, attribute), attributePath(b, attribute)));
    for (const x of sorted) {
      const key = attributePath(x, attribute);
      const last = groups[groups.length - 1];
      if (last && equals(last.grouper, key)) last.list.push(x);
      else groups.push({ grouper: key, list: [x] });
    }
    return groups;
  },
  format: (v, args) => {
    let i = 0;
    return str(v).replace(/%([-0-9.]*)([sdif%r])/g, (_m, spec: string, type: string) => {
      if (type === '%') return '%';
      const x = args[i++];
      if (type === 's') return str(x);
      if (type === 'r') return repr(x);
      const n = num(x, 'format');
      const precision = /\.(\d+)/.exec(spec);
      return type === 'f' ? n.toFixed(precision ? Number(precision[1]) : 6) : String(Math.trunc(n));
    });
  },
  striptags: (v) => str(v).replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim(),
  urlencode: (v) => encodeURIComponent(str(v)).replace(/%2F/g, '/'),
};
FILTERS.d = FILTERS.default;
FILTERS.count = FILTERS.length;
FILTERS.e = FILTERS.escape;

function extreme(v: Value, args: Value[], kw: Kwargs, sign: 1 | -1): Value {
  const caseSensitive = truthy(arg(args, kw, 0, 'case_sensitive', false));
  const attribute = arg(args, kw, 1, 'attribute', null);
  const list = items(v, sign > 0 ? 'max' : 'min');
  if (!list.length) return new Undefined(sign > 0 ? 'max' : 'min');
  const key = (x: Value) => (attribute === null ? x : attributePath(x, attribute));
  return list.reduce((best, x) => (sign * order(key(x), key(best), caseSensitive) > 0 ? x : best));
}

// -- evaluation ----------------------------------------------------------------------------------

class Scope {
  private readonly vars = new Map<string, Value>();
  constructor(
    private readonly parent: Scope | null,
    private readonly root: JsonObject | null = null,
  ) {}
  lookup(name: string): Value {
    checkKey(name);
    if (this.vars.has(name)) return this.vars.get(name);
    if (this.parent) return this.parent.lookup(name);
    if (this.root && Object.prototype.propertyIsEnumerable.call(this.root, name)) return this.root[name];
    return GLOBALS.has(name) ? GLOBALS.get(name) : new Undefined(name);
  }
  set(name: string, value: Value): void {
    checkKey(name);
    this.vars.set(name, value);
  }
}

interface RenderState {
  size: number;
  maxOutput: number;
  iterations: number;
  maxIterations: number;
  calls: number;
}

const GLOBALS = new Map<string, Value>([
  [
    'range',
    new BoundMethod('range', (args) => {
      const n = args.map((a) => Math.trunc(num(a, 'range')));
      const [start, stop, step] = n.length === 1 ? [0, n[0], 1] : [n[0], n[1], n[2] ?? 1];
      if (step === 0) throw new TemplateError('range() step must not be zero');
      const count = Math.max(0, Math.ceil((stop - start) / step));
      if (!Number.isFinite(count) || count > MAX_ITEMS) throw new TemplateError(`range() may produce at most ${MAX_ITEMS} items`);
      return Array.from({ length: count }, (_x, i) => start + i * step);
    }),
  ],
  ['namespace', new BoundMethod('namespace', () => new Namespace())],
  ['dict', new BoundMethod('dict', () => ({}))],
]);

/** The pure methods of strings and mappings a template may call. */
function methodOf(container: Value, name: string): BoundMethod | null {
  if (typeof container === 'string') {
    const s = container;
    const methods: Record<string, (a: Value[]) => Value> = {
      upper: () => s.toUpperCase(),
      lower: () => s.toLowerCase(),
      strip: (a) => FILTERS.trim(s, a, {}, null as never),
      startswith: ([x]) => s.startsWith(str(x)),
      endswith: ([x]) => s.endsWith(str(x)),
      split: ([sep, max]) => {
        const parts = sep === undefined || sep === null ? s.trim().split(/\s+/).filter(Boolean) : s.split(str(sep));
        if (max === undefined || numberOf(max, -1) < 0) return bounded(parts);
        const n = numberOf(max, 0);
        return parts.length > n + 1 ? [...parts.slice(0, n), parts.slice(n).join(str(sep))] : parts;
      },
      replace: ([a, b]) => boundedString(s.split(str(a)).join(str(b))),
      format: (a) => FILTERS.format(s.replace(/\{\}/g, '%s'), a, {}, null as never),
    };
    return Object.prototype.hasOwnProperty.call(methods, name) ? new BoundMethod(name, methods[name]) : null;
  }
  if (isObject(container)) {
    const o = container;
    const methods: Record<string, (a: Value[]) => Value> = {
      items: () => Object.entries(o),
      keys: () => Object.keys(o),
      values: () => Object.values(o),
      get: ([k, fallback = null]) => {
        const got = own(o, str(k));
        return got instanceof Undefined ? fallback : got;
      },
    };
    return Object.prototype.hasOwnProperty.call(methods, name) ? new BoundMethod(name, methods[name]) : null;
  }
  return null;
}

function arithmetic(op: string, a: Value, b: Value): Value {
  if (op === '~') return boundedString(str(a) + str(b));
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return boundedString(a + b);
  if (op === '+' && Array.isArray(a) && Array.isArray(b)) return bounded([...a, ...b]);
  if (op === '*' && (typeof a === 'string' || Array.isArray(a)) && typeof b === 'number') {
    const times = Math.max(0, Math.trunc(b));
    if (a.length * times > (typeof a === 'string' ? MAX_STRING : MAX_ITEMS)) throw new TemplateError('result too large');
    return typeof a === 'string' ? a.repeat(times) : Array.from({ length: times }, () => a).flat();
  }
  if (op === '%' && typeof a === 'string') return FILTERS.format(a, Array.isArray(b) ? b : [b], {}, null as never);
  const x = num(a, `'${op}'`);
  const y = num(b, `'${op}'`);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      if (y === 0) throw new TemplateError('division by zero');
      return x / y;
    case '//':
      if (y === 0) throw new TemplateError('division by zero');
      return Math.floor(x / y);
    case '%':
      if (y === 0) throw new TemplateError('modulo by zero');
      return ((x % y) + y) % y;
    default: {
      const r = x ** y;
      if (!Number.isFinite(r) || Math.abs(r) > Number.MAX_SAFE_INTEGER) throw new TemplateError('number too large');
      return r;
    }
  }
}

function compare(op: string, a: Value, b: Value): boolean {
  switch (op) {
    case '==':
      return equals(a, b);
    case '!=':
      return !equals(a, b);
    case 'in':
      return contains(b, a);
    case 'not in':
      return !contains(b, a);
  }
  const x = numberOrSelf(a);
  const y = numberOrSelf(b);
  const comparable = (typeof x === 'number' && typeof y === 'number') || (typeof x === 'string' && typeof y === 'string');
  if (!comparable) throw new TemplateError(`'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  const p = x as number | string;
  const q = y as number | string;
  return op === '<' ? p < q : op === '<=' ? p <= q : op === '>' ? p > q : p >= q;
}

function evalArgs(a: Args, scope: Scope, state: RenderState, depth: number): { args: Value[]; kwargs: Kwargs } {
  const kwargs: Kwargs = Object.create(null) as Kwargs;
  for (const [k, x] of a.kwargs) kwargs[k] = evaluate(x, scope, state, depth + 1);
  return { args: a.args.map((x) => evaluate(x, scope, state, depth + 1)), kwargs };
}

function callMacro(macro: Macro, args: Value[], kwargs: Kwargs, state: RenderState): string {
  if (state.calls >= MAX_CALL_DEPTH) throw new TemplateError(`macro calls nested deeper than ${MAX_CALL_DEPTH}`);
  if (args.length > macro.params.length) throw new TemplateError(`macro '${macro.name}' takes ${macro.params.length} arguments`);
  for (const k of Object.keys(kwargs)) {
    if (!macro.params.some((p) => p.name === k)) throw new TemplateError(`macro '${macro.name}' has no argument '${k}'`);
  }
  const scope = new Scope(macro.closure);
  macro.params.forEach((p, i) => {
    if (i < args.length) scope.set(p.name, args[i]);
    else if (Object.prototype.hasOwnProperty.call(kwargs, p.name)) scope.set(p.name, kwargs[p.name]);
    else scope.set(p.name, p.fallback ? evaluate(p.fallback, scope, state, 0) : new Undefined(p.name));
  });
  const out: string[] = [];
  state.calls++;
  try {
    renderNodes(macro.body, scope, out, state);
  } finally {
    state.calls--;
  }
  return out.join('');
}

function evaluate(expr: Expr, scope: Scope, state: RenderState, depth: number): Value {
  if (depth > MAX_DEPTH) throw new TemplateError('expression too deep');
  switch (expr.e) {
    case 'lit':
      return expr.v;
    case 'var':
      return scope.lookup(expr.name);
    case 'attr': {
      const container = evaluate(expr.of, scope, state, depth + 1);
      if (container instanceof Undefined) throw new TemplateError(`'${container.name}' is undefined`);
      const key = evaluate(expr.key, scope, state, depth + 1);
      if (typeof key !== 'string' && typeof key !== 'number') return new Undefined(str(key));
      const got = own(container, key);
      if (got instanceof Undefined && typeof key === 'string') return methodOf(container, key) ?? got;
      return got;
    }
    case 'slice': {
      const container = evaluate(expr.of, scope, state, depth + 1);
      const start = expr.start ? Math.trunc(num(evaluate(expr.start, scope, state, depth + 1), 'slice')) : undefined;
      const stop = expr.stop ? Math.trunc(num(evaluate(expr.stop, scope, state, depth + 1), 'slice')) : undefined;
      if (typeof container === 'string') return [...container].slice(start, stop).join('');
      if (Array.isArray(container)) return container.slice(start, stop);
      throw new TemplateError(`cannot slice ${typeName(container)}`);
    }
    case 'list':
      return bounded(expr.items.map((x) => evaluate(x, scope, state, depth + 1)));
    case 'dict':
      return Object.fromEntries(
        expr.items.map(([k, x]) => {
          const key = str(evaluate(k, scope, state, depth + 1));
          checkKey(key);
          return [key, evaluate(x, scope, state, depth + 1)];
        }),
      );
    case 'filter': {
      const filter = filterNamed(expr.name);
      const value = evaluate(expr.of, scope, state, depth + 1);
      const { args, kwargs } = evalArgs(expr, scope, state, depth);
      return filter(value, args, kwargs, state);
    }
    case 'test': {
      const test = testNamed(expr.name);
      const value = evaluate(expr.of, scope, state, depth + 1);
      const { args } = evalArgs(expr, scope, state, depth);
      return test(value, args) !== expr.negate;
    }
    case 'call': {
      const callee = evaluate(expr.callee, scope, state, depth + 1);
      const { args, kwargs } = evalArgs(expr, scope, state, depth);
      if (callee instanceof Macro) return callMacro(callee, args, kwargs, state);
      if (callee instanceof BoundMethod) {
        if (callee.name === 'namespace' || callee.name === 'dict') {
          if (args.length) throw new TemplateError(`${callee.name}() takes keyword arguments only`);
          if (callee.name === 'dict') return Object.fromEntries(Object.entries(kwargs));
          const ns = new Namespace();
          for (const [k, x] of Object.entries(kwargs)) ns.values.set(k, x);
          return ns;
        }
        return callee.call(args);
      }
      if (callee instanceof Undefined) throw new TemplateError(`'${callee.name}' is undefined`);
      throw new TemplateError(`${typeName(callee)} is not callable: only macros and the listed methods can be called`);
    }
    case 'not':
      return !truthy(evaluate(expr.of, scope, state, depth + 1));
    case 'neg':
      return -num(evaluate(expr.of, scope, state, depth + 1), 'negation');
    case 'bool': {
      const left = evaluate(expr.left, scope, state, depth + 1);
      if (expr.op === 'and') return truthy(left) ? evaluate(expr.right, scope, state, depth + 1) : left;
      return truthy(left) ? left : evaluate(expr.right, scope, state, depth + 1);
    }
    case 'cmp': {
      let left = evaluate(expr.first, scope, state, depth + 1);
      for (const [op, r] of expr.rest) {
        const right = evaluate(r, scope, state, depth + 1);
        if (!compare(op, left, right)) return false;
        left = right;
      }
      return true;
    }
    case 'bin':
      return arithmetic(expr.op, evaluate(expr.left, scope, state, depth + 1), evaluate(expr.right, scope, state, depth + 1));
    case 'cond':
      if (truthy(evaluate(expr.cond, scope, state, depth + 1))) return evaluate(expr.then, scope, state, depth + 1);
      return expr.otherwise ? evaluate(expr.otherwise, scope, state, depth + 1) : new Undefined('else');
  }
}

function renderNodes(nodes: Node[], scope: Scope, out: string[], state: RenderState): void {
  const emit = (text: string) => {
    state.size += text.length;
    if (state.size > state.maxOutput) throw new TemplateError(`output larger than ${state.maxOutput} characters`);
    out.push(text);
  };
  for (const node of nodes) {
    switch (node.n) {
      case 'text':
        emit(node.text);
        break;
      case 'out':
        emit(str(evaluate(node.expr, scope, state, 0)));
        break;
      case 'if': {
        const branch = node.branches.find((b) => truthy(evaluate(b.cond, scope, state, 0)));
        renderNodes(branch ? branch.body : node.otherwise, scope, out, state);
        break;
      }
      case 'for': {
        const all = items(evaluate(node.iter, scope, state, 0), 'for');
        const list = node.filter
          ? all.filter((x) => {
              const s = new Scope(scope);
              bind(s, node.targets, x);
              return truthy(evaluate(node.filter as Expr, s, state, 0));
            })
          : all;
        if (!list.length) {
          renderNodes(node.otherwise, scope, out, state);
          break;
        }
        list.forEach((x, i) => {
          if (++state.iterations > state.maxIterations) throw new TemplateError(`more than ${state.maxIterations} loop iterations`);
          const s = new Scope(scope);
          bind(s, node.targets, x);
          s.set('loop', {
            index: i + 1,
            index0: i,
            revindex: list.length - i,
            revindex0: list.length - i - 1,
            first: i === 0,
            last: i === list.length - 1,
            length: list.length,
            previtem: i > 0 ? list[i - 1] : new Undefined('previtem'),
            nextitem: i < list.length - 1 ? list[i + 1] : new Undefined('nextitem'),
          });
          renderNodes(node.body, s, out, state);
        });
        break;
      }
      case 'set': {
        const value = evaluate(node.expr, scope, state, 0);
        if (node.attr === null) scope.set(node.name, value);
        else {
          const target = scope.lookup(node.name);
          if (!(target instanceof Namespace)) throw new TemplateError(`'${node.name}' is not a namespace: only namespace() attributes can be set`);
          checkKey(node.attr);
          target.values.set(node.attr, value);
        }
        break;
      }
      case 'setblock': {
        const inner: string[] = [];
        renderNodes(node.body, scope, inner, state);
        scope.set(node.name, inner.join(''));
        break;
      }
      case 'macro':
        scope.set(node.name, new Macro(node.name, node.params, node.body, scope));
        break;
    }
  }
}

/** `for a in …` binds the item; `for a, b in …` unpacks a pair (or a groupby group). */
function bind(scope: Scope, targets: string[], item: Value): void {
  if (targets.length === 1) {
    scope.set(targets[0], item);
    return;
  }
  const parts = Array.isArray(item) ? item : isObject(item) && 'grouper' in item && 'list' in item ? [item.grouper, item.list] : null;
  if (!parts || parts.length !== targets.length) throw new TemplateError(`cannot unpack ${quoted(str(item))} into ${targets.length} names`);
  targets.forEach((t, i) => scope.set(t, parts[i]));
}

/** A parsed template, reusable for many contexts. */
export class Template {
  private readonly nodes: Node[];
  constructor(
    source: string,
    private readonly limits: TemplateLimits = {},
  ) {
    try {
      this.nodes = parseNodes(lex(source));
    } catch (error) {
      if (error instanceof RangeError) throw new TemplateError('template too complex');
      throw error;
    }
  }
  render(context: JsonObject): string {
    const out: string[] = [];
    const state: RenderState = {
      size: 0,
      maxOutput: this.limits.maxOutput ?? MAX_OUTPUT,
      iterations: 0,
      maxIterations: this.limits.maxIterations ?? MAX_ITERATIONS,
      calls: 0,
    };
    try {
      renderNodes(this.nodes, new Scope(null, context), out, state);
    } catch (error) {
      if (error instanceof RangeError) throw new TemplateError('template too complex');
      throw error;
    }
    return out.join('');
  }
}

/** Parses and renders in one step; throws TemplateError on any syntax or evaluation error. */
export function renderTemplate(source: string, context: JsonObject, limits?: TemplateLimits): string {
  return new Template(source, limits).render(context);
}
