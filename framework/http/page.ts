/**
 * What every HTML page netinv serves shares (the browsable API, the login page): escaping, the
 * stylesheet, the header bar and the icon. Plain strings, no I/O.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The icon: a small network of three nodes on the header's blue. Served at /favicon.ico too. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f3a5f"/><path d="M9 22L16 9L23 22Z" fill="none" stroke="#9cc3ff" stroke-width="2.2"/><circle cx="16" cy="9" r="4" fill="#fff"/><circle cx="9" cy="22" r="4" fill="#fff"/><circle cx="23" cy="22" r="4" fill="#fff"/></svg>`;

/** `<link rel=icon>` with the icon inline, so that no page depends on where the icon route is mounted. */
export const FAVICON_LINK = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}">`;

export const PAGE_STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#222;background:#f3f5f8;font-size:15px}
a{color:#1d5fbf}
header.topbar{background:#1f3a5f;color:#fff;padding:.55em 2em;display:flex;justify-content:space-between;align-items:center}
header.topbar a{color:#fff}
header.topbar .brand{font-weight:600;font-size:1.1em;display:flex;align-items:center;gap:.5em;text-decoration:none}
header.topbar .brand img{width:22px;height:22px}
header.topbar .user{opacity:.85;margin-right:.8em}
main{padding:1em 2em 3em;max-width:1200px;margin:0 auto}
.card{background:#fff;border:1px solid #dde2ea;border-radius:6px;padding:1em 1.2em;margin-bottom:1em}
.card h2{font-size:1.05em;margin:0 0 .7em}
h2.page-title{font-size:1.4em;margin:.2em 0 .1em}
h1.request-line{font-size:1.15em;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;margin:.3em 0 .8em;word-break:break-all}
ol.breadcrumb{list-style:none;padding:0;margin:.3em 0 .6em;display:flex;flex-wrap:wrap;gap:.4em;color:#555}
ol.breadcrumb li+li:before{content:"/";margin-right:.4em;color:#999}
pre{background:#fbfcfd;padding:1em;overflow:auto;border:1px solid #e1e4e8;border-radius:4px;margin:0;font-size:13px;line-height:1.45}
pre.response-info{border-bottom:none;border-radius:4px 4px 0 0;color:#444}
pre.response-body{border-radius:0 0 4px 4px;max-height:70vh}
.json-key{color:#7a2e8e}.json-string{color:#1a7f37}.json-number{color:#b35900}.json-boolean{color:#0550ae;font-weight:600}.json-null{color:#8250df;font-style:italic}
.json-string a{color:inherit;text-decoration:underline}
.toolbar{display:flex;justify-content:space-between;align-items:flex-start;gap:1em}
.btn,button{font:inherit;font-size:.92em;padding:.35em .9em;border-radius:4px;border:1px solid #b8c2d1;background:#fff;color:#1f3a5f;cursor:pointer;text-decoration:none;display:inline-block}
.btn:hover,button:hover{background:#eef3fa}
button.primary{background:#1f5fbf;border-color:#1f5fbf;color:#fff}button.primary:hover{background:#184f9f}
button.danger{background:#c62828;border-color:#c62828;color:#fff}button.danger:hover{background:#a61f1f}
label{font-size:.9em;color:#333}
input,select,textarea{font:inherit;font-size:.92em;padding:.35em .5em;border:1px solid #c3cad5;border-radius:4px;background:#fff;max-width:100%}
textarea{width:100%;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}
textarea[data-kind=text]{font-family:inherit;font-size:.92em}
form.filter-form{display:flex;flex-wrap:wrap;gap:.6em 1em;align-items:flex-end}
form.filter-form label{display:flex;flex-direction:column;gap:.2em}
form.filter-form input,form.filter-form select{width:11em;height:2.1em}
nav.pagination{display:flex;align-items:center;gap:.4em;margin:.2em 0 .8em;flex-wrap:wrap}
nav.pagination .page-info{margin:0 .6em;color:#444}
nav.pagination span.btn{color:#aaa;border-color:#ddd;cursor:default;background:#fafafa}
.tabs{display:flex;gap:.2em;border-bottom:1px solid #dde2ea;margin-bottom:1em}
.tabs button{border:1px solid transparent;border-bottom:none;border-radius:4px 4px 0 0;background:none;margin-bottom:-1px}
.tabs button[aria-selected="true"]{border-color:#dde2ea;background:#fff;font-weight:600}
form.html-form .row{display:grid;grid-template-columns:14em 1fr;gap:.8em;align-items:start;margin-bottom:.55em}
form.html-form .row>label{padding-top:.4em;text-align:right}
form.html-form .row .req:after{content:" *";color:#c62828}
form.html-form input[type=text],form.html-form input[type=number],form.html-form input[type=date],form.html-form select{width:100%}
form.html-form select[multiple]{min-height:6em}
form.html-form .help{font-size:.8em;color:#666;margin-top:.15em}
form.html-form .actions,form.raw-form .actions{margin-left:14.8em;display:flex;gap:.5em}
form.raw-form .actions{margin-left:0;margin-top:.5em}
form.raw-form h3{font-size:.95em;margin:.2em 0 .4em}
pre.form-result{margin-top:1em}
.alert{background:#fdecea;color:#8a1c1c;border:1px solid #f5c2c0;border-radius:4px;padding:.6em .8em;margin-bottom:1em}
.login-box{max-width:380px;margin:8vh auto 0}
.login-box h1{font-size:1.3em;margin:0 0 1em}
.login-box label{display:block;margin-bottom:.9em}
.login-box input{display:block;width:100%;margin-top:.3em;padding:.5em}
.login-box button{width:100%;padding:.55em}
`;

/** `<head>` of a page: charset, title, icon and stylesheet, plus what the page adds. */
export function pageHead(title: string, extra = ''): string {
  return `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>${FAVICON_LINK}${extra}
<style>${PAGE_STYLE}</style></head>`;
}

/** The blue bar at the top: the name, linking to the API root, and what goes on the right. */
export function topBar(right: string): string {
  return `<header class="topbar"><a class="brand" href="/api/"><img alt="" src="data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}">netinv REST API</a><span>${right}</span></header>`;
}
