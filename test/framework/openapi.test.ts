/**
 * framework/openapi against throw-away models: schemas follow since/until per version, writable
 * and patched shapes differ, and the YAML writer's output loads back to the same value.
 */
import 'reflect-metadata';
import { buildRegistry, defineApp, Field, ForeignKey, Model, BaseModel } from '../../framework';
import { buildOpenApi, toYaml } from '../../framework/openapi';
import { buildRouteTable } from '../../framework/router/route-table';
import { ApiVersion } from '../../framework/versioning/version';
import { validateOpenApi } from '../helpers/openapi-validator';

@Model({ path: 'shelves', display: 'name', brief: ['name'] })
class Shelf extends BaseModel {
  @Field.String({ maxLength: 50 })
  name!: string;
}

@Model({ path: 'books', display: 'title', brief: ['title'] })
class Book extends BaseModel {
  @Field.String({ maxLength: 100, help: 'As printed on the cover' })
  title!: string;

  @ForeignKey(() => Shelf, { nullable: true, onDelete: 'set_null' })
  shelf!: Shelf | null;

  @Field.String({ maxLength: 20, blank: true, since: '1.4' })
  isbn!: string;

  @Field.Integer({ until: '1.3', nullable: true, required: false })
  legacy_number!: number | null;
}

const registry = buildRegistry([defineApp('library', [Shelf, Book])]);
const doc = (v: string) => buildOpenApi({ registry, table: buildRouteTable({ registry }), serverVersion: '9.9.9' }, ApiVersion.of(v));
type Schemas = Record<string, { properties: Record<string, Record<string, unknown>>; required?: string[] }>;
const schemas = (v: string) => (doc(v).components as { schemas: Schemas }).schemas;

test('fields enter and leave with since/until', () => {
  expect(Object.keys(schemas('1.2').Book.properties)).toEqual(['id', 'display', 'url', 'title', 'shelf', 'legacy_number']);
  expect(Object.keys(schemas('1.4').Book.properties)).toEqual(['id', 'display', 'url', 'title', 'shelf', 'isbn']);
  expect(schemas('1.4').WritableBookRequest.properties.isbn).toEqual({ type: 'string', maxLength: 20 });
  expect(schemas('1.3').WritableBookRequest.properties).not.toHaveProperty('isbn');
});

test('read, nested, writable and patched shapes', () => {
  const s = schemas('1.6');
  expect(s.Book.properties.shelf).toEqual({ allOf: [{ $ref: '#/components/schemas/NestedShelf' }], nullable: true });
  expect(s.Book.properties.title).toMatchObject({ type: 'string', description: 'As printed on the cover' });
  expect(Object.keys(s.NestedShelf.properties)).toEqual(['id', 'display', 'url', 'name']);
  expect(s.WritableBookRequest.properties.shelf).toMatchObject({ nullable: true, allOf: [{ oneOf: [{ type: 'string', format: 'uuid' }, { type: 'object' }] }] });
  expect(s.WritableBookRequest.required).toEqual(['title']);
  expect(s.PatchedWritableBookRequest).not.toHaveProperty('required');
  expect(validateOpenApi(doc('1.6'))).toEqual([]);
  expect(Object.keys(doc('1.6').paths)).toEqual(['/library/books/', '/library/books/{id}/', '/library/shelves/', '/library/shelves/{id}/']);
});

test('YAML: tricky scalars, nesting and empty collections load back unchanged', () => {
  const { load } = require('js-yaml') as { load(text: string): unknown };
  const value = {
    strings: ['', ' lead', 'trail ', 'yes', 'No', 'null', '~', '1.2', '0x10', '2024-01-01', 'a: b', 'a #b', '#x', '- x', '{x}', '[x]', '*x', '&x', '!x', '%x', '@x', '`x', "'q'", '"q"', 'multi\nline', 'tab\there', 'ünïcödé', '\u2028', '/api/{id}/', '$ref'],
    numbers: [0, -1, 1.5, 1e21],
    flags: [true, false, null],
    empty: { list: [], map: {} },
    nested: [{ a: [{ b: [[1, 2], []] }] }, [{}], 'x'],
    'key: colon': 1,
    '': 'empty key',
  };
  expect(load(toYaml(value))).toEqual(value);
  expect(toYaml({ openapi: '3.0.3', info: { title: 'API Documentation' } })).toBe('openapi: "3.0.3"\ninfo:\n  title: API Documentation\n');
});
