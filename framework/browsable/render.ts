import { STATUS_CODES } from 'node:http';
import type { RequestContext } from '../http/context';
import type { Reply } from '../http/respond';
import { FORM_SCRIPT } from './script';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Pretty-printed JSON with this server's URLs (absolute, or paths under /api/) turned into links. */
export function linkify(json: string, baseUrl: string): string {
  const escaped = escapeHtml(json);
  const prefix = escapeHtml(baseUrl);
  return escaped.replace(/&quot;((?:https?:\/\/|\/api\/)[^&\s]*)&quot;/g, (whole, url: string) =>
    url.startsWith(prefix) || url.startsWith('/api/') ? `&quot;<a href="${url}">${url}</a>&quot;` : whole,
  );
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

/** The body a form starts with: the object itself for PUT and PATCH on a detail page. */
function initialContent(method: string, reply: Reply, isList: boolean): string {
  if (method === 'DELETE') return isList ? '[{"id": ""}]' : '';
  if (isList) return method === 'POST' ? '{}' : '[{"id": ""}]';
  if ((method === 'PUT' || method === 'PATCH') && reply.body && typeof reply.body === 'object' && !Array.isArray(reply.body)) {
    const { id: _id, url: _url, display: _display, created: _c, last_updated: _l, ...rest } = reply.body as Record<string, unknown>;
    return JSON.stringify(rest, null, 2);
  }
  return '{}';
}

/** One raw-JSON form per unsafe method the caller may use here; a detail DELETE has no body. */
function forms(ctx: RequestContext, reply: Reply, url: string): string {
  if (ctx.allowedMethods.length === 0) return '';
  const isList = Array.isArray(reply.body) || !!(reply.body && typeof reply.body === 'object' && 'results' in (reply.body as object));
  const out = ctx.allowedMethods.map((method) => {
    const content = initialContent(method, reply, isList);
    const textarea = method === 'DELETE' && !isList ? '' : `<textarea name="content" rows="10" spellcheck="false">${escapeHtml(content)}</textarea>`;
    return `<form class="raw-form" data-method="${method}" data-url="${escapeHtml(url)}">
<h3>${method}</h3>${textarea}
<button type="submit">${method}</button>
</form>`;
  });
  return `<section class="forms"><h2>Request</h2><p>Media type: application/json</p>${out.join('\n')}<pre class="form-result" hidden></pre></section>`;
}

function loginLink(ctx: RequestContext, path: string): string {
  if (ctx.user) {
    const logout = ctx.session ? ` <a class="logout" href="/api-auth/logout/?next=${encodeURIComponent(path)}">Log out</a>` : '';
    return `<span class="user">Logged in as ${escapeHtml(ctx.user.username)}</span>${logout}`;
  }
  return `<a class="login" href="/api-auth/login/?next=${encodeURIComponent(path)}">Log in</a>`;
}

/** The browsable API page: request line, status and headers, the response body with links, forms. */
export function renderBrowsable(ctx: RequestContext, reply: Reply, versionHeader = true): string {
  const body = JSON.stringify(reply.body, null, 2) ?? '';
  const path = `${ctx.req.baseUrl}${ctx.req.path}`;
  const q = ctx.req.originalUrl.indexOf('?');
  const query = q >= 0 && ctx.param('api_version') !== undefined ? `?api_version=${encodeURIComponent(ctx.param('api_version') as string)}` : '';
  const headers: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(reply.headers ?? {})) headers.push([k, v]);
  headers.push(['Content-Type', 'application/json'], ['Vary', 'Accept']);
  if (ctx.version && versionHeader) headers.push(['API-Version', String(ctx.version)]);
  const headerText = headers.map(([k, v]) => `<b>${escapeHtml(k)}:</b> ${escapeHtml(v)}`).join('\n');
  const csrf = ctx.session ? `<meta name="csrf-token" content="${escapeHtml(ctx.session.csrf)}">` : '';
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>netinv API: ${escapeHtml(path)}</title>${csrf}
<style>
body{font-family:system-ui,sans-serif;margin:0;color:#222}header{background:#1f3a5f;color:#fff;padding:.6em 2em;display:flex;justify-content:space-between}
header a{color:#fff}main{padding:1em 2em}ol.breadcrumb{list-style:none;padding:0;display:flex;gap:.4em}ol.breadcrumb li+li:before{content:"/";margin-right:.4em;color:#888}
pre{background:#f6f8fa;padding:1em;overflow:auto;border:1px solid #e1e4e8}textarea{width:100%;font-family:monospace}form.raw-form{margin-bottom:1em}
</style>
</head><body>
<header><span>netinv REST API</span>${loginLink(ctx, ctx.req.originalUrl)}</header>
<main>
<nav><ol class="breadcrumb">${breadcrumbs(path, query)}</ol></nav>
<h1 class="request-line">${escapeHtml(ctx.method)} ${escapeHtml(ctx.req.originalUrl)}</h1>
<pre class="response-info"><b>HTTP ${reply.status} ${escapeHtml(STATUS_CODES[reply.status] ?? '')}</b>
${headerText}</pre>
<pre class="response-body">${linkify(body, ctx.baseUrl)}</pre>
${forms(ctx, reply, ctx.req.originalUrl)}
</main>
<script>${FORM_SCRIPT}</script>
</body></html>`;
}
