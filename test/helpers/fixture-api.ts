/**
 * An API built by the framework alone from throw-away models declared in a test, on an in-memory
 * SQLite database whose schema comes from the metadata (synchronize: tests only).
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { readOnlyForOthers } from '../../framework/auth/permissions';
import type { AuthBackend, AuthUser } from '../../framework/auth/types';
import { createDataSource, openDatabase } from '../../framework/store/datasource';
import { errorMiddleware } from '../../framework/errors/mapper';
import { Logger } from '../../framework/http/logger';
import { apiRouter } from '../../framework/router/api';
import { buildRegistry, type AppDefinition, type Registry } from '../../framework';

export const FIXTURE_KEY = 'f'.repeat(40);
export const READ_ONLY_KEY = 'e'.repeat(40);

const superuser: AuthUser = { id: '00000000-0000-4000-8000-000000000001', username: 'fixture', isSuperuser: true, isStaff: true, isActive: true };

/** Two fixed tokens of one superuser: FIXTURE_KEY may write, READ_ONLY_KEY may not. */
const fixtureAuth: AuthBackend = {
  async findToken(key) {
    if (key !== FIXTURE_KEY && key !== READ_ONLY_KEY) return null;
    return { token: { id: superuser.id, key, writeEnabled: key === FIXTURE_KEY, expires: null }, user: superuser };
  },
  async checkPassword() {
    return null;
  },
};

export interface FixtureApi {
  readonly registry: Registry;
  get(path: string): request.Test;
  post(path: string, body: unknown): request.Test;
  patch(path: string, body: unknown): request.Test;
  put(path: string, body: unknown): request.Test;
  delete(path: string, body?: unknown): request.Test;
  options(path: string, key?: string): request.Test;
  close(): Promise<void>;
}

export async function fixtureApi(apps: AppDefinition[], settings: { strictFiltering?: boolean } = {}): Promise<FixtureApi> {
  const registry = buildRegistry(apps);
  const ds = await createDataSource('sqlite::memory:', { entities: registry.entities(), migrations: [] }, true);
  await ds.initialize();
  const db = openDatabase(ds);
  const logger = new Logger('silent');
  const config = { strictFiltering: settings.strictFiltering ?? true, paginateCount: 50, maxPageSize: 1000, exemptViewPermissions: [], version: '0.0.0-test' };
  const app = express();
  app.use('/api', express.raw({ type: () => true, limit: 1024 * 1024 }), apiRouter({ registry, db, config, logger, auth: fixtureAuth, permissions: readOnlyForOthers, actions: apps.flatMap((a) => a.actions) }));
  app.use(errorMiddleware(config.version, logger));
  // One listening server, so absolute URLs keep one host:port across requests.
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address() as AddressInfo;
  const agent = request(`http://127.0.0.1:${address.port}`);
  const auth = (t: request.Test, key = FIXTURE_KEY) => t.set('Accept', 'application/json').set('Authorization', `Token ${key}`);
  const json = (t: request.Test, body: unknown) => (body === undefined ? t : t.set('Content-Type', 'application/json').send(JSON.stringify(body)));
  return {
    registry,
    get: (path) => auth(agent.get(path)),
    post: (path, body) => json(auth(agent.post(path)), body),
    patch: (path, body) => json(auth(agent.patch(path)), body),
    put: (path, body) => json(auth(agent.put(path)), body),
    delete: (path, body) => json(auth(agent.delete(path)), body),
    options: (path, key) => auth(agent.options(path), key),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      db.close?.();
      await ds.destroy();
    },
  };
}
