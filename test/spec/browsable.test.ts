/**
 * The browsable API and the documentation page, rendered by headless Chromium: breadcrumbs,
 * links, the raw-JSON forms the caller may use (and none for others), a working form, the login
 * link for anonymous visitors, and Swagger UI drawing the schema from local assets only.
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
    expect(await page.evaluate<string[]>('[...document.querySelectorAll("form.raw-form")].map((f) => f.dataset.method)')).toEqual(['POST', 'PUT', 'PATCH', 'DELETE']);
    expect(await texts(page, 'header .user')).toEqual(['Logged in as admin']);
    const body = JSON.parse(await page.evaluate<string>('document.querySelector("pre.response-body").textContent')) as { count: number };
    expect(body.count).toBeGreaterThanOrEqual(1);
  });

  test('a detail page: following a link, then a PATCH through its form', async () => {
    const page = await open(`${TAGS}?api_version=1.3`, app.token);
    const loaded = page.goto(tag.url);
    await loaded;
    expect(await texts(page, 'h1.request-line')).toEqual([`GET ${new URL(tag.url).pathname}`]);
    expect(await page.evaluate<string[]>('[...document.querySelectorAll("form.raw-form")].map((f) => f.dataset.method)')).toEqual(['PUT', 'PATCH', 'DELETE']);
    await page.evaluate<void>(`(() => {
      const form = document.querySelector('form.raw-form[data-method="PATCH"]');
      form.querySelector('textarea').value = JSON.stringify({ description: 'changed in a browser' });
      form.querySelector('button').click();
    })()`);
    await page.waitFor('!document.querySelector("pre.form-result").hidden');
    expect((await texts(page, 'pre.form-result'))[0]).toMatch(/^HTTP 200\n/);
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

function page_forms(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('[...document.querySelectorAll("form.raw-form")].map((f) => f.dataset.method)');
}

describe('the HTML itself', () => {
  test('forms only for usable methods, escaped content, login link when anonymous', async () => {
    const writer = await app.raw().get(`${TAGS}?api_version=1.3`).set('Authorization', `Token ${app.token}`).set('Accept', 'text/html');
    expect(writer.text.match(/data-method="(\w+)"/g)).toEqual(['data-method="POST"', 'data-method="PUT"', 'data-method="PATCH"', 'data-method="DELETE"']);
    const reader = await app.raw().get(TAGS).set('Authorization', `Token ${readOnlyToken}`).set('Accept', 'text/html');
    expect(reader.text).not.toContain('data-method=');
    const anonymous = await app.raw().get(TAGS).set('Accept', 'text/html');
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toContain('class="login"');
    expect(anonymous.text).not.toContain('data-method=');
    const evil = await app.post(TAGS, { name: '<script>alert(1)</script>', slug: 'evil' });
    const page = await app.raw().get(`${TAGS}${evil.body.id}/`).set('Authorization', `Token ${app.token}`).set('Accept', 'text/html');
    expect(page.text).not.toContain('<script>alert(1)</script>');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
});
