/**
 * framework/metadata/registry against throw-away models: once built, the registry and everything
 * it describes are frozen, so no module can change the description while requests run.
 */
import 'reflect-metadata';
import { BaseModel, buildRegistry, defineApp, Field, ForeignKey, Model } from '../../framework';

@Model({ path: 'drawers', display: 'label', brief: ['label'] })
class Drawer extends BaseModel {
  @Field.String({ maxLength: 50 })
  label!: string;
}

@Model({ path: 'spoons', display: 'name', brief: ['name'] })
class Spoon extends BaseModel {
  @Field.String({ maxLength: 50 })
  name!: string;

  @ForeignKey(() => Drawer, { nullable: true, onDelete: 'set_null' })
  drawer!: Drawer | null;
}

const registry = buildRegistry([defineApp('kitchen', [Drawer, Spoon])]);
const spoon = registry.forClass(Spoon);
const drawer = registry.forClass(Drawer);

test('the registry, its applications, models, fields and relations are frozen', () => {
  for (const value of [registry, registry.apps, registry.models, registry.apps[0], spoon, spoon.fields, spoon.field('drawer'), drawer.reverse, drawer.reverse[0]]) {
    expect(Object.isFrozen(value)).toBe(true);
  }
});

test('changing it after the build throws instead of changing it', () => {
  expect(() => (registry.models as unknown as unknown[]).push(spoon)).toThrow(TypeError);
  expect(() => {
    (spoon as unknown as { namedFilters: unknown[] }).namedFilters = [];
  }).toThrow(TypeError);
  expect(() => {
    (spoon.field('name') as unknown as { resolved: Record<string, unknown> }).resolved.cache = 1;
  }).toThrow(TypeError);
  expect(spoon.namedFilters).toEqual([]);
  expect('cache' in (spoon.field('name') as unknown as { resolved: object }).resolved).toBe(false);
});

test('model classes and declaration options stay unfrozen for TypeORM', () => {
  expect(Object.isFrozen(Spoon)).toBe(false);
  expect(Object.isFrozen(spoon.options)).toBe(false);
});
