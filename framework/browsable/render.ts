import type { RequestContext } from '../http/context';
import type { Reply } from '../http/respond';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** Pretty-printed JSON with absolute URLs turned into links. */
function linkify(json: string, baseUrl: string): string {
  const escaped = escapeHtml(json);
  const prefix = escapeHtml(baseUrl);
  return escaped.replace(/&quot;(https?:\/\/[^&\s]+)&quot;/g, (whole, url: string) =>
    url.startsWith(prefix) ? `&quot;<a href="${url}">${url}</a>&quot;` : whole,
  );
}

/** The browsable API page: status, headers and the response body. */
export function renderBrowsable(ctx: RequestContext, reply: Reply): string {
  const body = JSON.stringify(reply.body, null, 2);
  const path = `${ctx.req.baseUrl}${ctx.req.path}`;
  const crumbs = path
    .split('/')
    .filter(Boolean)
    .map((seg, i, all) => `<a href="/${all.slice(0, i + 1).join('/')}/">${escapeHtml(seg)}</a>`)
    .join(' / ');
  const login = ctx.user ? `Logged in as ${escapeHtml(ctx.user.username)}` : '<a href="/api-auth/login/">Log in</a>';
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>netinv API</title>
<style>body{font-family:sans-serif;margin:2em}pre{background:#f6f8fa;padding:1em;overflow:auto}nav{margin-bottom:1em}</style>
</head><body>
<nav>${crumbs} <span style="float:right">${login}</span></nav>
<h1>${escapeHtml(ctx.method)} ${escapeHtml(ctx.req.originalUrl)}</h1>
<pre class="response-info"><b>HTTP ${reply.status}</b>${ctx.version ? `\nAPI-Version: ${ctx.version}` : ''}</pre>
<pre class="response-body">${linkify(body ?? '', ctx.baseUrl)}</pre>
</body></html>`;
}
