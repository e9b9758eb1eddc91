/**
 * The browsable API and the documentation page, rendered by headless Chromium: breadcrumbs,
 * links, the forms the caller may use (and none for others), working HTML and raw-JSON forms,
 * the login page and a session login, and Swagger UI drawing the schema from local assets only.
 * The HTML itself is checked without a browser: colouring, page links, the filter form, the
 * forms built from OPTIONS' field metadata, escaping, the icon.
 *
 * Chromium comes from Debian (`apt-get install chromium`); without it these tests are skipped
 * (`npm test` needs nothing but Node.js) and the HTML checks at the end still run.
 */
import { Browser, chromiumPath, type Page } from '../helpers/chromium';
import { startApp, type TestApp } from '../helpers/harness';

const TAGS = '/api/extras/tags/';
const executable = chromiumPath();
const withChromium = executable ? describe : describe.skip;

let app: TestApp;
let readOnlyToken: string;
beforeAll(async () => {
  app = await startApp({ NETINV_EXEMPT_VIEW_PERMISSIONS: 'extras.tag' });
  readOnlyToken = await app.createToken(app.adminId, { writeEnabled: false });
});
afterAll(async () => {
  await app?.close();
});

withChromium('in headless Chromium', () => {
  let browser: Browser;
  let tag: { id: string; url: string };
  beforeAll(async () => {
    browser = await Browser.launch(executable as string);
    tag = (await app.post(`${TAGS}?api_version=1.3`, { name: 'Browsed', slug: 'browsed', content_types: ['dcim.site'] })).body;
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (path: string, token: string | null): Promise<Page> => {
    const page = await browser.newPage(token ? { Authorization: `Token ${token}` } : {});
    await page.goto(`${app.baseUrl}${path}`);
    return page;
  };
  const texts = (page: Page, selector: string) =>
    page.evaluate<string[]>(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((e) => e.textContent.trim())`);

  test('a list page: request line, status, breadcrumbs, links and a POST form for a writer', async () => {
    const page = await open(`${TAGS}?api_version=1.3`, app.token);
    expect(await page.evaluate<string>('document.title')).toBe(`netinv API: ${TAGS}`);
    expect(await texts(page, 'h1.request-line')).toEqual([`GET ${TAGS}?api_version=1.3`]);
    expect((await texts(page, 'pre.response-info'))[0]).toMatch(/^HTTP 200 OK[\s\S]*API-Version: 1\.3/);
    expect(await texts(page, 'ol.breadcrumb li')).toEqual(['api', 'extras', 'tags']);
    expect(await page.evaluate<string>('document.querySelector("ol.breadcrumb a").getAttribute("href")')).toBe('/api/?api_version=1.3');
    const links = await page.evaluate<string[]>('[...document.querySelectorAll("pre.response-body a")].map((a) => a.href)');
    expect(links).toContain(tag.url);
    // A list offers POST only: no bulk PUT, PATCH or DELETE forms.
    expect(await page_forms(page)).toEqual(['POST']);
    expect(await texts(page, 'header .user')).toEqual(['Logged in as admin']);
    const body = JSON.parse(await page.evaluate<string>('document.querySelector("pre.response-body").textContent')) as { count: number };
    expect(body.count).toBeGreaterThanOrEqual(1);
  });

  test('a detail page: following a link, then a PATCH through its form', async () => {
    const page = await open(`${TAGS}?api_version=1.3`, app.token);
    const loaded = page.goto(tag.url);
    await loaded;
    expect(await texts(page, 'h1.request-line')).toEqual([`GET ${new URL(tag.url).pathname}`]);
    expect(await page_forms(page)).toEqual(['PUT', 'PATCH']);
    expect(await texts(page, 'button.request-button')).toEqual(['OPTIONS', 'DELETE']);
    await page.evaluate<void>(`(() => {
      const form = document.querySelector('form.raw-form');
      form.querySelector('textarea').value = JSON.stringify({ description: 'changed in a browser' });
      form.querySelector('button[value="PATCH"]').click();
    })()`);
    await page.waitFor('!document.querySelector("pre.form-result").hidden');
    expect((await texts(page, 'pre.form-result'))[0]).toMatch(/^HTTP 200 OK\n/);
    expect((await app.get(`${TAGS}${tag.id}/`)).body.description).toBe('changed in a browser');
  });

  test('no forms for a read-only token; a login link and no forms for an anonymous visitor', async () => {
    const readOnly = await open(TAGS, readOnlyToken);
    expect(await page_forms(readOnly)).toEqual([]);
    const anonymous = await open(TAGS, null);
    expect(await page_forms(anonymous)).toEqual([]);
    expect(await anonymous.evaluate<string>('document.querySelector("header a.login").getAttribute("href")')).toBe(`/api-auth/login/?next=${encodeURIComponent(TAGS)}`);
    const denied = await open('/api/dcim/sites/', null);
    expect((await texts(denied, 'pre.response-info'))[0]).toMatch(/^HTTP 403 Forbidden/);
  });

  test('a POST through the HTML form creates the object; related selects are filled from the API', async () => {
    const region = (await app.post('/api/dcim/regions/', { name: 'Browser region', slug: 'browser-region' })).body;
    const page = await open('/api/dcim/sites/', app.token);
    await page.waitFor('document.querySelector("#field-region[data-loaded]") && document.querySelector("#field-tags[data-loaded]")');
    expect(await page.evaluate<string[]>('[...document.querySelectorAll("#field-region option")].map((o) => o.textContent)')).toContain('Browser region');
    await page.evaluate<void>(`(() => {
      document.querySelector('#field-name').value = 'Made in a browser';
      document.querySelector('#field-slug').value = 'made-in-a-browser';
      document.querySelector('#field-status').value = 'planned';
      document.querySelector('#field-region').value = ${JSON.stringify(region.id)};
      document.querySelector('#field-asn').value = '65123';
      document.querySelector('#field-tags option[value=${JSON.stringify(tag.id)}]').selected = true;
      document.querySelector('form.html-form button[value="POST"]').click();
    })()`);
    await page.waitFor('!document.querySelector("pre.form-result").hidden');
    expect((await texts(page, 'pre.form-result'))[0]).toMatch(/^HTTP 201 Created\n/);
    const [site] = (await app.get('/api/dcim/sites/?slug=made-in-a-browser')).body.results;
    expect(site).toMatchObject({ name: 'Made in a browser', status: { value: 'planned' }, region: { id: region.id }, asn: 65123, tenant: null });
    expect(site.tags.map((t: { id: string }) => t.id)).toEqual([tag.id]);
  });

  test('the login page is styled; after logging in, a PATCH through the HTML form sends the CSRF token', async () => {
    await app.createUser('browser', { superuser: true, password: 'browser password' });
    const site = (await app.post('/api/dcim/sites/', { name: 'Session site', slug: 'session-site', status: 'active', description: 'before' })).body;
    const page = await open(`/api-auth/login/?next=${encodeURIComponent(`/api/dcim/sites/${site.id}/`)}`, null);
    expect(await page.evaluate<string>('getComputedStyle(document.querySelector("header.topbar")).backgroundColor')).toBe('rgb(31, 58, 95)');
    expect(await page.evaluate<string>('getComputedStyle(document.querySelector("button[type=submit]")).color')).toBe('rgb(255, 255, 255)');
    expect(await page.evaluate<boolean>('!!document.querySelector("link[rel=icon]")')).toBe(true);
    await page.evaluate<void>(`(() => {
      document.querySelector('input[name=username]').value = 'browser';
      document.querySelector('input[name=password]').value = 'browser password';
      setTimeout(() => document.querySelector('form').submit(), 10);
    })()`);
    await settle(page, `location.pathname === ${JSON.stringify(`/api/dcim/sites/${site.id}/`)} && document.readyState === 'complete'`);
    expect(await texts(page, 'header .user')).toEqual(['Logged in as browser']);
    expect(await page.evaluate<string>('document.querySelector("#field-description").value')).toBe('before');
    await page.evaluate<void>(`(() => {
      document.querySelector('#field-description').value = 'after';
      document.querySelector('form.html-form button[value="PATCH"]').click();
    })()`);
    await page.waitFor('!document.querySelector("pre.form-result").hidden');
    expect((await texts(page, 'pre.form-result'))[0]).toMatch(/^HTTP 200 OK\n/);
    expect((await app.get(`/api/dcim/sites/${site.id}/`)).body).toMatchObject({ description: 'after', name: 'Session site', status: { value: 'active' } });
  });

  test('/api/docs/ draws the operations of the schema, from local assets only', async () => {
    // Swagger UI draws only the operations in view: a very tall window shows them all.
    const page = await browser.newPage({ Authorization: `Token ${app.token}` }, { width: 1280, height: 60_000 });
    await page.goto(`${app.baseUrl}/api/docs/?api_version=1.3`);
    await page.waitFor('[...document.querySelectorAll(".opblock-summary-path")].some((e) => e.textContent.includes("available-prefixes"))', 30_000);
    const operations = await page.evaluate<string[]>('[...document.querySelectorAll(".opblock .opblock-summary-path")].map((e) => e.textContent.trim().replace(/\\u200b/g, ""))');
    expect(operations).toEqual(expect.arrayContaining(['/extras/tags/', '/ipam/prefixes/{id}/available-prefixes/']));
    // Every resource the page loaded came from this server.
    const requested = await page.evaluate<string[]>('performance.getEntriesByType("resource").map((e) => e.name)');
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(app.baseUrl))).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${app.baseUrl}/api/swagger/?api_version=1.3`]));
  });
});

/** Polls through a navigation, when evaluating may fail while the next document loads. */
async function settle(page: Page, expression: string): Promise<void> {
  const until = Date.now() + 20_000;
  while (Date.now() < until) {
    if (await page.evaluate<boolean>(`Boolean(${expression})`).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${expression}`);
}

/** The methods of the page's forms (the raw form's buttons). */
function page_forms(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('[...document.querySelectorAll("form.raw-form button[type=submit]")].map((b) => b.value)');
}

describe('the HTML itself', () => {
  test('forms only for usable methods, escaped content, login link when anonymous', async () => {
    const writer = await app.raw().get(`${TAGS}?api_version=1.3`).set('Authorization', `Token ${app.token}`).set('Accept', 'text/html');
    expect(writer.text.match(/<button type="submit" class="\w+" value="(\w+)"/g)?.map((b) => b.replace(/.*value="(\w+)"/, '$1'))).toEqual(['POST', 'POST']);
    const reader = await app.raw().get(TAGS).set('Authorization', `Token ${readOnlyToken}`).set('Accept', 'text/html');
    expect(reader.text).not.toContain('type="submit" class="primary" value=');
    expect(reader.text).not.toContain('<form class="html-form"');
    const anonymous = await app.raw().get(TAGS).set('Accept', 'text/html');
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toContain('class="login"');
    expect(anonymous.text).not.toContain('<form class="raw-form"');
    const evil = await app.post(TAGS, { name: '<script>alert(1)</script>', slug: 'evil' });
    const page = await app.raw().get(`${TAGS}${evil.body.id}/`).set('Authorization', `Token ${app.token}`).set('Accept', 'text/html');
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});

/** The opening tag of the element with this id. */
function tagWithId(html: string, id: string): string {
  const m = new RegExp(`<(input|select|textarea)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html);
  if (!m) throw new Error(`no element #${id}`);
  return m[0];
}

/** The options of the select with this id: value, whether selected, text. */
function optionsOf(html: string, id: string): Array<{ value: string; selected: boolean; text: string }> {
  const start = html.indexOf(tagWithId(html, id));
  const body = html.slice(start, html.indexOf('</select>', start));
  return [...body.matchAll(/<option value="([^"]*)"( selected)?>([^<]*)<\/option>/g)].map((m) => ({ value: m[1], selected: !!m[2], text: m[3] }));
}

/** The text of an element's HTML, entities decoded. */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('the browsable page, as HTML', () => {
  const html = (path: string, token: string | null = app.token) => {
    const req = app.raw().get(path).set('Accept', 'text/html');
    return token ? req.set('Authorization', `Token ${token}`) : req;
  };
  let region: { id: string };
  let tenant: { id: string };
  let tag: { id: string };
  let site: { id: string; url: string };
  beforeAll(async () => {
    region = (await app.post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' })).body;
    tenant = (await app.post('/api/tenancy/tenants/', { name: '<script>alert(2)</script>', slug: 'evil-tenant' })).body;
    tag = (await app.post('/api/extras/tags/', { name: 'Core', slug: 'core', content_types: ['dcim.site'] })).body;
    site = (
      await app.post('/api/dcim/sites/', {
        name: 'Paris',
        slug: 'paris',
        status: 'planned',
        region: region.id,
        tenant: tenant.id,
        tags: [tag.id],
        asn: 65001,
        time_zone: 'Europe/Paris',
        comments: 'Main site',
      })
    ).body;
    expect(site.id).toBeDefined();
  });

  test('the body is coloured by type, its URLs are links, and its text is the JSON itself', async () => {
    const page = await html(`/api/dcim/sites/${site.id}/`);
    const body = /<pre class="response-body">([\s\S]*?)<\/pre>/.exec(page.text)?.[1] as string;
    expect(body).toContain('<span class="json-key">&quot;name&quot;</span>: <span class="json-string">&quot;Paris&quot;</span>');
    expect(body).toContain('<span class="json-key">&quot;asn&quot;</span>: <span class="json-number">65001</span>');
    expect(body).toContain('<span class="json-key">&quot;facility&quot;</span>: <span class="json-string">&quot;&quot;</span>');
    expect(body).toContain('<span class="json-key">&quot;latitude&quot;</span>: <span class="json-null">null</span>');
    expect(body).toContain(`<span class="json-string">&quot;<a href="${site.url}">${site.url}</a>&quot;</span>`);
    const json = (await app.get(`/api/dcim/sites/${site.id}/`)).body;
    expect(textOf(body)).toBe(JSON.stringify(json, null, 2));
    const users = await html('/api/users/users/');
    expect(users.text).toContain('<span class="json-key">&quot;is_active&quot;</span>: <span class="json-boolean">true</span>');
  });

  test('page links from count, limit and offset, keeping the filters', async () => {
    for (let i = 1; i <= 5; i++) await app.post('/api/dcim/regions/', { name: `pag-${i}`, slug: `pag-${i}` });
    const page = await html('/api/dcim/regions/?q=pag-&limit=2&offset=2');
    const nav = /<nav class="pagination"[\s\S]*?<\/nav>/.exec(page.text)?.[0] as string;
    const href = (rel: string) => new RegExp(`rel="${rel}" href="([^"]*)"`).exec(nav)?.[1].replace(/&amp;/g, '&');
    const base = `${app.baseUrl}/api/dcim/regions/`;
    expect(textOf(nav)).toContain('Page 2 of 3 · 5 objects');
    expect(href('first')).toBe(`${base}?limit=2&q=pag-`);
    expect(href('prev')).toBe(`${base}?limit=2&q=pag-`);
    expect(href('next')).toBe(`${base}?limit=2&offset=4&q=pag-`);
    expect(href('last')).toBe(`${base}?limit=2&offset=4&q=pag-`);
    const first = await html('/api/dcim/regions/?q=pag-&limit=2');
    const firstNav = /<nav class="pagination"[\s\S]*?<\/nav>/.exec(first.text)?.[0] as string;
    expect(textOf(firstNav)).toContain('Page 1 of 3');
    expect(firstNav).not.toContain('rel="prev"');
    expect(firstNav).toContain('rel="last" href="' + `${base}?limit=2&amp;offset=4&amp;q=pag-"`);
    // A detail has none.
    expect((await html(`/api/dcim/sites/${site.id}/`)).text).not.toContain('class="pagination"');
  });

  test("the filter form is built from the model's filters, holding the query's values", async () => {
    const page = await html('/api/dcim/sites/?api_version=1.3&status=planned&name=Paris&region=europe');
    const form = /<form class="filter-form"[\s\S]*?<\/form>/.exec(page.text)?.[0] as string;
    expect(tagWithId(form, 'filter-q')).toMatch(/type="search"[^>]*name="q"/);
    expect(tagWithId(form, 'filter-name')).toMatch(/type="text"[^>]*name="name" value="Paris"/);
    // Statuses: the choices OPTIONS lists for the field, as the filter takes them.
    const options = (await app.options('/api/dcim/sites/')).body.actions.POST.status.choices as Array<{ value: string; display: string }>;
    expect(optionsOf(form, 'filter-status').map((o) => [o.value, o.text])).toEqual([['', 'Any'], ...options.map((c) => [c.value, c.display])]);
    expect(optionsOf(form, 'filter-status').find((o) => o.selected)?.value).toBe('planned');
    // Related objects: by the target's natural key, listed from its endpoint by the script.
    expect(tagWithId(form, 'filter-region')).toContain('data-related="/api/dcim/regions/" data-value-key="slug"');
    expect(optionsOf(form, 'filter-region').find((o) => o.selected)?.value).toBe('europe');
    expect(form).toContain('<input type="hidden" name="api_version" value="1.3">');
    expect(form).toContain('method="get" action="/api/dcim/sites/"');
    // A filter with fixed choices: the interface type.
    const interfaces = await html('/api/dcim/interfaces/');
    const typeChoices = (await app.options('/api/dcim/interfaces/')).body.actions.POST.type.choices as Array<{ value: string }>;
    expect(optionsOf(interfaces.text, 'filter-type').map((o) => o.value)).toEqual(['', ...typeChoices.map((c) => c.value)]);
    expect(optionsOf(interfaces.text, 'filter-enabled').map((o) => o.value)).toEqual(['', 'true', 'false']);
  });

  test('a list has a POST form from the writable fields OPTIONS describes, and no PUT, PATCH or DELETE', async () => {
    const page = await html('/api/dcim/sites/');
    const form = /<form class="html-form"[\s\S]*?<\/form>/.exec(page.text)?.[0] as string;
    const described = (await app.options('/api/dcim/sites/')).body.actions.POST as Record<string, { read_only: boolean; choices?: Array<{ value: string }> }>;
    const writable = Object.entries(described).filter(([, f]) => !f.read_only).map(([name]) => name);
    expect([...form.matchAll(/ name="([^"]+)"/g)].map((m) => m[1])).toEqual(writable);
    expect(form).not.toContain('name="device_count"');
    expect(optionsOf(form, 'field-status').map((o) => o.value)).toEqual(['', ...(described.status.choices ?? []).map((c) => c.value)]);
    expect(tagWithId(form, 'field-region')).toContain('data-kind="related" data-related="/api/dcim/regions/"');
    expect(tagWithId(form, 'field-tags')).toMatch(/data-related="\/api\/extras\/tags\/"[^>]*multiple/);
    expect(tagWithId(form, 'field-custom_fields')).toContain('data-kind="json"');
    expect(tagWithId(form, 'field-asn')).toContain('type="number"');
    expect(tagWithId(form, 'field-name')).toMatch(/type="text"[^>]*data-kind="text" value=""/);
    expect(form.match(/<button type="submit"[^>]*value="(\w+)"/g)?.map((b) => /value="(\w+)"/.exec(b)?.[1])).toEqual(['POST']);
    for (const method of ['PUT', 'PATCH', 'DELETE']) expect(page.text).not.toContain(`value="${method}"`);
    expect(page.text).not.toContain('data-method="DELETE"');
    // Booleans are checkboxes, checked when the field defaults to true.
    const interfaces = await html('/api/dcim/interfaces/');
    expect(tagWithId(interfaces.text, 'field-enabled')).toMatch(/type="checkbox"[^>]*checked/);
    expect(tagWithId(interfaces.text, 'field-mgmt_only')).toMatch(/type="checkbox"[^>]*data-kind="bool">$/);
    expect(optionsOf(interfaces.text, 'field-type').length).toBeGreaterThan(10);
  });

  test('a detail has PUT and PATCH forms prefilled with the object, and a DELETE button', async () => {
    const page = await html(`/api/dcim/sites/${site.id}/`);
    const form = /<form class="html-form"[\s\S]*?<\/form>/.exec(page.text)?.[0] as string;
    expect(tagWithId(form, 'field-name')).toContain('value="Paris"');
    expect(tagWithId(form, 'field-asn')).toContain('value="65001"');
    expect(tagWithId(form, 'field-time_zone')).toContain('value="Europe/Paris"');
    expect(form).toMatch(/id="field-comments"[^>]*>Main site<\/textarea>/);
    expect(optionsOf(form, 'field-status').filter((o) => o.selected).map((o) => o.value)).toEqual(['planned']);
    expect(optionsOf(form, 'field-region').filter((o) => o.selected)).toEqual([{ value: region.id, selected: true, text: 'Europe' }]);
    expect(optionsOf(form, 'field-tags').filter((o) => o.selected).map((o) => o.value)).toEqual([tag.id]);
    expect(form).toMatch(/id="field-custom_fields"[^>]*>\{\}<\/textarea>/);
    expect(form.match(/<button type="submit"[^>]*value="(\w+)"/g)?.map((b) => /value="(\w+)"/.exec(b)?.[1])).toEqual(['PUT', 'PATCH']);
    expect(page.text).toMatch(/<button type="button" class="request-button danger" data-method="DELETE"/);
    // The raw form holds the writable fields of the object.
    const raw = JSON.parse(textOf(/<textarea id="raw-content"[^>]*>([\s\S]*?)<\/textarea>/.exec(page.text)?.[1] as string));
    expect(raw).toMatchObject({ name: 'Paris', asn: 65001 });
    expect(raw).not.toHaveProperty('device_count');
    // A read-only token gets neither forms nor the DELETE button.
    const reader = await html(`/api/dcim/sites/${site.id}/`, readOnlyToken);
    expect(reader.text).not.toContain('class="html-form"');
    expect(reader.text).not.toContain('data-method="DELETE"');
  });

  test('names, values and query parameters render inert wherever they appear', async () => {
    const evil = '<script>alert(1)</script>';
    const evilSite = (await app.post('/api/dcim/sites/', { name: evil, slug: 'evil-site', status: 'active', tenant: tenant.id, description: '"><img src=x onerror=alert(3)>' })).body;
    const page = await html(`/api/dcim/sites/${evilSite.id}/?x=${encodeURIComponent('"><script>alert(4)</script>')}`);
    // The one script element is the page's own.
    expect(page.text.match(/<script/gi)).toHaveLength(1);
    expect(page.text).not.toContain('<img src=x');
    expect(tagWithId(page.text, 'field-name')).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(tagWithId(page.text, 'field-description')).toContain('value="&quot;&gt;&lt;img src=x onerror=alert(3)&gt;"');
    expect(optionsOf(page.text, 'field-tenant').find((o) => o.selected)?.text).toBe('&lt;script&gt;alert(2)&lt;/script&gt;');
    const list = await html(`/api/dcim/sites/?name=${encodeURIComponent(evil)}&q=${encodeURIComponent('"><b id=x>')}`);
    expect(list.text.match(/<script/gi)).toHaveLength(1);
    expect(list.text).not.toContain('<b id=x>');
    expect(tagWithId(list.text, 'filter-q')).toContain('value="&quot;&gt;&lt;b id=x&gt;"');
    expect(tagWithId(list.text, 'filter-name')).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;"');
  });

  test('a favicon: served at /favicon.ico as an image, and linked from every page', async () => {
    const icon = await app.raw().get('/favicon.ico').buffer(true).parse((res, done) => {
      let data = '';
      res.on('data', (c: Buffer) => (data += c.toString()));
      res.on('end', () => done(null, data));
    });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(icon.body)).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const path of ['/api/dcim/sites/', '/api-auth/login/']) {
      expect((await html(path)).text).toMatch(/<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,%3Csvg/);
    }
  });

  test('the login page has the pages\u2019 style and header', async () => {
    const page = await app.raw().get('/api-auth/login/?next=/api/dcim/sites/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<header class="topbar">');
    expect(page.text).toMatch(/<style>[\s\S]*header\.topbar\{background:#1f3a5f[\s\S]*\.login-box/);
    expect(page.text).toMatch(/<div class="card login-box">[\s\S]*<input name="username"[\s\S]*<input name="password" type="password"[\s\S]*<button class="primary" type="submit">Log in<\/button>/);
    const failed = await app.raw().post('/api-auth/login/').type('form').send({ username: 'x', password: 'y', csrfmiddlewaretoken: 'z' });
    expect(failed.text).toContain('<p class="alert" role="alert">');
  });
});
