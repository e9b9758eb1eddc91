/**
 * The server netinv listens with: requests and responses are constructed with the Express
 * application's prototypes (so Express's re-parenting changes nothing), and behave as Express's
 * own; listening fails with the listening error.
 */
import express from 'express';
import request from 'supertest';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeServer, expressServer, listenOn } from '../../framework/http/express-server';

function app() {
  const a = express();
  a.disable('x-powered-by');
  a.get('/things/:id', (req, res) => {
    res.status(203).set('X-Thing', req.params.id).json({ id: req.params.id, path: req.path, query: req.query.q ?? null });
  });
  return a;
}

test('requests and responses start with the application\'s prototypes and work as Express\'s', async () => {
  const a = app();
  const server = expressServer(a);
  const born: Array<[boolean, boolean]> = [];
  // Runs before Express sees the request: what Node constructed.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    born.push([Object.getPrototypeOf(req) === a.request, Object.getPrototypeOf(res) === a.response]);
  });
  await listenOn(server, 0, '127.0.0.1');
  try {
    const port = (server.address() as AddressInfo).port;
    const res = await request(`http://127.0.0.1:${port}`).get('/things/abc?q=1');
    expect(res.status).toBe(203);
    expect(res.headers['x-thing']).toBe('abc');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ id: 'abc', path: '/things/abc', query: '1' });
    const missing = await request(`http://127.0.0.1:${port}`).get('/nothing');
    expect(missing.status).toBe(404);
    expect(born).toEqual([[true, true], [true, true]]);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('listening on a port in use rejects with EADDRINUSE', async () => {
  const first = expressServer(app());
  await listenOn(first, 0, '127.0.0.1');
  try {
    const port = (first.address() as AddressInfo).port;
    await expect(listenOn(expressServer(app()), port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
  } finally {
    await new Promise<void>((resolve) => first.close(() => resolve()));
  }
});

test('closing while a request is answered ends its kept-alive connection once the answer is out', async () => {
  const a = express();
  let arrived: () => void = () => undefined;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  a.get('/slow', (_req, res) => {
    arrived();
    setTimeout(() => res.json({ done: true }), 200);
  });
  const server = expressServer(a);
  // Far beyond the test's own timeout: the close below must not wait for it.
  server.keepAliveTimeout = 600_000;
  await listenOn(server, 0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  const answer = fetch(`http://127.0.0.1:${port}/slow`);
  await inFlight;
  const closed = closeServer(server, 600_000);
  const res = await answer;
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ done: true });
  await closed;
  expect(server.listening).toBe(false);
  await expect(fetch(`http://127.0.0.1:${port}/slow`)).rejects.toThrow();
});

test('closing a server that is not listening resolves', async () => {
  await expect(closeServer(expressServer(express()))).resolves.toBeUndefined();
});

test('closing cuts, after the grace period, a connection whose request is never answered', async () => {
  const a = express();
  let arrived: () => void = () => undefined;
  const inFlight = new Promise<void>((resolve) => (arrived = resolve));
  a.get('/never', () => arrived());
  const server = expressServer(a);
  server.keepAliveTimeout = 600_000;
  server.requestTimeout = 0;
  await listenOn(server, 0, '127.0.0.1');
  const port = (server.address() as AddressInfo).port;
  const answer = fetch(`http://127.0.0.1:${port}/never`).then(
    () => 'answered',
    () => 'cut',
  );
  await inFlight;
  await closeServer(server, 200);
  expect(server.listening).toBe(false);
  expect(await answer).toBe('cut');
});
