import { escapeHtml } from '../http/page';

/** A string this server can serve: an absolute URL under its base, or a path under /api/. */
function isOwnUrl(text: string, baseUrl: string): boolean {
  if (/\s/.test(text)) return false;
  return (text.startsWith(`${baseUrl}/`) && /^https?:\/\//.test(text)) || text.startsWith('/api/');
}

function stringHtml(text: string, baseUrl: string): string {
  const quoted = escapeHtml(JSON.stringify(text));
  if (!isOwnUrl(text, baseUrl)) return `<span class="json-string">${quoted}</span>`;
  return `<span class="json-string">&quot;<a href="${escapeHtml(text)}">${quoted.slice(6, -6)}</a>&quot;</span>`;
}

function valueHtml(value: unknown, indent: string, baseUrl: string): string {
  if (value === null || value === undefined) return '<span class="json-null">null</span>';
  if (typeof value === 'boolean') return `<span class="json-boolean">${value}</span>`;
  if (typeof value === 'number') return Number.isFinite(value) ? `<span class="json-number">${value}</span>` : '<span class="json-null">null</span>';
  if (typeof value === 'string') return stringHtml(value, baseUrl);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((v) => inner + valueHtml(v, inner, baseUrl)).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function');
    if (entries.length === 0) return '{}';
    const lines = entries.map(([k, v]) => `${inner}<span class="json-key">${escapeHtml(JSON.stringify(k))}</span>: ${valueHtml(v, inner, baseUrl)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return escapeHtml(JSON.stringify(value) ?? 'null');
}

/**
 * The body as `JSON.stringify(body, null, 2)` prints it, escaped, each key and value in a span
 * of its type (`json-key`, `json-string`, `json-number`, `json-boolean`, `json-null`), and this
 * server's URLs as links. The text of the result is the JSON itself.
 */
export function jsonToHtml(body: unknown, baseUrl: string): string {
  return valueHtml(body, '', baseUrl);
}
