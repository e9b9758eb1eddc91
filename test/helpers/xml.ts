/**
 * A strict parser for the XML the server writes (SVG drawings): elements, double- or
 * single-quoted attributes, text, CDATA, comments and the XML declaration. Anything malformed
 * (unclosed or mismatched tags, stray `<` or `&`, duplicate attributes) throws.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);|&/gi, (whole, name: string | undefined) => {
    if (!name) throw new Error('a bare & in text');
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10));
    if (!(name in ENTITIES)) throw new Error(`unknown entity ${whole}`);
    return ENTITIES[name];
  });
}

export function parseXml(source: string): XmlElement {
  let i = 0;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  const top = () => stack[stack.length - 1];
  while (i < source.length) {
    if (source.startsWith('<?', i)) {
      const end = source.indexOf('?>', i);
      if (end < 0) throw new Error('unclosed declaration');
      i = end + 2;
    } else if (source.startsWith('<!--', i)) {
      const end = source.indexOf('-->', i);
      if (end < 0) throw new Error('unclosed comment');
      i = end + 3;
    } else if (source.startsWith('<![CDATA[', i)) {
      const end = source.indexOf(']]>', i);
      if (end < 0 || !top()) throw new Error('bad CDATA');
      top().text += source.slice(i + 9, end);
      i = end + 3;
    } else if (source.startsWith('</', i)) {
      const m = /^<\/([\w:.-]+)\s*>/.exec(source.slice(i));
      const open = stack.pop();
      if (!m || !open || open.name !== m[1]) throw new Error(`mismatched close tag at ${i}`);
      i += m[0].length;
    } else if (source[i] === '<') {
      const m = /^<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/.exec(source.slice(i));
      if (!m) throw new Error(`malformed tag at ${i}: ${source.slice(i, i + 40)}`);
      const attributes: Record<string, string> = {};
      for (const a of m[2].matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
        if (a[1] in attributes) throw new Error(`duplicate attribute ${a[1]}`);
        attributes[a[1]] = decode(a[2] ?? a[3] ?? '');
      }
      const element: XmlElement = { name: m[1], attributes, children: [], text: '' };
      if (top()) top().children.push(element);
      else if (root) throw new Error('a second root element');
      else root = element;
      if (!m[3]) stack.push(element);
      i += m[0].length;
    } else {
      const end = source.indexOf('<', i);
      const chunk = source.slice(i, end < 0 ? source.length : end);
      if (top()) top().text += decode(chunk);
      else if (chunk.trim()) throw new Error('text outside the root element');
      i = end < 0 ? source.length : end;
    }
  }
  if (stack.length || !root) throw new Error('unclosed elements');
  return root;
}

/** Every element of the tree, depth first. */
export function allElements(root: XmlElement): XmlElement[] {
  return [root, ...root.children.flatMap(allElements)];
}
