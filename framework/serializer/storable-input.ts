/** How deeply a written JSON value may nest by default (NETINV_MAX_JSON_DEPTH); deeper values are refused rather than overflow the stack later. */
export const MAX_INPUT_DEPTH = 100;

export const NUL_MESSAGE = 'Null characters are not allowed.';
export const SURROGATE_MESSAGE = 'Enter valid Unicode text (a lone surrogate code point cannot be stored).';
export function depthMessage(maxDepth: number): string {
  return `Nested too deeply: at most ${maxDepth} levels of objects and lists.`;
}

/**
 * Why a written value cannot be stored as given, or null when it can: a NUL character (PostgreSQL
 * refuses it; SQLite and MariaDB would keep it and cut searches short), a lone UTF-16 surrogate
 * (no UTF-8 form), or objects and lists nested more than `maxDepth` levels. Walked without recursion.
 */
export function unstorableInput(value: unknown, maxDepth = MAX_INPUT_DEPTH): string | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number];
    // Uploaded file contents (multipart forms) are bytes, stored as files, not in a text column.
    if (Buffer.isBuffer(v)) continue;
    if (typeof v === 'string') {
      const problem = unstorableText(v);
      if (problem) return problem;
    } else if (v !== null && typeof v === 'object') {
      if (depth >= maxDepth) return depthMessage(maxDepth);
      const entries = Array.isArray(v) ? v : Object.entries(v).flat();
      for (const item of entries) stack.push([item, depth + 1]);
    }
  }
  return null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The problem with one string, or null. */
export function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return null;
}
