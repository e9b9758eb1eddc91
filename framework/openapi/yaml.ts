/**
 * A YAML 1.2 writer for JSON values, enough for schema documents: block mappings and sequences,
 * flow `{}` and `[]` for empty ones. Strings that could read as anything else (numbers, booleans,
 * null, indicators, leading or trailing blanks) are written as JSON strings, which are valid YAML
 * double-quoted scalars; so every document it writes loads back to the same value.
 */
type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const PLAIN = /^[A-Za-z_/$][A-Za-z0-9_ ./$(){}<>+=-]*$/;
const RESERVED = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)$/;

function scalarString(text: string): string {
  const plain = PLAIN.test(text) && !RESERVED.test(text) && !text.endsWith(' ') && !text.includes(': ') && !text.includes(' #');
  return plain ? text : JSON.stringify(text);
}

function scalar(value: JsonValue): string | null {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('YAML: non-finite number');
    return String(value);
  }
  if (typeof value === 'string') return scalarString(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : null;
  return Object.keys(value).length === 0 ? '{}' : null;
}

function lines(value: JsonValue, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      const s = scalar(item);
      if (s !== null) {
        out.push(`${indent}- ${s}`);
        continue;
      }
      // A nested block starts on the dash line: `- key: value`, then the rest indented by two.
      const inner: string[] = [];
      lines(item, `${indent}  `, inner);
      out.push(`${indent}- ${inner[0].slice(indent.length + 2)}`, ...inner.slice(1));
    }
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, JsonValue>)) {
    const k = scalarString(key);
    const s = scalar(item);
    if (s !== null) out.push(`${indent}${k}: ${s}`);
    else {
      out.push(`${indent}${k}:`);
      lines(item, `${indent}  `, out);
    }
  }
}

/** The YAML text of a JSON value (a mapping or sequence at the top). */
export function toYaml(value: unknown): string {
  const v = JSON.parse(JSON.stringify(value)) as JsonValue;
  const s = scalar(v);
  if (s !== null) return `${s}\n`;
  const out: string[] = [];
  lines(v, '', out);
  return `${out.join('\n')}\n`;
}
