/**
 * The filter machinery below HTTP: the common regular-expression subset and its rendering per
 * engine, case folding, boolean values, filter descriptions of throw-away models, lenient
 * filtering, and statement time limits on the database under test.
 */
import {
  BaseModel, ChangeLoggedModel, ChoiceField, defineApp, defineChoices, Field, Filter, ForeignKey, Model,
  Predicates, buildRegistry,
} from '../../framework';
import { createDataSource, openDatabase } from '../../framework/store/datasource';
import { simpleLower } from '../../framework/store/sqlite-functions';
import { booleanFilterValue } from '../../framework/fields/boolean';
import { FilterValueError } from '../../framework/fields/kind';
import { filterSetFor, RESERVED_PARAMS } from '../../framework/filterset/filterset';
import { CommonRegex } from '../../framework/query/regex';
import { dialectUnderTest, freshDatabaseUrl } from '../helpers/database';
import { fixtureApi, type FixtureApi } from '../helpers/fixture-api';

const Size = defineChoices([[1, 'Small'], [2, 'Large']] as const);

@Model({ path: 'cupboards', display: 'name', brief: ['name'], ordering: ['name'], search: ['name'] })
class Cupboard extends BaseModel {
  @Field.String({ maxLength: 20, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 20, from: 'name' })
  slug!: string;
}

@Model({ path: 'jars', display: 'label', brief: ['label'], ordering: ['label'], search: ['label', 'note'] })
class Jar extends ChangeLoggedModel {
  @Field.String({ maxLength: 30, help: 'What is written on the jar' })
  label!: string;

  @Field.Text({ blank: true })
  note!: string;

  @ChoiceField(Size, { default: 1 })
  size!: number;

  @Field.Integer({ nullable: true })
  grams!: number | null;

  @Field.Boolean({ default: false })
  empty!: boolean;

  @ForeignKey(() => Cupboard, { nullable: true, onDelete: 'set_null', related: 'jars' })
  cupboard!: Cupboard | null;

  @Filter({ type: 'integer', help: 'Jars holding at least this many grams' })
  static heavier(value: number, p: Predicates) {
    return p.lookup('grams', 'gte', value);
  }
}

const registry = buildRegistry([defineApp('pantry', [Cupboard, Jar])]);

describe('common regular-expression subset', () => {
  const rejected = (pattern: string) => {
    try {
      CommonRegex.parse(pattern);
      return null;
    } catch (err) {
      expect(err).toBeInstanceOf(FilterValueError);
      return (err as Error).message;
    }
  };

  test('each construct is written in every engine syntax with the same meaning', () => {
    const r = CommonRegex.parse('^a.c\\d+[^\\s\\]x-z]$');
    expect(r.render('re2')).toBe('^a[^\\x{0a}]c[0-9]+[^\\x{09}-\\x{0d} \\]x-z]\\z');
    expect(r.render('pcre')).toBe('^a[^\\x{0a}]c[0-9]+[^\\x{09}-\\x{0d} \\]x-z]\\z');
    expect(r.render('icu')).toBe(r.render('pcre'));
    expect(r.render('are')).toBe('^a[^\\u000a]c[0-9]+[^\\u0009-\\u000d \\]x-z]$');
    expect(CommonRegex.parse('(?:ab|c)?x{2,3}?\\.').render('are')).toBe('(?:ab|c)?x{2,3}\\.');
    expect(CommonRegex.parse('\\w\\W').render('re2')).toBe('[0-9A-Z_a-z][^0-9A-Z_a-z]');
    expect(CommonRegex.parse('σ').render('are', true)).toBe('[Σσς]');
    expect(CommonRegex.parse('[σ]').render('re2', true)).toBe('[Σσς]');
    expect(CommonRegex.parse('σ').render('are', false)).toBe('σ');
    expect(String(CommonRegex.parse('a|b'))).toBe('a|b');
  });

  test('what is outside the subset is a 400-class error naming the reason', () => {
    expect(rejected('(')).toBe('Invalid regular expression: missing closing parenthesis.');
    expect(rejected('a)')).toBe('Invalid regular expression: unbalanced parenthesis.');
    expect(rejected('[a')).toBe('Invalid regular expression: missing closing ].');
    expect(rejected('[]')).toBe('Invalid regular expression: empty character class.');
    expect(rejected('[z-a]')).toBe('Invalid regular expression: invalid range in character class.');
    expect(rejected('*')).toBe('Invalid regular expression: nothing to repeat.');
    expect(rejected('a**')).toBe('Invalid regular expression: multiple repeat.');
    expect(rejected('a++')).toBe('Invalid regular expression: possessive quantifiers are not supported.');
    expect(rejected('\\b')).toBe('Invalid regular expression: unsupported escape \\b.');
    expect(rejected('(a)\\1')).toBe('Invalid regular expression: unsupported escape \\1.');
    expect(rejected('(?i)a')).toMatch(/only \(\?: \) groups/);
    expect(rejected('(?<=a)b')).toMatch(/only \(\?: \) groups/);
    expect(rejected('a{256}')).toBe('Invalid regular expression: repetition counts are limited to 255.');
    expect(rejected('a{')).toBe('Invalid regular expression: a literal { must be written \\{.');
    expect(rejected('[\\D]')).toBe('Invalid regular expression: \\D is not supported inside a character class.');
    expect(rejected('a'.repeat(501))).toBe('Invalid regular expression: patterns are limited to 500 characters.');
  });

  test('nested repetition that backtracking engines cannot bound is refused; bounded nesting is not', () => {
    for (const p of ['(a+)+$', '(a*)*', '(a|aa)+', '(a?)+', '(x+x+)+y', '(.*a){3,}']) expect(rejected(p)).toMatch(/repeated group/);
    expect(rejected('(a{1,100}){16}')).toBe('Invalid regular expression: nested repetition is limited to 1000 combinations.');
    for (const p of ['(\\d{1,3}\\.){3}\\d{1,3}', '(ab|cd){2}', '(ab)+', '(?:xy)*z', 'a*b*c*', '^.*foo.*$']) expect(rejected(p)).toBeNull();
  });
});

describe('values', () => {
  test('lower() folds one character at a time (no final-sigma rule, İ stays one character)', () => {
    expect(simpleLower('ΟΔΟΣ')).toBe('οδοσ');
    expect(simpleLower('ÄÉ İ')).toBe('äé i');
    expect(simpleLower('ASCII only')).toBe('ascii only');
  });

  test('boolean filter values as Nautobot reads them; anything else means no filter', () => {
    expect(['true', 'True', '2'].map(booleanFilterValue)).toEqual([true, true, true]);
    expect(['false', 'False', '3'].map(booleanFilterValue)).toEqual([false, false, false]);
    expect(['1', '0', 'yes', 'TRUE', ''].map(booleanFilterValue)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  test('exclude, format and the pagination parameters are reserved', () => {
    expect([...RESERVED_PARAMS].sort()).toEqual(['api_version', 'brief', 'exclude', 'format', 'include', 'limit', 'offset']);
  });
});

describe('FilterSet.describe()', () => {
  const jar = registry.forClass(Jar);
  const described = filterSetFor(jar).describe();
  const byName = new Map(described.map((d) => [d.name, d]));

  test('every generated filter is described once, with its lookup, type and help', () => {
    expect(described.map((d) => d.name).sort()).toEqual([...filterSetFor(jar).filters.keys()].sort());
    expect(byName.get('label__nic')).toEqual({
      name: 'label__nic', target: 'label', lookup: 'icontains', negated: true, type: 'string', multiple: 'or', help: 'What is written on the jar',
    });
    expect(byName.get('note__re')).toMatchObject({ target: 'note', lookup: 'regex', negated: false, help: 'note: matches the regular expression' });
    expect(byName.get('grams__gte')).toMatchObject({ lookup: 'gte', type: 'integer', help: 'grams: is greater than or equal to' });
    expect(byName.get('size')).toMatchObject({ type: 'integer', choices: [1, 2] });
    expect(byName.get('size__n')).toMatchObject({ negated: true, choices: [1, 2] });
    expect(byName.get('empty')).toMatchObject({ type: 'boolean', multiple: 'last' });
    expect(byName.get('created__gte')).toMatchObject({ type: 'date', multiple: 'last' });
    expect(byName.get('last_updated__lte')).toMatchObject({ type: 'date-time' });
    expect(byName.get('id__n')).toMatchObject({ type: 'uuid', negated: true });
    expect(byName.get('heavier')).toMatchObject({ lookup: 'method', type: 'integer', help: 'Jars holding at least this many grams' });
    expect(byName.get('q')).toMatchObject({ lookup: 'search', target: null, help: 'Search: label, note, id' });
  });

  test('related-object filters say what they accept', () => {
    expect(byName.get('cupboard')).toMatchObject({
      type: 'string', lookup: 'exact', negated: false,
      related: { model: 'pantry.cupboard', by: 'natural', naturalKey: 'slug', nullable: true },
      help: 'cupboard (slug or id): equals',
    });
    expect(byName.get('cupboard_id__n')).toMatchObject({ type: 'uuid', negated: true, related: { model: 'pantry.cupboard', by: 'id', nullable: true } });
    const cupboard = new Map(filterSetFor(registry.forClass(Cupboard)).describe().map((d) => [d.name, d]));
    expect(cupboard.has('jars')).toBe(false);
    expect(cupboard.get('slug__iew')).toMatchObject({ lookup: 'iendswith', help: 'slug: ends with, ignoring case' });
  });
});

describe('lenient filtering over throw-away models', () => {
  let api: FixtureApi;
  beforeAll(async () => {
    api = await fixtureApi([defineApp('pantry', [Cupboard, Jar])], { strictFiltering: false });
    const c = await api.post('/api/pantry/cupboards/', { name: 'Top' });
    await api.post('/api/pantry/jars/', { label: 'Salt', cupboard: c.body.id, grams: 500, size: 2 });
    await api.post('/api/pantry/jars/', { label: 'Pepper', grams: 50, empty: true });
  });
  afterAll(async () => {
    await api?.close();
  });
  const labels = async (query: string) => {
    const res = await api.get(`/api/pantry/jars/?${query}`);
    expect(res.status).toBe(200);
    return (res.body.results as Array<{ label: string }>).map((j) => j.label);
  };

  test('unknown parameters and lookups are ignored, known ones still apply', async () => {
    expect(await labels('colour=red&label__bogus=x&label=Salt')).toEqual(['Salt']);
  });

  test('malformed values are still a 400 naming each parameter', async () => {
    const res = await api.get('/api/pantry/jars/?grams=heavy&size=9&cupboard=nowhere&heavier=x&colour=red');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      grams: ['Enter a whole number.'],
      size: ['Select a valid choice. 9 is not one of the available choices.'],
      cupboard: ['Select a valid choice. nowhere is not one of the available choices.'],
      heavier: ['Enter a whole number.'],
    });
  });

  test('choices by value, null relations, negation keeping NULL, boolean values ignored', async () => {
    expect(await labels('size=2')).toEqual(['Salt']);
    expect(await labels('cupboard=null')).toEqual(['Pepper']);
    expect(await labels('cupboard__n=top')).toEqual(['Pepper']);
    expect(await labels('empty=True')).toEqual(['Pepper']);
    expect(await labels('empty=1')).toEqual(['Pepper', 'Salt']);
    expect(await labels('heavier=100')).toEqual(['Salt']);
  });
});

describe('statement time limits on the database under test', () => {
  // SQLite's RE2 matcher is linear: nothing to bound.
  const onServer = dialectUnderTest() === 'sqlite' ? test.skip : test;
  onServer(`a bounded read is cancelled by the server and recognised as a timeout${dialectUnderTest() === 'sqlite' ? ' (skipped on SQLite: no statement to bound)' : ''}`, async () => {
    const ds = await createDataSource(await freshDatabaseUrl(), { entities: [], migrations: [] });
    await ds.initialize();
    const db = openDatabase(ds);
    try {
      const sleep = dialectUnderTest() === 'postgres' ? 'SELECT pg_sleep(2)' : 'SELECT SLEEP(2)';
      const start = Date.now();
      const err = await db.boundedRead(100, (r) => r.rows(sleep)).then(() => null, (e: unknown) => e);
      expect(Date.now() - start).toBeLessThan(1500);
      expect(err).not.toBeNull();
      expect(db.dialect.isTimeout(err)).toBe(true);
      // The connection is usable afterwards, without the limit.
      expect(await db.reader.rows('SELECT 1')).toEqual([[1]]);
    } finally {
      db.close?.();
      await ds.destroy();
    }
  });
});
