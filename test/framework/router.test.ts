/**
 * framework/router against throw-away models: the route table follows each model's operations and
 * actions, refuses what it cannot serve, and the pipeline honours an entry's settings.
 */
import 'reflect-metadata';
import express from 'express';
import request from 'supertest';
import { BaseModel, buildRegistry, defineActions, defineApp, Field, Model } from '../../framework';
import type { PermissionEngine } from '../../framework/auth/permissions';
import type { AuthBackend } from '../../framework/auth/types';
import { Logger } from '../../framework/http/logger';
import { buildOpenApi } from '../../framework/openapi';
import { apiRouter, type ExtraRoute } from '../../framework/router/api';
import { buildRouteTable } from '../../framework/router/route-table';
import type { Database } from '../../framework/store/executor';
import { ApiVersion } from '../../framework/versioning/version';

@Model({ path: 'ledgers', display: 'name', brief: ['name'], operations: ['list', 'retrieve'] })
class Ledger extends BaseModel {
  @Field.String({ maxLength: 50 })
  name!: string;
}

const actions = defineActions(Ledger, {
  totals: { detail: false, GET: { action: 'view', handler: async () => ({ status: 200, body: {} }) } },
});
const registry = buildRegistry([defineApp('accounts', [Ledger], { actions })]);

const ping = (path: string, versioned?: boolean): ExtraRoute => ({
  path,
  auth: 'none',
  versioned,
  methods: { GET: async () => ({ status: 200, body: { pong: true } }) },
});

test('a read-only model serves and documents GET only; OPTIONS is served, not documented', () => {
  const table = buildRouteTable({ registry, actions });
  const methods = (path: string) => Object.keys(table.find((e) => e.path === path)?.methods ?? {});
  expect(methods('/accounts/ledgers/')).toEqual(['GET', 'OPTIONS']);
  expect(methods('/accounts/ledgers/:id/')).toEqual(['GET', 'OPTIONS']);
  const paths = buildOpenApi({ registry, table, serverVersion: '0' }, ApiVersion.of('1.3')).paths;
  expect(Object.keys(paths['/accounts/ledgers/'])).toEqual(['get']);
  expect(Object.keys(paths['/accounts/ledgers/{id}/'])).toEqual(['parameters', 'get']);
  expect(paths['/accounts/ledgers/totals/'].get).toMatchObject({ operationId: 'accounts_ledgers_totals_list' });
});

test('an action is tried before the detail route whose :id would match its name', () => {
  const paths = buildRouteTable({ registry, actions }).map((e) => e.path);
  expect(paths.indexOf('/accounts/ledgers/totals/')).toBeLessThan(paths.indexOf('/accounts/ledgers/:id/'));
});

test('a route declaring a method HTTP lacks stops the start', () => {
  const odd = { ...ping('/odd/'), methods: { FETCH: async () => ({ status: 200 }) } };
  expect(() => buildRouteTable({ registry, routes: [odd] })).toThrow('route /odd/: unknown HTTP method FETCH');
});

test('API-Version is sent unless the route opts out', async () => {
  const services = {
    registry,
    // Open routes without credentials reach neither the database nor the permission engine.
    db: {} as Database,
    auth: {} as AuthBackend,
    permissions: {} as PermissionEngine,
    config: { strictFiltering: true, paginateCount: 50, maxPageSize: 1000, exemptViewPermissions: [], version: '0.0.0-test' },
    logger: new Logger('silent'),
    routes: [ping('/versioned/'), ping('/plain/', false)],
  };
  const app = express().use('/api', apiRouter(services));
  const versioned = await request(app).get('/api/versioned/?api_version=1.4');
  expect(versioned.status).toBe(200);
  expect(versioned.headers['api-version']).toBe('1.4');
  const plain = await request(app).get('/api/plain/?api_version=1.4');
  expect(plain.status).toBe(200);
  expect(plain.body).toEqual({ pong: true });
  expect(plain.headers['api-version']).toBeUndefined();
});
