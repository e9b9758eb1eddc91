import { createHmac } from 'node:crypto';
import { renderTemplate, type Json, type JsonObject } from '../../framework';

export type ChangeAction = 'create' | 'update' | 'delete';

const EVENTS: Record<ChangeAction, string> = { create: 'created', update: 'updated', delete: 'deleted' };

/** What a webhook receives about one change (Nautobot's webhook context). */
export interface WebhookContext extends JsonObject {
  event: string;
  timestamp: string;
  model: string;
  username: string;
  request_id: string;
  data: JsonObject;
  snapshots: { prechange: JsonObject | null; postchange: JsonObject | null; differences: { removed: JsonObject | null; added: JsonObject | null } };
}

/** Python's `str(datetime)` of an aware UTC time: `2024-02-03 10:11:12.345000+00:00`. */
export function pythonTimestamp(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000+00:00`;
}

/** Keys whose values differ (last_updated ignored): Nautobot's shallow_compare_dict both ways. */
export function differences(before: JsonObject | null, after: JsonObject | null): WebhookContext['snapshots']['differences'] {
  if (!before) return { removed: null, added: after };
  if (!after) return { removed: before, added: null };
  const removed: JsonObject = {};
  const added: JsonObject = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === 'last_updated') continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    if (key in before) removed[key] = before[key];
    if (key in after) added[key] = after[key];
  }
  return { removed, added };
}

export function webhookContext(args: {
  action: ChangeAction;
  time: Date;
  modelName: string;
  username: string;
  requestId: string;
  snapshot: JsonObject;
  prechange: JsonObject | null;
}): WebhookContext {
  const postchange = args.action === 'delete' ? null : args.snapshot;
  const prechange = args.action === 'create' ? null : args.prechange;
  return {
    event: EVENTS[args.action],
    timestamp: pythonTimestamp(args.time),
    model: args.modelName,
    username: args.username,
    request_id: args.requestId,
    data: args.snapshot,
    snapshots: { prechange, postchange, differences: differences(prechange, postchange) },
  };
}

/** `json.dumps` as Python writes it: `, ` and `: ` separators, non-ASCII kept. */
export function pythonJson(value: Json | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/**
 * `Name: value` lines after rendering; each line splits at its first colon (a value may hold
 * colons, such as a URL), blank lines are skipped.
 */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const at = line.indexOf(':');
    if (at <= 0) continue;
    const name = line.slice(0, at).trim();
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) headers[name] = line.slice(at + 1).trim();
  }
  return headers;
}

export function signature(secret: string, body: string): string {
  return createHmac('sha512', secret).update(Buffer.from(body, 'utf8')).digest('hex');
}

export interface WebhookSettings {
  http_content_type: string;
  additional_headers: string;
  body_template: string;
  secret: string;
}

/** The final body and headers of one request; a template error is thrown as is. */
export function buildRequest(webhook: WebhookSettings, context: WebhookContext): { body: string; headers: Record<string, string> } {
  const body = webhook.body_template ? renderTemplate(webhook.body_template, context) : pythonJson(context);
  const headers: Record<string, string> = { 'Content-Type': webhook.http_content_type };
  if (webhook.additional_headers) Object.assign(headers, parseHeaderLines(renderTemplate(webhook.additional_headers, context)));
  if (webhook.secret) headers['X-Hook-Signature'] = signature(webhook.secret, body);
  return { body, headers };
}
