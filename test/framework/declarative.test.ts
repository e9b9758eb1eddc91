/**
 * The framework alone: an API built from throw-away models declared here, with no import of
 * models/ or app/. Each field kind and model option is exercised through HTTP.
 */
import {
  BaseModel, ChangeLoggedModel, ChoiceField, defineApp, defineChoices, Field, Filter, ForeignKey, GenericForeignKey, Model,
  Predicates, RelatedCount, TreeParent, ValidationError, type Values,
} from '../../framework';
import { fixtureApi, READ_ONLY_KEY, type FixtureApi } from '../helpers/fixture-api';

const Genre = defineChoices({ fiction: 'Fiction', poetry: 'Poetry', essay: 'Essay' });

@Model({ path: 'rooms', display: 'name', brief: ['name'], ordering: ['name'], search: ['name'] })
class Room extends BaseModel {
  @Field.String({ maxLength: 20, unique: true })
  name!: string;

  @TreeParent()
  parent!: Room | null;
}

@Model({ path: 'shelves', display: 'name', brief: ['name', 'book_count'], ordering: ['name'], search: ['name', 'label'] })
class Shelf extends ChangeLoggedModel {
  @Field.String({ maxLength: 20, unique: true })
  name!: string;

  @Field.Slug({ maxLength: 20, from: 'name' })
  label!: string;

  @Field.Integer({ min: 1, max: 10, default: 5 })
  capacity!: number;

  @ForeignKey(() => Room, { nullable: true, onDelete: 'cascade', related: 'shelves' })
  room!: Room | null;

  @RelatedCount(() => Book, 'shelf')
  book_count!: number;
}

@Model({
  path: 'books',
  display: { fields: ['title', 'shelf.name'], render: (v) => `${String(v.title)} @ ${String(v['shelf.name'])}` },
  brief: ['title'],
  ordering: ['title'],
  uniqueTogether: [['shelf', 'position']],
})
class Book extends BaseModel {
  @Field.String({ maxLength: 50 })
  title!: string;

  @ChoiceField(Genre, { default: 'fiction' })
  genre!: string;

  @ForeignKey(() => Shelf, { onDelete: 'protect', related: 'books' })
  shelf!: Shelf;

  @ForeignKey(() => Shelf, { nullable: true, onDelete: 'set_null', related: 'reserved_books', naturalKey: false })
  reserve!: Shelf | null;

  @Field.Integer({ nullable: true })
  position!: number | null;

  @Field.Boolean({ default: false })
  lent!: boolean;

  @Field.Date({ nullable: true })
  published!: string | null;

  @Field.JSON({ nullable: true })
  extra!: unknown;

  @Field.String({ maxLength: 20, blank: true, since: '1.4' })
  isbn!: string;

  @Field.String({ maxLength: 20, blank: true, readOnly: true, default: 'catalogue' })
  source!: string;

  static clean(values: Values): void {
    if (values.lent && !values.published) throw ValidationError.model('An unpublished book cannot be lent.');
  }

  @Filter({ type: 'integer', help: 'Books on shelves holding at least this many books' })
  static shelf_capacity_min(value: number, p: Predicates) {
    return p.lookup('shelf__capacity', 'gte', value);
  }
}

/** A label stuck on a book or a shelf: a generic relation. */
@Model({ path: 'stickers', display: 'text', brief: ['text'], ordering: ['text'] })
class Sticker extends BaseModel {
  @Field.String({ maxLength: 20 })
  text!: string;

  @GenericForeignKey({ types: ['library.book', 'library.shelf'] })
  stuck_on!: unknown;
}

let api: FixtureApi;
beforeAll(async () => {
  api = await fixtureApi([defineApp('library', [Room, Shelf, Book, Sticker])]);
});
afterAll(async () => {
  await api?.close();
});

const ok = async (res: { status: number; body: unknown }, status = 201) => {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, any>;
};

describe('registration and routing', () => {
  test('the app root lists its endpoints with absolute URLs', async () => {
    const res = await api.get('/api/library/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['books', 'rooms', 'shelves', 'stickers']);
    expect(res.body.books).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/library\/books\/$/);
  });

  test('tables and labels derive from the application', () => {
    expect(api.registry.forClass(Book).label).toBe('library.book');
    expect(api.registry.forClass(Shelf).table).toBe('library_shelf');
  });
});

describe('field kinds', () => {
  let shelf: Record<string, any>;
  beforeAll(async () => {
    shelf = await ok(await api.post('/api/library/shelves/', { name: 'Poetry corner' }));
  });

  test('slug from its source, integer default, change-logged dates', async () => {
    expect(shelf.label).toBe('poetry-corner');
    expect(shelf.capacity).toBe(5);
    expect(shelf.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(shelf.last_updated).toMatch(/Z$/);
    expect(shelf.book_count).toBe(0);
  });

  test('a second slug from the same name is made unique', async () => {
    const other = await ok(await api.post('/api/library/shelves/', { name: 'Poetry Corner!' }));
    expect(other.label).toBe('poetry-corner-2');
  });

  test('choice: {value,label} on read, plain on write, invalid names the valid ones', async () => {
    const book = await ok(await api.post('/api/library/books/', { title: 'Odes', genre: 'poetry', shelf: shelf.id }));
    expect(book.genre).toEqual({ value: 'poetry', label: 'Poetry' });
    expect(book.display).toBe('Odes @ Poetry corner');
    expect(book.source).toBe('catalogue');
    const bad = await api.post('/api/library/books/', { title: 'X', genre: 'drama', shelf: shelf.id });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ genre: ['drama is not a valid choice.', 'Valid choices are: fiction, poetry, essay.'] });
    const dict = await api.post('/api/library/books/', { title: 'X', genre: { value: 'poetry' }, shelf: shelf.id });
    expect(dict.body).toEqual({ genre: ['Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.'] });
  });

  test('integer bounds, boolean, date and JSON messages', async () => {
    const bad = await api.post('/api/library/shelves/', { name: 'B', capacity: 11 });
    expect(bad.body).toEqual({ capacity: ['Ensure this value is less than or equal to 10.'] });
    const low = await api.post('/api/library/shelves/', { name: 'B', capacity: '0' });
    expect(low.body).toEqual({ capacity: ['Ensure this value is greater than or equal to 1.'] });
    const notInt = await api.post('/api/library/shelves/', { name: 'B', capacity: '2.5' });
    expect(notInt.body).toEqual({ capacity: ['A valid integer is required.'] });
    const res = await api.post('/api/library/books/', { title: 'T', shelf: shelf.id, lent: 'maybe', published: '2020-13-01' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      lent: ['Must be a valid boolean.'],
      published: ['Date has wrong format. Use one of these formats instead: YYYY-MM-DD.'],
    });
    const good = await ok(await api.post('/api/library/books/', { title: 'T2', shelf: shelf.id, lent: 'yes', published: '2020-02-29', extra: { a: [1, 'x'] } }));
    expect(good.lent).toBe(true);
    expect(good.published).toBe('2020-02-29');
    expect(good.extra).toEqual({ a: [1, 'x'] });
  });

  test('read-only fields and unknown keys are ignored on write', async () => {
    const res = await ok(await api.post('/api/library/books/', { title: 'R', shelf: shelf.id, source: 'hacked', nonsense: 1, id: '00000000-0000-4000-8000-000000000000' }));
    expect(res.source).toBe('catalogue');
    expect(res.id).not.toBe('00000000-0000-4000-8000-000000000000');
  });

  test('string limits and blank', async () => {
    const res = await api.post('/api/library/books/', { title: 'x'.repeat(51), shelf: shelf.id });
    expect(res.body).toEqual({ title: ['Ensure this field has no more than 50 characters.'] });
    const blank = await api.post('/api/library/books/', { title: '', shelf: shelf.id });
    expect(blank.body).toEqual({ title: ['This field may not be blank.'] });
    const missing = await api.post('/api/library/books/', { shelf: shelf.id });
    expect(missing.body).toEqual({ title: ['This field is required.'] });
  });

  test('fields with `since` exist from that API version on', async () => {
    const book = await ok(await api.post('/api/library/books/?api_version=1.4', { title: 'V', shelf: shelf.id, isbn: '978' }));
    expect(book.isbn).toBe('978');
    const old = await api.get(`/api/library/books/${book.id}/?api_version=1.3`);
    expect(old.body.isbn).toBeUndefined();
  });
});

describe('foreign keys', () => {
  let a: Record<string, any>;
  beforeAll(async () => {
    a = await ok(await api.post('/api/library/shelves/', { name: 'FK-A', capacity: 3 }));
    await ok(await api.post('/api/library/shelves/', { name: 'FK-B', capacity: 3 }));
  });

  test('nested brief on read (with its count omitted), UUID or attribute dict on write', async () => {
    const byId = await ok(await api.post('/api/library/books/', { title: 'F1', shelf: a.id }));
    expect(byId.shelf).toEqual({ id: a.id, display: 'FK-A', url: a.url, name: 'FK-A' });
    const byDict = await ok(await api.post('/api/library/books/', { title: 'F2', shelf: { name: 'FK-A' } }));
    expect(byDict.shelf.id).toBe(a.id);
  });

  test('a dict matching none or several, an unknown id, a wrong type: 400 under the field', async () => {
    let res = await api.post('/api/library/books/', { title: 'F', shelf: { name: 'nope' } });
    expect(res.body).toEqual({ shelf: ["Related object not found using the provided attributes: {'name': 'nope'}"] });
    res = await api.post('/api/library/books/', { title: 'F', shelf: { capacity: 3 } });
    expect(res.body).toEqual({ shelf: ["Multiple objects match the provided attributes: {'capacity': 3}"] });
    res = await api.post('/api/library/books/', { title: 'F', shelf: '00000000-0000-4000-8000-000000000000' });
    expect(res.body).toEqual({ shelf: ['Related object not found using the provided ID: 00000000-0000-4000-8000-000000000000'] });
    res = await api.post('/api/library/books/', { title: 'F', shelf: 'FK-A' });
    expect(res.body).toEqual({ shelf: ['Related objects must be referenced by ID or by dictionary of attributes. Received an unrecognized value: FK-A'] });
    res = await api.post('/api/library/books/', { title: 'F', shelf: { colour: 'red' } });
    expect(res.status).toBe(400);
    expect(res.body.shelf[0]).toMatch(/^Cannot resolve keyword 'colour' into field\. Choices are: /);
  });

  test('unique together → non_field_errors', async () => {
    await ok(await api.post('/api/library/books/', { title: 'P1', shelf: a.id, position: 1 }));
    const res = await api.post('/api/library/books/', { title: 'P2', shelf: a.id, position: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ non_field_errors: ['The fields shelf, position must make a unique set.'] });
  });

  test('clean() errors come back under __all__', async () => {
    const res = await api.post('/api/library/books/', { title: 'L', shelf: a.id, lent: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ __all__: ['An unpublished book cannot be lent.'] });
  });
});

describe('deletes follow on_delete', () => {
  test('protect → 409 naming the dependents; set_null and cascade apply', async () => {
    const room = await ok(await api.post('/api/library/rooms/', { name: 'Hall' }));
    const shelf = await ok(await api.post('/api/library/shelves/', { name: 'Del', room: room.id }));
    const spare = await ok(await api.post('/api/library/shelves/', { name: 'Spare' }));
    const book = await ok(await api.post('/api/library/books/', { title: 'Kept', shelf: spare.id, reserve: shelf.id }));
    const held = await ok(await api.post('/api/library/books/', { title: 'Held', shelf: shelf.id }));

    const blocked = await api.delete(`/api/library/shelves/${shelf.id}/`);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({ detail: `Unable to delete object. 1 dependent objects were found: Held @ Del (${held.id})` });

    await ok(await api.delete(`/api/library/books/${held.id}/`), 204);
    await ok(await api.delete(`/api/library/rooms/${room.id}/`), 204);
    expect((await api.get(`/api/library/shelves/${shelf.id}/`)).status).toBe(404);
    const after = await api.get(`/api/library/books/${book.id}/`);
    expect(after.body.reserve).toBeNull();
  });
});

describe('trees', () => {
  test('a parent cannot be its own descendant', async () => {
    const top = await ok(await api.post('/api/library/rooms/', { name: 'Top' }));
    const mid = await ok(await api.post('/api/library/rooms/', { name: 'Mid', parent: top.id }));
    const low = await ok(await api.post('/api/library/rooms/', { name: 'Low', parent: mid.id }));
    const res = await api.patch(`/api/library/rooms/${top.id}/`, { parent: low.id });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['parent']);
    const self = await api.patch(`/api/library/rooms/${top.id}/`, { parent: top.id });
    expect(self.status).toBe(400);
    // `parent` is a plain relation filter; descendants are matched by the tree filters of other models.
    const under = await api.get(`/api/library/rooms/?parent=${top.id}`);
    expect(under.body.results.map((r: { name: string }) => r.name)).toEqual(['Mid']);
  });
});

describe('filters and OPTIONS from metadata', () => {
  test('named @Filter methods build predicates from field paths', async () => {
    const big = await ok(await api.post('/api/library/shelves/', { name: 'Big', capacity: 9 }));
    await ok(await api.post('/api/library/books/', { title: 'On big', shelf: big.id }));
    const res = await api.get('/api/library/books/?shelf_capacity_min=9');
    expect(res.status).toBe(200);
    expect(res.body.results.map((b: { title: string }) => b.title)).toEqual(['On big']);
    const bad = await api.get('/api/library/books/?shelf_capacity_min=x');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['shelf_capacity_min']);
  });

  test('generated filters: choice, boolean, FK by natural key, q, unknown', async () => {
    expect((await api.get('/api/library/books/?genre=poetry')).status).toBe(200);
    expect((await api.get('/api/library/books/?lent=true')).status).toBe(200);
    expect((await api.get('/api/library/books/?shelf=Big')).body.count).toBe(1);
    expect((await api.get('/api/library/shelves/?q=big')).body.count).toBe(1);
    const unknown = await api.get('/api/library/books/?colour=red');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ colour: ['Unknown filter field'] });
  });

  test('OPTIONS lists writable fields with choices, only for a caller who may POST', async () => {
    const res = await api.options('/api/library/books/');
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Book');
    const post = res.body.actions.POST;
    expect(post.genre.choices).toEqual([
      { value: 'fiction', display: 'Fiction' }, { value: 'poetry', display: 'Poetry' }, { value: 'essay', display: 'Essay' },
    ]);
    expect(post.title).toMatchObject({ required: true, read_only: false, max_length: 50 });
    expect(post.source.read_only).toBe(true);
    const readOnly = await api.options('/api/library/books/', READ_ONLY_KEY);
    expect(readOnly.status).toBe(200);
    expect(readOnly.body.actions).toBeUndefined();
  });
});

describe('generic relations', () => {
  test('type and id written together; the target shown nested; filters on both columns', async () => {
    const shelf = await ok(await api.post('/api/library/shelves/', { name: 'GFK shelf' }));
    const book = await ok(await api.post('/api/library/books/', { title: 'GFK book', shelf: shelf.id }));
    const onBook = await ok(await api.post('/api/library/stickers/', { text: 'new', stuck_on_type: 'library.book', stuck_on_id: book.id }));
    expect(onBook.stuck_on_type).toBe('library.book');
    expect(onBook.stuck_on_id).toBe(book.id);
    expect(onBook.stuck_on).toEqual({ id: book.id, display: 'GFK book @ GFK shelf', url: book.url, title: 'GFK book' });
    const onShelf = await ok(await api.post('/api/library/stickers/', { text: 'sale', stuck_on_type: 'library.shelf', stuck_on_id: shelf.id }));
    expect(onShelf.stuck_on).toMatchObject({ id: shelf.id, name: 'GFK shelf' });
    const loose = await ok(await api.post('/api/library/stickers/', { text: 'loose' }));
    expect(loose.stuck_on).toBeNull();

    const half = await api.post('/api/library/stickers/', { text: 'x', stuck_on_type: 'library.book' });
    expect(half.body).toEqual({ __all__: ['stuck_on_type and stuck_on_id must either both be null or both be non-null'] });
    const wrongType = await api.post('/api/library/stickers/', { text: 'x', stuck_on_type: 'library.room', stuck_on_id: book.id });
    expect(wrongType.body).toEqual({ stuck_on_type: ['Invalid content type: library.room'] });
    const missing = await api.post('/api/library/stickers/', { text: 'x', stuck_on_type: 'library.shelf', stuck_on_id: book.id });
    expect(missing.body).toEqual({ stuck_on_id: [`Related object not found using the provided ID: ${book.id}`] });

    const list = await api.get('/api/library/stickers/?stuck_on_type=library.book');
    expect(list.body.results.map((s: { text: string }) => s.text)).toEqual(['new']);
    const all = await api.get('/api/library/stickers/');
    expect(all.body.results.map((s: { stuck_on: unknown }) => s.stuck_on === null)).toEqual([true, false, false]);
    const cleared = await api.patch(`/api/library/stickers/${onBook.id}/`, { stuck_on_type: null, stuck_on_id: null });
    expect(cleared.body.stuck_on).toBeNull();
  });
});
