/**
 * Generic contract tests: every routed model is created, read, listed, changed and deleted through
 * HTTP, single and in bulk, as the specification and reference describe. A new model is covered
 * the moment it is declared (and fails here until it has a factory).
 */
import { loadConfig } from '../../app/config';
import { registryWith } from '../../app/database';
import { enabledPlugins } from '../../app/plugins';
import { FACTORIES } from '../factories/all';
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { contextFor, type Factory } from '../factories';
import { pathOf, startApp, type TestApp } from '../helpers/harness';
import type { ModelMeta } from '../../framework';

// The example plugin is enabled: plugin models must pass every generic test a core model passes.
const registry = registryWith(enabledPlugins(loadConfig({ NETINV_PLUGINS: EXAMPLE_PLUGIN })));
/** Every routed model; read-only ones (change records, content types) are seeded by their factories. */
const routed = registry.routed;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/;
/** Write responses always carry the opt-in fields; a GET asks for them to compare. */
const OPT_IN = 'include=computed_fields,relationships';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ NETINV_PLUGINS: EXAMPLE_PLUGIN });
});
afterAll(async () => {
  await app?.close();
});

type Change = { id: string; action: { value: string }; object_data: Record<string, unknown> };

async function changesOf(id: string): Promise<Change[]> {
  const res = await app.get(`/api/extras/object-changes/?changed_object_id=${id}&limit=0`);
  expect(res.status).toBe(200);
  return res.body.results as Change[];
}

/** How the database form holds what the API shows: related objects as ids, choices as values, lists in any order. */
function storedFormOf(shown: unknown): unknown {
  if (Array.isArray(shown)) return shown.map(storedFormOf).sort();
  if (shown !== null && typeof shown === 'object') {
    const o = shown as Record<string, unknown>;
    if ('id' in o && 'url' in o) return o.id;
    if ('value' in o && 'label' in o) return o.value;
  }
  return shown;
}

/** Status ids by slug: the API shows a status by its slug, the database form by its id. */
async function statusIds(): Promise<Map<string, string>> {
  const res = await app.get('/api/extras/statuses/?limit=0');
  expect(res.status).toBe(200);
  return new Map((res.body.results as Array<{ id: string; slug: string }>).map((s) => [s.slug, s.id]));
}

/**
 * A change record's `object_data` agrees with the API's representation of the same state on every
 * key both show; it carries no id, url or display, and its timestamps are the object's.
 */
async function expectDatabaseForm(model: ModelMeta, data: Record<string, unknown>, detail: Record<string, unknown>): Promise<void> {
  for (const key of ['id', 'url', 'display']) expect(data).not.toHaveProperty(key);
  const statuses = await statusIds();
  const recorded: Record<string, unknown> = {};
  const expected: Record<string, unknown> = {};
  for (const [key, shown] of Object.entries(detail)) {
    if (!(key in data) || key === 'created' || key === 'last_updated') continue;
    const kind = model.field(key)?.kind.name;
    recorded[key] = Array.isArray(data[key]) ? [...(data[key] as unknown[])].sort() : data[key];
    if (kind === 'status') expected[key] = shown === null ? null : statuses.get((shown as { value: string }).value);
    // A blank choice is stored as "" and shown as null, as Nautobot's ChoiceField shows it.
    else if (kind === 'choice' && shown === null && data[key] === '') expected[key] = '';
    // The tags feature records tag names; custom fields are keyed by name in both.
    else if (key === 'tags' && Array.isArray(shown) && shown.every((t) => t !== null && typeof t === 'object')) {
      expected[key] = (shown as Array<{ name: string }>).map((t) => t.name).sort();
    } else expected[key] = key === 'custom_fields' ? shown : storedFormOf(shown);
  }
  expect(recorded).toEqual(expected);
  if ('created' in detail) expect(data.created).toBe(detail.created);
  // Milliseconds in the record, microseconds in the API.
  if ('last_updated' in detail) expect(data.last_updated).toBe(new Date(Date.parse(detail.last_updated as string)).toISOString());
}

test('every routed model has a factory', () => {
  expect(routed.map((m) => m.label).filter((l) => !FACTORIES[l])).toEqual([]);
});


describe.each(routed.map((m) => [m.label, m] as const))('%s', (label, model) => {
  const factory: Factory = FACTORIES[label];
  const ctx = () => contextFor(app, FACTORIES);
  // Read-only endpoints (change records, content types) get their objects from the factory's seed and skip writes.
  // Models created otherwise than by a JSON POST (image attachments: multipart uploads) are seeded too.
  const creatable = model.allows('create');
  const writable = creatable && !factory.seed;
  const skipReason = creatable ? 'created by a multipart upload, not a JSON body; its own tests write it' : 'read-only endpoint';
  const writeTest = (name: string, fn: () => Promise<void>) => (writable ? test(name, fn) : test.skip(`${name} (skipped: ${skipReason})`, fn));
  const create = async (overrides: Record<string, unknown> = {}) => {
    if (!writable) {
      const id = await (factory.seed as NonNullable<Factory['seed']>)(ctx());
      return (await app.get(`${model.listPath}${id}/`)).body as Record<string, unknown> & { id: string; url: string };
    }
    const body = { ...(await factory.build(ctx())), ...overrides };
    const res = await app.post(model.listPath, body);
    expect(res.status).toBe(201);
    const made = res.body as Record<string, unknown> & { id: string; url: string };
    if (factory.computedOnReads?.length) {
      const read = (await app.get(`${model.listPath}${made.id}/`)).body as Record<string, unknown>;
      for (const key of factory.computedOnReads) made[key] = read[key];
    }
    return made;
  };
  const required = () => model.fields.filter((f) => f.required && f.name !== 'id' && !f.options.since).map((f) => f.name);

  writeTest('POST creates one object: 201, Location, full representation', async () => {
    const body = await factory.build(ctx());
    const res = await app.post(model.listPath, body);
    expect(res.status).toBe(201);
    expect(res.headers['api-version']).toBe('1.2');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    if (model.integerPk) expect(Number.isInteger(res.body.id)).toBe(true);
    else expect(res.body.id).toMatch(UUID);
    expect(res.headers.location).toBe(res.body.url);
    expect(res.body.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+${model.listPath}${res.body.id}/$`));
    expect(Object.keys(res.body).slice(0, 3)).toEqual(['id', 'display', 'url']);
    expect(typeof res.body.display).toBe('string');
    if (model.has('changelog')) {
      expect(res.body.created).toMatch(DATE);
      expect(res.body.last_updated).toMatch(DATETIME);
    }
    // Feature blocks: empty on a new object of a model with the feature, absent otherwise (a
    // model's own `tags` field, config contexts' assignment by tag slug, is not the feature's;
    // a hidden feature field, Git repositories' tags, shows no block).
    const blocks = { custom_fields: {}, tags: [], relationships: {}, computed_fields: {} };
    const expectedBlocks = Object.fromEntries(Object.entries(blocks).filter(([feature]) => model.has(feature) && !model.field(feature)?.hidden));
    const shownBlocks = Object.fromEntries(Object.keys(blocks).filter((k) => k in res.body && !(model.field(k) && !model.has(k))).map((k) => [k, res.body[k]]));
    expect(shownBlocks).toEqual(expectedBlocks);
    if (model.has('changelog')) {
      const keys = Object.keys(res.body);
      // A model's own `tags` field (config contexts' assignment by tag slug) is not the tags feature's tail key.
      const tail = ['created', 'last_updated', 'tags', 'notes_url', 'custom_fields', 'computed_fields', 'relationships'].filter(
        (k) => keys.includes(k) && (k !== 'tags' || (model.has('tags') && !model.field('tags')?.hidden)),
      );
      expect(keys.slice(keys.length - tail.length)).toEqual(tail);
    }
    const again = await app.get(`${model.listPath}${res.body.id}/?${OPT_IN}`);
    expect(again.status).toBe(200);
    for (const key of factory.computedOnReads ?? []) {
      expect(res.body[key]).toBeNull();
      again.body[key] = null;
    }
    expect(again.body).toEqual(res.body);
  });

  if (model.field('notes_url')) {
    test('notes_url lists the notes of the object', async () => {
      const res = writable ? await app.post(model.listPath, await factory.build(ctx())) : { status: 201, body: await create() };
      expect(res.status).toBe(201);
      expect(res.body.notes_url).toBe(`${res.body.url}notes/`);
      const notes = await app.get(pathOf(res.body.notes_url as string));
      expect(notes.status).toBe(200);
      expect(notes.body).toEqual({ count: 0, next: null, previous: null, results: [] });
    });
  } else {
    test('no notes_url, and no notes/ route', async () => {
      const obj = await create();
      expect(obj).not.toHaveProperty('notes_url');
      expect((await app.get(`${model.listPath}${obj.id}/notes/`)).status).toBe(404);
    });
  }

  test('GET list: envelope with count, next, previous and the object', async () => {
    const obj = await create();
    const res = await app.get(`${model.listPath}?id=${obj.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(res.body).toMatchObject({ count: 1, next: null, previous: null });
    expect(res.body.results).toEqual([await app.get(`${model.listPath}${obj.id}/`).then((r) => r.body)]);
    const all = await app.get(model.listPath);
    expect(all.body.count).toBeGreaterThanOrEqual(1);
  });

  test('brief form on list and detail: id, display, url and the brief fields', async () => {
    const obj = await create();
    const detail = await app.get(`${model.listPath}${obj.id}/?brief=1`);
    expect(detail.status).toBe(200);
    expect(Object.keys(detail.body)).toEqual(['id', 'display', 'url', ...model.brief]);
    const list = await app.get(`${model.listPath}?brief=true&id=${obj.id}`);
    expect(list.body.results).toEqual([detail.body]);
    const off = await app.get(`${model.listPath}${obj.id}/?brief=false`);
    expect(off.body).toEqual(await app.get(`${model.listPath}${obj.id}/`).then((r) => r.body));
  });

  writeTest('PATCH changes the given fields only', async () => {
    const obj = await create();
    const change = factory.change(ctx());
    const res = await app.patch(`${model.listPath}${obj.id}/`, change);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(change);
    const { last_updated: _a, ...before } = obj;
    const { last_updated: _b, ...after } = res.body as Record<string, unknown>;
    // The display follows the field it is made of; a factory names the keys derived from the changed ones.
    const changed = [
      ...Object.keys(change),
      ...(typeof model.display === 'string' && model.display in change ? ['display'] : []),
      ...(factory.derived ?? []),
    ];
    for (const key of changed) delete (before as Record<string, unknown>)[key];
    for (const key of changed) delete after[key];
    expect(after).toEqual(before);
    expect((await app.get(`${model.listPath}${obj.id}/?${OPT_IN}`)).body).toEqual(res.body);
    const empty = await app.patch(`${model.listPath}${obj.id}/`, {});
    expect(empty.status).toBe(200);
  });

  writeTest('PUT replaces with a complete object', async () => {
    const obj = await create();
    const full = factory.replace ? await factory.replace(ctx(), obj) : await factory.build(ctx());
    const res = await app.put(`${model.listPath}${obj.id}/`, full);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(obj.id);
  });

  const firstRequired = required()[0] as string | undefined;
  (firstRequired || !writable ? writeTest : test.skip)(
    `PUT without a required field is a 400${writable && !firstRequired ? ' (skipped: the model has no required field)' : ''}`,
    async () => {
      const obj = await create();
      const partial = factory.replace ? await factory.replace(ctx(), obj) : await factory.build(ctx());
      delete partial[firstRequired as string];
      const bad = await app.put(`${model.listPath}${obj.id}/`, partial);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ [firstRequired as string]: ['This field is required.'] });
    },
  );

  writeTest('DELETE one: 204 with no body, then 404', async () => {
    const obj = await create();
    const res = await app.delete(`${model.listPath}${obj.id}/`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    const gone = await app.get(`${model.listPath}${obj.id}/`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: 'Not found.' });
  });

  writeTest('bulk create, bulk update and bulk delete', async () => {
    const bodies = [await factory.build(ctx()), await factory.build(ctx())];
    const created = await app.post(model.listPath, bodies);
    expect(created.status).toBe(201);
    expect(created.headers.location).toBeUndefined();
    expect(created.body).toHaveLength(2);
    const ids = (created.body as Array<{ id: string }>).map((o) => o.id);
    // Each object as its detail shows it (with the opt-in fields a write's response carries; a
    // tree's depth is left out of create responses, as in Nautobot).
    for (const o of created.body as Array<Record<string, unknown>>) {
      const detail = await app.get(`${model.listPath}${o.id as string}/?include=computed_fields,relationships`);
      expect(detail.status).toBe(200);
      expect(o).toEqual('tree_depth' in o ? { ...detail.body, tree_depth: o.tree_depth } : detail.body);
    }
    // One change per item: unique fields may be among those changed.
    const changes = new Map(ids.map((id) => [id, factory.change(ctx())]));
    const updated = await app.patch(model.listPath, ids.map((id) => ({ id, ...changes.get(id) })));
    expect(updated.status).toBe(200);
    expect(Array.isArray(updated.body)).toBe(true);
    expect((updated.body as Array<{ id: string }>).map((o) => o.id).sort()).toEqual([...ids].sort());
    for (const o of updated.body as Array<{ id: string }>) expect(o).toMatchObject(changes.get(o.id) as object);
    const deleted = await app.delete(model.listPath, ids.map((id) => ({ id })));
    expect(deleted.status).toBe(204);
    for (const id of ids) expect((await app.get(`${model.listPath}${id}/`)).status).toBe(404);
    expect((await app.post(model.listPath, [])).body).toEqual([]);
  });

  (model.has('changelog') ? writeTest : test.skip)(
    `change records: create, update and delete each record the database form${model.has('changelog') ? '' : ' (skipped: no change log)'}`,
    async () => {
      const obj = await create();
      const created = await changesOf(obj.id);
      expect(created.map((c) => c.action.value)).toEqual(['create']);
      await expectDatabaseForm(model, created[0].object_data, (await app.get(`${model.listPath}${obj.id}/`)).body);

      const patched = await app.patch(`${model.listPath}${obj.id}/`, factory.change(ctx()));
      expect(patched.status).toBe(200);
      const updated = (await changesOf(obj.id)).filter((c) => c.action.value === 'update');
      expect(updated).toHaveLength(1);
      const afterPatch = (await app.get(`${model.listPath}${obj.id}/`)).body;
      await expectDatabaseForm(model, updated[0].object_data, afterPatch);
      expect(Object.keys(updated[0].object_data).sort()).toEqual(Object.keys(created[0].object_data).sort());

      expect((await app.delete(`${model.listPath}${obj.id}/`)).status).toBe(204);
      const deleted = (await changesOf(obj.id)).filter((c) => c.action.value === 'delete');
      expect(deleted).toHaveLength(1);
      // Nothing changed between the update and the delete: the same stored state, read anew.
      expect(deleted[0].object_data).toEqual(updated[0].object_data);
    },
  );

  writeTest('bulk writes are all-or-none', async () => {
    // What makes an item invalid: its first required field set to null, or the factory's own.
    const invalid = factory.invalid ?? { [required()[0]]: null };
    const before = (await app.get(model.listPath)).body.count;
    const good = await factory.build(ctx());
    const bad = { ...(await factory.build(ctx())), ...invalid };
    const res = await app.post(model.listPath, [good, bad]);
    expect(res.status).toBe(400);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toEqual({});
    expect(Object.keys(res.body[1])).toEqual(expect.arrayContaining(Object.keys(invalid)));
    expect((await app.get(model.listPath)).body.count).toBe(before);

    const a = await create();
    const b = await create();
    const change = factory.change(ctx());
    const upd = await app.patch(model.listPath, [{ id: a.id, ...change }, { id: b.id, ...invalid }]);
    expect(upd.status).toBe(400);
    expect(Array.isArray(upd.body)).toBe(false);
    expect((await app.get(`${model.listPath}${a.id}/?${OPT_IN}`)).body).toEqual(a);
  });

  const optionsBody = { name: model.title, renders: ['application/json', 'text/html'], parses: ['application/json'] };
  // Endpoints the server fills but clients may change (job records) describe PUT only.
  if (!creatable && model.allows('update')) {
    test('OPTIONS: a PUT action only on an endpoint without create', async () => {
      const res = await app.options(model.listPath);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(optionsBody);
      expect(Object.keys(res.body.actions ?? {})).not.toContain('POST');
    });
  } else if (!creatable) {
    test('OPTIONS: no actions on a read-only endpoint', async () => {
      const res = await app.options(model.listPath);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject(optionsBody);
      expect(res.body).not.toHaveProperty('actions');
    });
  }

  writeTest('OPTIONS: actions only for callers who may write', async () => {
    const res = await app.options(model.listPath);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(optionsBody);
    expect(Object.keys(res.body.actions)).toEqual(['POST', 'PUT']);
    const post = res.body.actions.POST as Record<string, { type: string; required: boolean; read_only: boolean; label: string }>;
    expect(Object.keys(post).slice(0, 3)).toEqual(['id', 'display', 'url']);
    for (const name of required()) expect(post[name]).toMatchObject({ required: true, read_only: false });
    const detail = await app.options(`${model.listPath}${model.integerPk ? '999999' : '00000000-0000-4000-8000-000000000000'}/`);
    expect(detail.status).toBe(200);
    expect(Object.keys(detail.body.actions)).toEqual(['PUT']);
    const readOnly = await app.createToken(app.adminId, { writeEnabled: false });
    const ro = await app.options(model.listPath, readOnly);
    expect(ro.status).toBe(200);
    expect(ro.body.actions).toBeUndefined();
  });

  if (!creatable) test('read-only endpoint: every write it does not offer is a 405', async () => {
    const obj = await create();
    const detail = `${model.listPath}${obj.id}/`;
    const writes = [await app.post(model.listPath, {})];
    if (!model.allows('update')) writes.push(await app.patch(detail, {}), await app.put(detail, {}));
    if (!model.allows('delete')) writes.push(await app.delete(detail), await app.delete(model.listPath, [{ id: obj.id }]));
    for (const res of writes) {
      expect(res.status).toBe(405);
      expect(res.body.detail).toMatch(/^Method "(POST|PATCH|PUT|DELETE)" not allowed\.$/);
    }
    expect((await app.get(detail)).status).toBe(200);
  });

  test('URL rules: trailing slash redirect, unknown and malformed ids, 405 after permission', async () => {
    const obj = await create();
    const redirect = await app.get(`${model.listPath}${obj.id}?brief=1`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe(`${model.listPath}${obj.id}/?brief=1`);
    expect((await app.get(`${model.listPath}11111111-1111-4111-8111-111111111111/`)).status).toBe(404);
    expect((await app.get(`${model.listPath}not-a-uuid/`)).status).toBe(404);
    const post = await app.post(`${model.listPath}${obj.id}/`, {});
    expect(post.status).toBe(405);
    expect(post.body).toEqual({ detail: 'Method "POST" not allowed.' });
    expect((await app.post(`${model.listPath}${obj.id}/`, {}, null)).status).toBe(403);
  });

  test('filters: id and id__n; unknown filters are a 400 naming them', async () => {
    const a = await create();
    const b = await create();
    const both = await app.get(`${model.listPath}?id=${a.id}&id=${b.id}`);
    expect(both.body.count).toBe(2);
    const not = await app.get(`${model.listPath}?id__n=${a.id}&id=${a.id}&id=${b.id}`);
    expect(not.body.results.map((o: { id: string }) => o.id)).toEqual([b.id]);
    const unknown = await app.get(`${model.listPath}?ice_cream_flavor=vanilla`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ ice_cream_flavor: ['Unknown filter field'] });
    const bad = await app.get(`${model.listPath}?id=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ id: [model.integerPk ? 'Enter a whole number.' : 'Enter a valid UUID.'] });
  });
});
