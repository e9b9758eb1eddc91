/**
 * Generic filter tests: every filter that the framework generates for every registered model is
 * accepted with a well-formed value, selects (or excludes) an object by its own value, and answers
 * a malformed value with a 400 naming the parameter, with strict filtering on and off. A new
 * model or field is covered the moment it is declared.
 */
import { coreRegistry } from '../../app/database';
import { filterSetFor, type FilterDescription } from '../../framework/filterset/filterset';
import type { ModelMeta } from '../../framework/metadata/model-meta';
import { FACTORIES } from '../factories/all';
import { contextFor } from '../factories';
import { startApp, type TestApp } from '../helpers/harness';

const registry = coreRegistry();
const routed = registry.routed;
const UNKNOWN_UUID = '00000000-0000-4000-8000-00000000dead';

let app: TestApp;
let lenient: TestApp;
beforeAll(async () => {
  app = await startApp();
  lenient = await startApp({ NETINV_STRICT_FILTERING: 'false' }, { databaseSuffix: 'lenient' });
});
afterAll(async () => {
  await app?.close();
  await lenient?.close();
});

type Obj = Record<string, unknown> & { id: string };

/** Objects of each model in one app, created on demand through the factories. */
class Objects {
  private readonly cache = new Map<string, Promise<Obj>>();
  constructor(private readonly target: () => TestApp) {}
  of(label: string): Promise<Obj> {
    let p = this.cache.get(label);
    if (!p) {
      p = (async () => {
        const a = this.target();
        const model = a.server.registry.get(label) as ModelMeta;
        // Read-only models (content types) are filled by the server: any existing row will do.
        if (!model.allows('create')) return (await a.get(`${model.listPath}?limit=1`)).body.results[0] as Obj;
        const id = await contextFor(a, FACTORIES).make(label);
        return (await a.get(`${model.listPath}${id}/`)).body as Obj;
      })();
      this.cache.set(label, p);
    }
    return p;
  }
}

const objects = new Objects(() => app);
const lenientObjects = new Objects(() => lenient);

function fieldKind(model: ModelMeta, d: FilterDescription): string | undefined {
  return d.target ? model.field(d.target)?.kind.name : undefined;
}

/** A value every filter of this description accepts, taken from real objects where it must exist. */
async function wellFormed(model: ModelMeta, d: FilterDescription, objs: Objects): Promise<string> {
  if (d.related) {
    const target = await objs.of(d.related.model);
    if (d.related.by === 'id') return String(target.id);
    return String(target[d.related.naturalKey as string]);
  }
  if (d.choices) return String(d.choices[0]);
  if (d.format === 'address') return '10.0.0.1';
  if (d.format === 'network') return '10.0.0.0/8';
  // Models' own network filters (`address`, `within`, `parent`…) take networks.
  if (d.lookup === 'method' && d.type === 'string' && model.fields.some((f) => f.kind.name === 'network')) return '10.0.0.0/8';
  switch (fieldKind(model, d)) {
    case 'content-types':
      return model.label;
    case 'network':
      return d.lookup?.startsWith('net_') ? '10.0.0.0/8' : '10.';
    case 'ip-family':
      return '4';
    case 'timezone':
      return 'Europe/Amsterdam';
    default:
      break;
  }
  switch (d.type) {
    case 'uuid':
      return (await objs.of(model.label)).id;
    case 'integer':
      return '1';
    case 'number':
      return '1.5';
    case 'date':
      return '2024-01-02';
    case 'date-time':
      return '2024-01-02T03:04:05Z';
    case 'boolean':
      return 'true';
    default:
      return 'x';
  }
}

/** A malformed value and the message it must produce, or null when any text is a valid value. */
function malformed(model: ModelMeta, d: FilterDescription): { value: string; message: string } | null {
  if (d.related) {
    const value = d.related.by === 'id' ? 'not-a-uuid' : 'no-such-object';
    const uuidTarget = d.related.by === 'id' && !registry.get(d.related.model)?.integerPk;
    const message = uuidTarget ? `“${value}” is not a valid UUID.` : `Select a valid choice. ${value} is not one of the available choices.`;
    return { value, message };
  }
  if (d.choices) return { value: 'no-such-choice', message: 'Select a valid choice. no-such-choice is not one of the available choices.' };
  const kind = fieldKind(model, d);
  if (kind === 'network' && d.lookup?.startsWith('net_')) return { value: '10.0.0.300/8', message: 'Invalid IP address format: 10.0.0.300/8' };
  if (kind === 'ip-family') return { value: '5', message: 'Must be 4 or 6.' };
  if (d.format === 'address') return { value: '10.0.0.300', message: 'Invalid IP address format: 10.0.0.300' };
  // Filters written by models that take an object's UUID read as Nautobot's related-object filters.
  if (d.lookup === 'method' && d.type === 'uuid') return { value: 'abc', message: '“abc” is not a valid UUID.' };
  if (kind === 'content-types' || kind === 'timezone') {
    return { value: 'nowhere.nothing', message: 'Select a valid choice. nowhere.nothing is not one of the available choices.' };
  }
  switch (d.type) {
    case 'uuid':
      return { value: 'abc', message: 'Enter a valid UUID.' };
    case 'integer':
      return { value: 'abc', message: 'Enter a whole number.' };
    case 'number':
      return { value: 'abc', message: 'Enter a number.' };
    case 'date':
      return { value: '2024-13-45', message: 'Enter a valid date.' };
    case 'date-time':
      return { value: 'yesterday', message: 'Enter a valid date/time.' };
    default:
      break;
  }
  if (d.lookup === 'regex' || d.lookup === 'iregex') return { value: '(', message: 'Invalid regular expression: missing closing parenthesis.' };
  return null;
}

function query(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

/** The object's own value for a plain field filter, as a query value (null: not comparable). */
function ownValue(model: ModelMeta, d: FilterDescription, obj: Obj): string | null {
  if (!d.target || d.related || d.type === 'boolean' || d.lookup === 'search' || d.lookup === 'method' || d.lookup === 'exists') return null;
  const field = model.field(d.target);
  if (!field || !['string', 'text', 'slug', 'integer', 'uuid', 'date', 'datetime'].includes(field.kind.name)) return null;
  const v = obj[d.target];
  if (v === null || v === undefined || v === '') return null;
  return String(v);
}

/** Escapes a literal for the common regular-expression subset. */
function regexLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}

/** Value that makes a lookup select the object by its own value `v` (null: none simple). */
function selecting(lookup: string, v: string, type: string): string | null {
  // Every value of an id filter is a complete UUID, whatever the lookup.
  if (type === 'uuid') return lookup.startsWith('i') ? v.toUpperCase() : v;
  switch (lookup) {
    case 'lt':
    case 'gt':
      if (type !== 'integer') return null;
      return String(Number(v) + (lookup === 'lt' ? 1 : -1));
    case 'icontains':
      return v.slice(1, -1) || v;
    case 'istartswith':
      return v.slice(0, Math.max(1, v.length - 1)).toUpperCase();
    case 'iendswith':
      return v.slice(1).toUpperCase() || v;
    case 'iexact':
      return v.toUpperCase();
    case 'regex':
      return `^${regexLiteral(v)}$`;
    case 'iregex':
      return `^${regexLiteral(v.toUpperCase())}$`;
    default:
      return v;
  }
}

const cases = routed.flatMap((model) => filterSetFor(model).describe().map((d) => [model.label, d.name, model, d] as const));

test('every routed model has filters, q among them', () => {
  for (const model of routed) expect(filterSetFor(model).describe().map((d) => d.name)).toEqual(expect.arrayContaining(['id', 'q']));
});

describe.each(cases)('%s ?%s', (_label, name, model, d) => {
  test('a well-formed value is accepted (strict and lenient)', async () => {
    const value = await wellFormed(model, d, objects);
    const res = await app.get(`${model.listPath}?${query(name, value)}`);
    expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({ status: 200, body: 'ok' });
    const lenientValue = await wellFormed(model, d, lenientObjects);
    expect((await lenient.get(`${model.listPath}?${query(name, lenientValue)}`)).status).toBe(200);
  });

  test('a malformed value is a 400 naming the parameter, with strict filtering on or off', async () => {
    const bad = malformed(model, d);
    if (!bad) {
      // Boolean filters ignore values they do not know (Nautobot's NullBooleanSelect).
      if (d.type === 'boolean') {
        const all = await app.get(`${model.listPath}?limit=1`);
        const res = await app.get(`${model.listPath}?${query(name, 'maybe')}&limit=1`);
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(all.body.count);
      }
      return;
    }
    for (const a of [app, lenient]) {
      const res = await a.get(`${model.listPath}?${query(name, bad.value)}`);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { [name]: [bad.message] } });
    }
    if (d.related && d.related.by !== 'natural-only' && !registry.get(d.related.model)?.integerPk) {
      const res = await app.get(`${model.listPath}?${query(name, UNKNOWN_UUID)}`);
      expect(res.body).toEqual({ [name]: [`Select a valid choice. ${UNKNOWN_UUID} is not one of the available choices.`] });
    }
  });

  test('an unknown lookup on it is "Unknown filter field" when strict, ignored when lenient', async () => {
    const param = `${name}__bogus`;
    const res = await app.get(`${model.listPath}?${query(param, 'x')}`);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { [param]: ['Unknown filter field'] } });
    expect((await lenient.get(`${model.listPath}?${query(param, 'x')}`)).status).toBe(200);
  });

  test('the object is selected by its own value, and excluded by the negated lookup', async () => {
    const obj = await objects.of(model.label);
    const v = ownValue(model, d, obj);
    if (v === null) return;
    const value = selecting(d.lookup, v, d.type);
    if (value === null) return;
    const res = await app.get(`${model.listPath}?${query(name, value)}&limit=0`);
    expect(res.status).toBe(200);
    const ids = (res.body.results as Obj[]).map((o) => o.id);
    if (d.negated) expect(ids).not.toContain(obj.id);
    else expect(ids).toContain(obj.id);
  });
});

describe('filter descriptions', () => {
  test.each(routed.map((m) => [m.label, m] as const))('%s: every filter described once, with a type and help', (_label, model) => {
    const described = filterSetFor(model).describe();
    const names = described.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.sort()).toEqual([...filterSetFor(model).filters.keys()].sort());
    for (const d of described) {
      expect(['string', 'integer', 'number', 'boolean', 'date', 'date-time', 'uuid']).toContain(d.type);
      expect(d.help.length).toBeGreaterThan(0);
      if (d.related) expect(registry.get(d.related.model)).toBeDefined();
    }
  });
});
