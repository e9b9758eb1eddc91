/**
 * Statement texts made of a long part that a plan keeps (its SELECT … FROM … JOIN …) and a short
 * part built per request (the condition, the window), returned as the same string each time.
 *
 * Statement caches are keyed by text: a text concatenated afresh is copied flat, hashed and
 * compared character by character on every lookup (a page of devices' SELECT is 4 KB), whereas
 * the string kept here has its hash cached and compares by identity. Only the short part is
 * hashed per request.
 */
const TEXTS = new Map<string, Map<string, string>>();

/** Heads (plans) and tails per head kept; past either bound the map starts again. */
const MAX_HEADS = 512;
const MAX_TAILS = 256;

export function sqlText(head: string, tail: string): string {
  let tails = TEXTS.get(head);
  if (!tails) {
    if (TEXTS.size >= MAX_HEADS) TEXTS.clear();
    TEXTS.set(head, (tails = new Map()));
  }
  let text = tails.get(tail);
  if (text === undefined) {
    if (tails.size >= MAX_TAILS) tails.clear();
    text = head + tail;
    tails.set(tail, text);
  }
  return text;
}
