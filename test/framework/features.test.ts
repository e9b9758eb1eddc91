/**
 * The feature-provider mechanism alone, with throw-away models and providers declared here: the
 * custom-fields field delegating to its provider (representation, writes, dynamic filters over
 * JSON keys, OPTIONS), opt-in computed fields (`include`, write responses, one load per page,
 * writes and deletions), and the single content-type field.
 */
import {
  BaseModel, Computed, ContentTypeField, defineApp, Field, jsonKeyTest, Model, OrganizationalModel, ValidationError,
  type ComputedProvider, type CustomFieldProvider, type Id, type Json, type JsonObject,
  DataKey,
  RequestData,
} from '../../framework';
import { fixtureApi, type FixtureApi } from '../helpers/fixture-api';

@Model({ path: 'gadgets', display: 'name', brief: ['name'], ordering: ['name'] })
class Gadget extends OrganizationalModel {
  @Field.String({ maxLength: 50 })
  name!: string;
}

@Model({ path: 'labels', display: 'name', brief: ['name'], ordering: ['name'] })
class Label extends BaseModel {
  @Field.String({ maxLength: 50 })
  name!: string;

  @ContentTypeField({ forFeature: 'custom_fields' })
  target!: string;
}

const PREPARED = new DataKey<number>('prepared');

/** A provider storing any key and refusing the key `bad`; `cf_<key>` filters by exact text. */
const customFields: CustomFieldProvider = {
  filterPrefix: 'cf_',
  async prepare(_db: unknown, features: RequestData) {
    features.set(PREPARED, (features.get(PREPARED) ?? 0) + 1);
  },
  represent: (_model, data) => ({ ...data }),
  async parse(_model, input, _wc, stored) {
    return { ...stored, ...(input as JsonObject) };
  },
  async clean(_model, data) {
    if ('bad' in data) throw ValidationError.model("Invalid value for custom field 'bad': no");
    return data;
  },
  describe: () => ({ color: { type: 'string', required: false, read_only: false, label: 'Color' } }),
  filter(model, name) {
    if (!name.startsWith('cf_')) return undefined;
    const field = model.field('custom_fields');
    if (!field) return undefined;
    return { name, multiple: 'last', type: 'string', build: ([v]) => jsonKeyTest(field, name.slice(3), 'text', 'exact', [v]) };
  },
};

const calls = { loads: 0, writes: [] as unknown[], removed: [] as Id[][] };

/** Relationships stand-in: a per-page load, writes and deletions recorded. */
const relationships: ComputedProvider = {
  async load(_model, ids) {
    calls.loads += 1;
    return new Map(ids.map((id) => [id, { page: ids.length } as Json]));
  },
  async parse(_model, input) {
    if (typeof input !== 'object' || input === null) throw new ValidationError({ relationships: ['must be an object'] });
    return input;
  },
  async write(_model, _id, value) {
    calls.writes.push(value);
  },
  async removed(_model, ids) {
    calls.removed.push(ids);
  },
};

/** Computed fields stand-in: derived from the representation built so far. */
const computedFields: ComputedProvider = {
  value: (_model, obj) => ({ shout: String(obj.name).toUpperCase(), colour: String((obj.custom_fields as JsonObject)?.color ?? '') }),
};

let api: FixtureApi;
beforeAll(async () => {
  api = await fixtureApi([
    defineApp('shop', [Gadget, Label], { provides: { custom_fields: customFields, relationships, computed_fields: computedFields } }),
  ]);
});
afterAll(async () => {
  await api?.close();
});

const G = '/api/shop/gadgets/';

describe('custom fields through the provider', () => {
  test('written, merged on PATCH, validated, read back', async () => {
    const created = await api.post(G, { name: 'one', custom_fields: { color: 'red', size: 3 } });
    expect(created.status).toBe(201);
    expect(created.body.custom_fields).toEqual({ color: 'red', size: 3 });
    const patched = await api.patch(`${G}${created.body.id}/`, { custom_fields: { size: 4 } });
    expect(patched.body.custom_fields).toEqual({ color: 'red', size: 4 });
    const bad = await api.patch(`${G}${created.body.id}/`, { custom_fields: { bad: 1 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ __all__: ["Invalid value for custom field 'bad': no"] });
  });

  test('dynamic filters compile to JSON key tests; unknown ones stay unknown', async () => {
    await api.post(G, { name: 'blue one', custom_fields: { color: 'blue' } });
    const res = await api.get(`${G}?cf_color=blue`);
    expect(res.body.results.map((g: { name: string }) => g.name)).toEqual(['blue one']);
    expect((await api.get(`${G}?xf_color=blue`)).status).toBe(400);
  });

  test('OPTIONS describes the custom fields as children', async () => {
    const res = await api.options(G);
    expect(res.body.actions.POST.custom_fields).toEqual({
      type: 'field', required: false, read_only: false, label: 'Custom fields',
      children: { color: { type: 'string', required: false, read_only: false, label: 'Color' } },
    });
    expect(res.body.actions.POST.computed_fields).toEqual({ type: 'field', required: false, read_only: true, label: 'Computed fields' });
    expect(res.body.actions.POST.relationships).toEqual({ type: 'field', required: false, read_only: false, label: 'Relationships' });
  });
});

describe('opt-in computed fields', () => {
  let id: string;
  beforeAll(async () => {
    id = (await api.post(G, { name: 'opt', custom_fields: { color: 'green' } })).body.id;
  });

  test('absent on GET unless included; include is a substring when single, exact when repeated', async () => {
    const plain = await api.get(`${G}${id}/`);
    expect('computed_fields' in plain.body || 'relationships' in plain.body).toBe(false);
    const one = await api.get(`${G}${id}/?include=computed_fields`);
    expect(one.body.computed_fields).toEqual({ shout: 'OPT', colour: 'green' });
    expect('relationships' in one.body).toBe(false);
    const both = await api.get(`${G}${id}/?include=computed_fields,relationships`);
    expect(Object.keys(both.body).slice(-3)).toEqual(['custom_fields', 'computed_fields', 'relationships']);
    const repeated = await api.get(`${G}${id}/?include=computed_fields&include=relationships`);
    expect(Object.keys(repeated.body).slice(-2)).toEqual(['computed_fields', 'relationships']);
    const sloppy = await api.get(`${G}${id}/?include=computed_fields,x&include=relationships`);
    expect('computed_fields' in sloppy.body).toBe(false);
    const brief = await api.get(`${G}${id}/?brief=1&include=computed_fields,relationships`);
    expect(Object.keys(brief.body)).toEqual(['id', 'display', 'url', 'name']);
  });

  test('write responses always carry them', async () => {
    const res = await api.patch(`${G}${id}/`, { name: 'opt2' });
    expect(res.body.computed_fields).toEqual({ shout: 'OPT2', colour: 'green' });
    expect(res.body.relationships).toEqual({ page: 1 });
  });

  test('the provider loads once per page, only when included', async () => {
    for (let i = 0; i < 5; i++) await api.post(G, { name: `page ${i}` });
    const before = calls.loads;
    await api.get(`${G}?limit=3`);
    expect(calls.loads).toBe(before);
    const res = await api.get(`${G}?limit=4&include=relationships`);
    expect(calls.loads).toBe(before + 1);
    expect(res.body.results.map((g: { relationships: unknown }) => g.relationships)).toEqual(Array(4).fill({ page: 4 }));
  });

  test('writes reach the provider after the row is saved; deletions before the row goes', async () => {
    const created = await api.post(G, { name: 'linked', relationships: { x: 1 } });
    expect(created.status).toBe(201);
    expect(calls.writes.at(-1)).toEqual({ x: 1 });
    const bad = await api.post(G, { name: 'unlinked', relationships: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ relationships: ['must be an object'] });
    expect((await api.delete(`${G}${created.body.id}/`)).status).toBe(204);
    expect(calls.removed.at(-1)).toEqual([created.body.id]);
  });
});

describe('single content type field', () => {
  test('accepts labels of models in the feature; OPTIONS lists them as choices', async () => {
    const ok = await api.post('/api/shop/labels/', { name: 'a', target: 'shop.gadget' });
    expect(ok.status).toBe(201);
    expect(ok.body.target).toBe('shop.gadget');
    const other = await api.post('/api/shop/labels/', { name: 'b', target: 'shop.label' });
    expect(other.body).toEqual({ target: ['Invalid content type: shop.label'] });
    const malformed = await api.post('/api/shop/labels/', { name: 'c', target: 'gadget' });
    expect(malformed.body).toEqual({ target: ["Invalid value. Specify a content type as '<app_label>.<model_name>'."] });
    const filtered = await api.get('/api/shop/labels/?target=shop.gadget');
    expect(filtered.body.count).toBe(1);
    expect((await api.get('/api/shop/labels/?target=nope.nope')).status).toBe(400);
    const options = await api.options('/api/shop/labels/');
    expect(options.body.actions.POST.target.choices).toEqual([{ value: 'shop.gadget', display: 'shop | gadget' }]);
  });
});
