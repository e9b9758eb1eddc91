import { STATUS_CODES } from 'node:http';
import { filterSetFor } from '../filterset/filterset';
import type { RequestContext } from '../http/context';
import { escapeHtml, pageHead, topBar } from '../http/page';
import type { Reply } from '../http/respond';
import type { ModelMeta } from '../metadata/model-meta';
import { kindStore } from '../store/kind-store';
import { describeFields, type DescribedField } from '../options/options';
import { pageOf, pageUrl } from '../pagination/paginator';
import { filterForm, htmlForm, mainFilters, type FilterControl } from './forms';
import { jsonToHtml } from './json-html';
import { FORM_SCRIPT } from './script';

/** What the page needs beyond the reply, read before it is rendered (rendering is synchronous). */
export interface BrowsableData {
  /** A model's list or detail route, or anything else (actions, indexes, extra routes). */
  readonly route: 'list' | 'detail' | 'other';
  readonly model?: ModelMeta;
  /** The fields of the HTML form, as OPTIONS describes them; empty when no form is offered. */
  readonly fields: readonly DescribedField[];
  readonly filters: readonly FilterControl[];
}

export const NO_BROWSABLE_DATA: BrowsableData = { route: 'other', fields: [], filters: [] };

/** The methods of the HTML and raw forms: POST on a list, PUT and PATCH on a detail, the route's own elsewhere. */
function formMethods(ctx: RequestContext, data: BrowsableData): string[] {
  if (data.route === 'list') return ctx.allowedMethods.filter((m) => m === 'POST');
  if (data.route === 'detail') return ctx.allowedMethods.filter((m) => m === 'PUT' || m === 'PATCH');
  return ctx.allowedMethods;
}

/**
 * The main filters of a list with where their values come from: fixed choices, the choices
 * OPTIONS loads for the field of the same name (statuses), or the related model's list.
 */
async function filterControls(ctx: RequestContext, model: ModelMeta): Promise<FilterControl[]> {
  const out: FilterControl[] = [];
  for (const filter of mainFilters(model, filterSetFor(model).describe())) {
    const field = model.field(filter.name);
    const label = filter.name === 'q' ? 'Search' : (field?.label ?? filter.name);
    if (filter.choices) {
      out.push({ filter, label, choices: filter.choices.map((c) => ({ value: c, display: String(c) })) });
      continue;
    }
    if (field?.kind.loadChoices) {
      const choices = await field.kind.loadChoices(field, kindStore(ctx.db.reader));
      out.push({ filter, label, choices });
      continue;
    }
    const target = filter.related ? model.registry?.get(filter.related.model) : undefined;
    if (filter.related && target && target.path !== null) {
      const valueKey = filter.related.by === 'id' ? 'id' : (filter.related.naturalKey ?? 'id');
      out.push({ filter, label, related: { listPath: target.listPath, valueKey } });
      continue;
    }
    out.push({ filter, label });
  }
  return out;
}

/** Reads the filters of a model's list and, when a form is offered, the fields as OPTIONS describes them. */
export async function prepareBrowsable(ctx: RequestContext, route: { kind: string; model?: ModelMeta }): Promise<BrowsableData> {
  const model = route.model;
  if (!model || (route.kind !== 'list' && route.kind !== 'detail')) return NO_BROWSABLE_DATA;
  const kind = route.kind;
  const filters = kind === 'list' ? await filterControls(ctx, model) : [];
  const base: BrowsableData = { route: kind, model, fields: [], filters };
  const fields = formMethods(ctx, base).length > 0 ? await describeFields(ctx, model) : [];
  return { ...base, fields };
}

/** `api / ipam / prefixes / <id>`, each part a link to its level. */
function breadcrumbs(path: string, query: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts
    .map((seg, i) => {
      const href = `/${parts.slice(0, i + 1).join('/')}/${query}`;
      return i === parts.length - 1 ? `<li aria-current="page">${escapeHtml(seg)}</li>` : `<li><a href="${escapeHtml(href)}">${escapeHtml(seg)}</a></li>`;
    })
    .join('');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** First, previous, `Page x of y`, next, last: from the count and the page's limit and offset. */
function pagination(ctx: RequestContext, body: unknown): string {
  if (!isObject(body) || typeof body.count !== 'number' || !Array.isArray(body.results)) return '';
  const count = body.count;
  const page = pageOf(ctx);
  const link = (href: unknown, text: string, rel: string) =>
    typeof href === 'string' ? `<a class="btn" rel="${rel}" href="${escapeHtml(href)}">${text}</a>` : `<span class="btn" aria-disabled="true">${text}</span>`;
  if (page.limit === null) return `<nav class="pagination" aria-label="pages"><span class="page-info">All ${count} objects</span></nav>`;
  const { limit, offset } = page;
  const pages = Math.max(1, Math.ceil(count / limit));
  const current = Math.min(pages, Math.floor(offset / limit) + 1);
  const first = offset > 0 ? pageUrl(ctx, limit, null) : null;
  const lastOffset = (pages - 1) * limit;
  const last = offset < lastOffset ? pageUrl(ctx, limit, lastOffset) : null;
  return `<nav class="pagination" aria-label="pages">${link(first, '« First', 'first')}${link(body.previous, '‹ Previous', 'prev')}<span class="page-info">Page ${current} of ${pages} · ${count} object${
    count === 1 ? '' : 's'
  }</span>${link(body.next, 'Next ›', 'next')}${link(last, 'Last »', 'last')}</nav>`;
}

/** The raw body a form starts with: the object for PUT and PATCH, the required fields for POST. */
function rawContent(data: BrowsableData, reply: Reply): string {
  if (data.route === 'detail' && isObject(reply.body)) {
    const { id: _id, url: _url, display: _display, created: _c, last_updated: _l, ...rest } = reply.body;
    const writable = new Set(data.fields.filter((d) => !d.info.read_only).map((d) => d.field.name));
    const body = writable.size ? Object.fromEntries(Object.entries(rest).filter(([k]) => writable.has(k))) : rest;
    return JSON.stringify(body, null, 2);
  }
  if (data.route === 'list') {
    const required = data.fields.filter((d) => d.info.required && !d.info.read_only).map((d) => [d.field.name, null]);
    return JSON.stringify(Object.fromEntries(required), null, 2);
  }
  return '{}';
}

/** The request section: the HTML form and the raw-JSON form as two tabs, or the raw form alone. */
function requestSection(ctx: RequestContext, reply: Reply, data: BrowsableData, url: string): string {
  const methods = formMethods(ctx, data);
  if (methods.length === 0) return '';
  const okDetail = data.route !== 'detail' || (reply.status === 200 && isObject(reply.body));
  if (!okDetail) return '';
  const buttons = methods.map((m) => `<button type="submit" class="${m === 'DELETE' ? 'danger' : 'primary'}" value="${m}">${m}</button>`).join('');
  const raw = `<form class="raw-form" data-url="${escapeHtml(url)}" data-methods="${methods.join(' ')}">
<p><label for="raw-content">Content (application/json)</label></p>
<textarea id="raw-content" name="content" rows="12" spellcheck="false">${escapeHtml(rawContent(data, reply))}</textarea>
<div class="actions">${buttons}</div>
</form>`;
  const withHtml = data.route !== 'other' && data.fields.length > 0;
  if (!withHtml) return `<section class="card forms"><h2>Request</h2>${raw}</section>`;
  const object = data.route === 'detail' && isObject(reply.body) ? reply.body : null;
  const form = htmlForm(data.fields, methods, url, object, ctx.version);
  return `<section class="card forms"><h2>${data.route === 'list' ? `Create a ${escapeHtml(data.model?.verboseName ?? 'object')}` : `Edit this ${escapeHtml(data.model?.verboseName ?? 'object')}`}</h2>
<div class="tabs" role="tablist"><button type="button" role="tab" aria-selected="true" data-tab="html">HTML form</button><button type="button" role="tab" aria-selected="false" data-tab="raw">Raw data</button></div>
<div class="tab-panel" data-panel="html">${form}</div>
<div class="tab-panel" data-panel="raw" hidden>${raw}</div>
</section>`;
}

/** Buttons beside the request line: OPTIONS for a model route, DELETE on a detail the caller may delete, the JSON. */
function toolbarButtons(ctx: RequestContext, data: BrowsableData, url: string): string {
  const out: string[] = [];
  if (data.route !== 'other' && ctx.user) out.push(`<button type="button" class="request-button" data-method="OPTIONS" data-url="${escapeHtml(url)}">OPTIONS</button>`);
  if (data.route === 'detail' && ctx.allowedMethods.includes('DELETE')) {
    out.push(`<button type="button" class="request-button danger" data-method="DELETE" data-url="${escapeHtml(url)}" data-confirm="Delete this ${escapeHtml(data.model?.verboseName ?? 'object')}?">DELETE</button>`);
  }
  const q = ctx.req.originalUrl.indexOf('?');
  const params = new URLSearchParams(q >= 0 ? ctx.req.originalUrl.slice(q + 1) : '');
  params.set('format', 'json');
  out.push(`<a class="btn" href="${escapeHtml(`${ctx.req.baseUrl}${ctx.req.path}?${params.toString()}`)}">JSON</a>`);
  return out.join(' ');
}

function loginLink(ctx: RequestContext, path: string): string {
  if (ctx.user) {
    const logout = ctx.session ? ` <a class="logout" href="/api-auth/logout/?next=${encodeURIComponent(path)}">Log out</a>` : '';
    return `<span class="user">Logged in as ${escapeHtml(ctx.user.username)}</span>${logout}`;
  }
  return `<a class="login" href="/api-auth/login/?next=${encodeURIComponent(path)}">Log in</a>`;
}

/**
 * The browsable API page: request line, status and headers, the response body coloured with
 * links; on lists a filter form and page links; forms for the methods the caller may use.
 */
export function renderBrowsable(ctx: RequestContext, reply: Reply, versionHeader = true, data: BrowsableData = NO_BROWSABLE_DATA): string {
  const path = `${ctx.req.baseUrl}${ctx.req.path}`;
  const q = ctx.req.originalUrl.indexOf('?');
  const query = q >= 0 && ctx.param('api_version') !== undefined ? `?api_version=${encodeURIComponent(ctx.param('api_version') as string)}` : '';
  const headers: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(reply.headers ?? {})) headers.push([k, v]);
  headers.push(['Content-Type', 'application/json'], ['Vary', 'Accept']);
  if (ctx.version && versionHeader) headers.push(['API-Version', String(ctx.version)]);
  const headerText = headers.map(([k, v]) => `<b>${escapeHtml(k)}:</b> ${escapeHtml(v)}`).join('\n');
  const csrf = ctx.session ? `<meta name="csrf-token" content="${escapeHtml(ctx.session.csrf)}">` : '';
  const url = ctx.req.originalUrl;
  const ok = reply.status >= 200 && reply.status < 300;
  const filters = ok && data.route === 'list' ? filterForm(data.filters, ctx.query, path) : '';
  const title = data.model ? (data.route === 'list' ? data.model.verboseNamePlural : data.model.verboseName) : '';
  return `<!DOCTYPE html>
<html lang="en">${pageHead(`netinv API: ${path}`, csrf)}
<body>
${topBar(loginLink(ctx, url))}
<main>
<nav><ol class="breadcrumb">${breadcrumbs(path, query)}</ol></nav>
<div class="toolbar"><div>${title ? `<h2 class="page-title">${escapeHtml(title.charAt(0).toUpperCase() + title.slice(1))}</h2>` : ''}<h1 class="request-line">${escapeHtml(ctx.method)} ${escapeHtml(url)}</h1></div>
<div class="buttons">${toolbarButtons(ctx, data, url)}</div></div>
${filters ? `<section class="card filters"><h2>Filters</h2>${filters}</section>` : ''}
${ok ? pagination(ctx, reply.body) : ''}
<pre class="response-info"><b>HTTP ${reply.status} ${escapeHtml(STATUS_CODES[reply.status] ?? '')}</b>
${headerText}</pre>
<pre class="response-body">${jsonToHtml(reply.body, ctx.baseUrl)}</pre>
<pre class="form-result" hidden></pre>
${requestSection(ctx, reply, data, url)}
</main>
<script>${FORM_SCRIPT}</script>
</body></html>`;
}
