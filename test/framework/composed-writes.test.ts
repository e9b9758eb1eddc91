/**
 * Framework pieces that objects made of other objects need, on throw-away models: objects created
 * with another in its write (`wc.create` unlogged), deletes collecting referenced models first,
 * relations read as bare ids, and computed values a provider answers null.
 */
import {
  BaseModel, ComputedField, defineApp, Field, ForeignKey, Model, TreeParent, type ComputedValueProvider, type Id, type Json, type Values, type WriteContext,
} from '../../framework';
import { fixtureApi, type FixtureApi } from '../helpers/fixture-api';

@Model({ path: 'kits', display: 'name', brief: ['name'], ordering: ['name'] })
class Kit extends BaseModel {
  @Field.String({ maxLength: 20, unique: true })
  name!: string;

  @ComputedField({ readOnly: true })
  note!: unknown;

  /** A new kit gets a socket and a plug into it, through their own rules. */
  static async afterSave(values: Values, wc: WriteContext): Promise<void> {
    if (!wc.creating) return;
    const socket = await wc.create(Socket, { kit: values.id, name: 'socket' }, { unlogged: true });
    await wc.create(Plug, { kit: values.id, name: 'plug', socket }, { unlogged: true });
  }
}

// Declared before the socket it points at, so that a naive collection deletes sockets first.
@Model({ path: 'plugs', display: 'name', brief: ['name'], ordering: ['name'] })
class Plug extends BaseModel {
  @ForeignKey(() => Kit, { onDelete: 'cascade', related: 'plugs' })
  kit!: Kit;

  @Field.String({ maxLength: 20 })
  name!: string;

  @ForeignKey(() => Socket, { onDelete: 'cascade', related: 'plugs_in' })
  socket!: object; // Socket, declared below: a type here would be read before the class exists
}

@Model({ path: 'sockets', display: 'name', brief: ['name'], ordering: ['name'] })
class Socket extends BaseModel {
  @ForeignKey(() => Kit, { onDelete: 'cascade', related: 'sockets' })
  kit!: Kit;

  @Field.String({ maxLength: 20 })
  name!: string;
}

@Model({ path: 'parts', display: 'name', brief: ['name'], ordering: ['name'] })
class Part extends BaseModel {
  @Field.String({ maxLength: 20 })
  name!: string;

  @TreeParent({ asId: true })
  parent!: Part | null;
}

/** Kits named `quiet` have no note: null, not the `{}` of objects a provider leaves out. */
const notes: ComputedValueProvider = {
  async load(_field, ids) {
    return new Map<Id, Json>(ids.map((id) => [id, null]));
  },
};

let api: FixtureApi;
beforeAll(async () => {
  api = await fixtureApi([defineApp('workshop', [Kit, Plug, Socket, Part], { provides: { note: notes } })]);
});
afterAll(async () => {
  await api.close();
});

test('objects created within another write obey their own rules and roll back with it', async () => {
  const kit = await api.post('/api/workshop/kits/', { name: 'k1' });
  expect(kit.status).toBe(201);
  const plugs = await api.get(`/api/workshop/plugs/?kit_id=${kit.body.id}`);
  const sockets = await api.get(`/api/workshop/sockets/?kit_id=${kit.body.id}`);
  expect(plugs.body.results.map((p: { socket: { id: string } }) => p.socket.id)).toEqual(sockets.body.results.map((s: { id: string }) => s.id));
  const twice = await api.post('/api/workshop/kits/', [{ name: 'k2' }, { name: 'k2' }]);
  expect(twice.status).toBe(400);
  expect((await api.get('/api/workshop/sockets/?limit=0')).body.count).toBe(1);
});

test('a delete removes rows pointing at rows deleted with them first', async () => {
  const kit = await api.post('/api/workshop/kits/', { name: 'k3' });
  expect((await api.delete(`/api/workshop/kits/${kit.body.id}/`)).status).toBe(204);
  expect((await api.get(`/api/workshop/plugs/?limit=0`)).body.results.some((p: { kit: { id: string } }) => p.kit.id === kit.body.id)).toBe(false);
});

test('a relation read as a bare id, and a provider answering null', async () => {
  const root = await api.post('/api/workshop/parts/', { name: 'frame' });
  const child = await api.post('/api/workshop/parts/', { name: 'wheel', parent: root.body.id });
  expect(child.body.parent).toBe(root.body.id);
  expect(root.body.parent).toBeNull();
  const kit = await api.post('/api/workshop/kits/', { name: 'quiet' });
  expect((await api.get(`/api/workshop/kits/${kit.body.id}/`)).body.note).toBeNull();
});
