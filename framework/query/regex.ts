/**
 * The regular-expression syntax of the `re`, `nre`, `ire` and `nire` lookups.
 *
 * SQLite (RE2 via re2js), PostgreSQL (Spencer's ARE), MariaDB (PCRE2) and MySQL 8 (ICU) disagree on
 * what `.`, `$`, `\d`, `\w`, `\b` or `\v` mean, and the backtracking engines can take exponential
 * time. A pattern is therefore parsed here into a small common subset and written out again for the
 * engine in use, with the same meaning everywhere:
 *
 * - literals (any character; punctuation escaped with `\`), `.` (any character but a newline),
 *   `^` and `$` (start and end of the whole value), alternation `|`, groups `( )` and `(?: )`;
 * - bracket classes `[abc]`, `[^a-z]`, with the escapes below inside them;
 * - `\d` `\w` `\s` and their negations (ASCII classes: `[0-9]`, `[0-9A-Za-z_]`, space, tab and
 *   line breaks), `\t` `\n` `\r` `\f` `\v`;
 * - quantifiers `*` `+` `?` `{n}` `{n,}` `{n,m}` (bounds up to 255; a lazy `?` suffix is accepted
 *   and has no effect on which rows match).
 *
 * Rejected with a 400: back-references, look-around, `\b`, Unicode classes, inline flags, and
 * nested repetition that makes backtracking engines explode, such as `(a+)+` or `(a|aa)*`.
 */
import { FilterValueError } from '../errors';

/** Regular-expression dialects of the supported engines. */
export type RegexSyntax = 're2' | 'are' | 'pcre' | 'icu';

export const MAX_PATTERN_LENGTH = 500;
export const MAX_REPEAT = 255;
/** Largest product of nested repetition bounds a pattern may have (`(\d{1,3}\.){3}` is 9). */
export const MAX_NESTED_REPEAT = 1000;

type ClassItem = { kind: 'char'; code: number } | { kind: 'range'; from: number; to: number } | { kind: 'set'; name: 'd' | 'w' | 's' };

type Node =
  | { kind: 'empty' }
  | { kind: 'char'; code: number }
  | { kind: 'any' }
  | { kind: 'start' }
  | { kind: 'end' }
  | { kind: 'set'; name: 'd' | 'w' | 's'; negated: boolean }
  | { kind: 'class'; negated: boolean; items: ClassItem[] }
  | { kind: 'group'; body: Node }
  | { kind: 'concat'; items: Node[] }
  | { kind: 'alt'; branches: Node[] }
  | { kind: 'repeat'; body: Node; min: number; max: number | null };

const SET_RANGES: Record<'d' | 'w' | 's', Array<[number, number]>> = {
  d: [[0x30, 0x39]],
  w: [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]],
  s: [[0x09, 0x0d], [0x20, 0x20]],
};

const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
/** Characters with a meaning in some engine's syntax: always written escaped. */
const META = new Set('\\^$.|?*+()[]{}'.split(''));

class Parser {
  private pos = 0;
  private readonly chars: string[];
  constructor(source: string) {
    this.chars = Array.from(source);
  }

  fail(reason: string): never {
    throw new FilterValueError(`Invalid regular expression: ${reason}.`);
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.pos + offset];
  }

  parse(): Node {
    const node = this.alternation();
    if (this.pos < this.chars.length) this.fail(this.peek() === ')' ? 'unbalanced parenthesis' : `unexpected ${this.peek()}`);
    return node;
  }

  private alternation(): Node {
    const branches = [this.concatenation()];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.concatenation());
    }
    return branches.length === 1 ? branches[0] : { kind: 'alt', branches };
  }

  private concatenation(): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      let atom = this.atom();
      for (;;) {
        const q = this.quantifier();
        if (!q) break;
        if (atom.kind === 'start' || atom.kind === 'end' || atom.kind === 'empty') this.fail('nothing to repeat');
        if (atom.kind === 'repeat') this.fail('multiple repeat');
        atom = { kind: 'repeat', body: atom, min: q.min, max: q.max };
      }
      items.push(atom);
    }
    if (items.length === 0) return { kind: 'empty' };
    return items.length === 1 ? items[0] : { kind: 'concat', items };
  }

  private quantifier(): { min: number; max: number | null } | null {
    const c = this.peek();
    let q: { min: number; max: number | null } | null = null;
    if (c === '*') q = { min: 0, max: null };
    else if (c === '+') q = { min: 1, max: null };
    else if (c === '?') q = { min: 0, max: 1 };
    if (q) this.pos++;
    else if (c === '{') q = this.bounds();
    if (!q) return null;
    if (this.peek() === '?') this.pos++; // lazy: the same rows match
    else if (this.peek() === '+') this.fail('possessive quantifiers are not supported');
    return q;
  }

  private bounds(): { min: number; max: number | null } {
    const rest = this.chars.slice(this.pos).join('');
    const m = /^\{(\d{1,4})(?:(,)(\d{1,4})?)?\}/.exec(rest);
    if (!m) this.fail('a literal { must be written \\{');
    this.pos += Array.from(m[0]).length;
    const min = Number(m[1]);
    const max = m[2] ? (m[3] === undefined ? null : Number(m[3])) : min;
    if (min > MAX_REPEAT || (max !== null && max > MAX_REPEAT)) this.fail(`repetition counts are limited to ${MAX_REPEAT}`);
    if (max !== null && max < min) this.fail('invalid repetition range');
    return { min, max };
  }

  private atom(): Node {
    const c = this.chars[this.pos++];
    switch (c) {
      case '.':
        return { kind: 'any' };
      case '^':
        return { kind: 'start' };
      case '$':
        return { kind: 'end' };
      case '(':
        return this.group();
      case '[':
        return this.charClass();
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        return this.fail('nothing to repeat');
      case '{':
        return this.fail('a literal { must be written \\{');
      default:
        return { kind: 'char', code: c.codePointAt(0) as number };
    }
  }

  private group(): Node {
    if (this.peek() === '?') {
      if (this.peek(1) !== ':') this.fail('only (?: ) groups are supported: no look-around, named groups or inline flags');
      this.pos += 2;
    }
    const body = this.alternation();
    if (this.peek() !== ')') this.fail('missing closing parenthesis');
    this.pos++;
    return { kind: 'group', body };
  }

  /** `\x` outside a class. */
  private escape(): Node {
    const c = this.chars[this.pos++];
    if (c === undefined) this.fail('trailing backslash');
    const lower = c.toLowerCase();
    if ((lower === 'd' || lower === 'w' || lower === 's') && 'dwsDWS'.includes(c)) {
      return { kind: 'set', name: lower as 'd' | 'w' | 's', negated: c !== lower };
    }
    return { kind: 'char', code: this.escapedChar(c) };
  }

  /** A character escape shared by both contexts: control escapes and escaped punctuation. */
  private escapedChar(c: string): number {
    if (c in CONTROL_ESCAPES) return CONTROL_ESCAPES[c];
    if (/^[0-9A-Za-z]$/.test(c)) this.fail(`unsupported escape \\${c}`);
    return c.codePointAt(0) as number;
  }

  private charClass(): Node {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const items: ClassItem[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined) this.fail('missing closing ]');
      if (c === ']') {
        this.pos++;
        break;
      }
      const from = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.pos++;
        const to = this.classAtom();
        if (from.kind !== 'char' || to.kind !== 'char') this.fail('a class shorthand cannot bound a range');
        if (to.code < from.code) this.fail('invalid range in character class');
        items.push({ kind: 'range', from: from.code, to: to.code });
      } else items.push(from);
    }
    if (items.length === 0) this.fail('empty character class');
    return { kind: 'class', negated, items };
  }

  private classAtom(): ClassItem {
    const c = this.chars[this.pos++];
    if (c === '[') this.fail('a literal [ inside a class must be written \\[');
    if (c !== '\\') return { kind: 'char', code: c.codePointAt(0) as number };
    const e = this.chars[this.pos++];
    if (e === undefined) this.fail('trailing backslash');
    if (e === 'd' || e === 'w' || e === 's') return { kind: 'set', name: e };
    if (e === 'D' || e === 'W' || e === 'S') this.fail(`\\${e} is not supported inside a character class`);
    return { kind: 'char', code: this.escapedChar(e) };
  }
}

/** True when a quantifier occurs inside `node`. */
function hasRepeat(node: Node): boolean {
  switch (node.kind) {
    case 'repeat':
      return true;
    case 'group':
      return hasRepeat(node.body);
    case 'concat':
      return node.items.some(hasRepeat);
    case 'alt':
      return node.branches.some(hasRepeat);
    default:
      return false;
  }
}

function hasAlternation(node: Node): boolean {
  switch (node.kind) {
    case 'alt':
      return true;
    case 'group':
      return hasAlternation(node.body);
    case 'concat':
      return node.items.some(hasAlternation);
    case 'repeat':
      return hasAlternation(node.body);
    default:
      return false;
  }
}

/**
 * How much repetition nests inside `node`: the product of repetition upper bounds along the
 * deepest path (alternatives add up), null when an unbounded repetition is nested.
 */
function nestedWeight(node: Node): number | null {
  switch (node.kind) {
    case 'repeat': {
      const inner = nestedWeight(node.body);
      if (inner === null || node.max === null) return null;
      return node.max * Math.max(inner, 1);
    }
    case 'group':
      return nestedWeight(node.body);
    case 'concat': {
      let worst = 0;
      for (const item of node.items) {
        const w = nestedWeight(item);
        if (w === null) return null;
        worst = Math.max(worst, w);
      }
      return worst;
    }
    case 'alt': {
      let sum = 0;
      for (const branch of node.branches) {
        const w = nestedWeight(branch);
        if (w === null) return null;
        sum += Math.max(w, 1);
      }
      return sum;
    }
    default:
      return 0;
  }
}

/** Rejects the repetition shapes that make backtracking engines (PCRE2, ICU) take exponential time. */
function checkNesting(node: Node, fail: (reason: string) => never): void {
  switch (node.kind) {
    case 'repeat': {
      const repeated = node.max === null || node.max > 1;
      if (repeated && (hasRepeat(node.body) || hasAlternation(node.body))) {
        const inner = nestedWeight(node.body);
        if (node.max === null || inner === null) {
          fail('a repeated group may not contain an unbounded repetition or be repeated without bound when it contains a repetition or an alternation');
        }
        if (node.max * Math.max(inner, 1) > MAX_NESTED_REPEAT) fail(`nested repetition is limited to ${MAX_NESTED_REPEAT} combinations`);
      }
      checkNesting(node.body, fail);
      return;
    }
    case 'group':
      checkNesting(node.body, fail);
      return;
    case 'concat':
      node.items.forEach((n) => checkNesting(n, fail));
      return;
    case 'alt':
      node.branches.forEach((n) => checkNesting(n, fail));
      return;
    default:
      return;
  }
}

/**
 * Letters with more than two case forms (or whose other form is not one character). Engines fold
 * these differently (PostgreSQL's ~* does not match ς for σ, RE2 and PCRE2 do), so under a
 * case-insensitive lookup each is written as the explicit set of its forms.
 */
const CASE_ORBITS: string[] = ['Σσς', 'Kk\u212a', 'Ssſ', 'Μμµ', 'Åå\u212b', 'Θθϑ', 'Ββϐ', 'Εεϵ', 'Κκϰ', 'Ππϖ', 'Ρρϱ', 'Φφϕ', 'Ωω\u2126', 'Ιι\u0345\u1fbe', 'ßẞ'];
const ORBIT_OF = new Map<number, number[]>();
for (const orbit of CASE_ORBITS) {
  const codes = Array.from(orbit, (c) => c.codePointAt(0) as number);
  for (const c of codes) ORBIT_OF.set(c, codes);
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** A character written so that every engine reads it as itself. */
function literal(code: number, syntax: RegexSyntax, inClass: boolean): string {
  const ch = String.fromCodePoint(code);
  if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || code === 0x2028 || code === 0x2029) {
    // ARE's \x takes any number of hex digits; \u and \U take exactly four and eight.
    if (syntax === 'are') return code <= 0xffff ? `\\u${hex(code, 4)}` : `\\U${hex(code, 8)}`;
    return `\\x{${hex(code, 2)}}`;
  }
  if (inClass ? '\\]^-['.includes(ch) : META.has(ch)) return `\\${ch}`;
  return ch;
}

/** A literal character; under case-insensitive matching a multi-form letter becomes all its forms. */
function letter(code: number, syntax: RegexSyntax, ci: boolean, inClass: boolean): string {
  const orbit = ci ? ORBIT_OF.get(code) : undefined;
  if (!orbit) return literal(code, syntax, inClass);
  const members = orbit.map((c) => literal(c, syntax, true)).join('');
  return inClass ? members : `[${members}]`;
}

function rangeText(from: number, to: number, syntax: RegexSyntax): string {
  return from === to ? literal(from, syntax, true) : `${literal(from, syntax, true)}-${literal(to, syntax, true)}`;
}

function setText(name: 'd' | 'w' | 's', syntax: RegexSyntax): string {
  return SET_RANGES[name].map(([a, b]) => rangeText(a, b, syntax)).join('');
}

function render(node: Node, syntax: RegexSyntax, ci: boolean): string {
  const sub = (n: Node) => render(n, syntax, ci);
  switch (node.kind) {
    case 'empty':
      return '';
    case 'char':
      return letter(node.code, syntax, ci, false);
    case 'any':
      return `[^${literal(0x0a, syntax, true)}]`;
    case 'start':
      return '^';
    case 'end':
      // ARE's $ is the end of the value; PCRE2's and ICU's also match before a final newline.
      return syntax === 'are' ? '$' : '\\z';
    case 'set':
      return `[${node.negated ? '^' : ''}${setText(node.name, syntax)}]`;
    case 'class': {
      const items = node.items.map((i) => (i.kind === 'char' ? letter(i.code, syntax, ci, true) : i.kind === 'range' ? rangeText(i.from, i.to, syntax) : setText(i.name, syntax)));
      return `[${node.negated ? '^' : ''}${items.join('')}]`;
    }
    case 'group':
      return `(?:${sub(node.body)})`;
    case 'concat':
      return node.items.map(sub).join('');
    case 'alt':
      return node.branches.map(sub).join('|');
    case 'repeat': {
      const body = node.body.kind === 'char' || node.body.kind === 'any' || node.body.kind === 'set' || node.body.kind === 'class' || node.body.kind === 'group'
        ? sub(node.body)
        : `(?:${sub(node.body)})`;
      const { min, max } = node;
      const q = min === 0 && max === null ? '*' : min === 1 && max === null ? '+' : min === 0 && max === 1 ? '?' : max === null ? `{${min},}` : min === max ? `{${min}}` : `{${min},${max}}`;
      return `${body}${q}`;
    }
  }
}

/** A validated pattern of the common subset; `toString()` is what the client sent. */
export class CommonRegex {
  private readonly rendered = new Map<string, string>();
  private constructor(readonly source: string, private readonly tree: Node) {}

  /** Parses and checks a client pattern; throws FilterValueError (a 400) when outside the subset. */
  static parse(source: string): CommonRegex {
    const parser = new Parser(source);
    if (Array.from(source).length > MAX_PATTERN_LENGTH) parser.fail(`patterns are limited to ${MAX_PATTERN_LENGTH} characters`);
    const tree = parser.parse();
    checkNesting(tree, (reason) => parser.fail(reason));
    return new CommonRegex(source, tree);
  }

  /** The same pattern in the syntax of one engine, for a case-sensitive or -insensitive match. */
  render(syntax: RegexSyntax, caseInsensitive = false): string {
    const key = `${syntax}:${caseInsensitive ? 'i' : 's'}`;
    let text = this.rendered.get(key);
    if (text === undefined) {
      text = render(this.tree, syntax, caseInsensitive);
      this.rendered.set(key, text);
    }
    return text;
  }

  toString(): string {
    return this.source;
  }
}
