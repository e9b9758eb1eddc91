/**
 * A plugin's models appear in GraphQL as core models do, with nothing written for GraphQL: types,
 * root fields from verbose names, REST filters as arguments, relations both ways, choices as enums.
 */
import { EXAMPLE_PLUGIN } from '../factories/plugins';
import { startApp, type TestApp } from '../helpers/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ NETINV_PLUGINS: EXAMPLE_PLUGIN });
  const asn = await app.post('/api/plugins/bgp/autonomous-systems/', { asn: 4200000001, description: 'edge' });
  expect(asn.status).toBe(201);
  const other = await app.post('/api/plugins/bgp/autonomous-systems/', { asn: 65001 });
  expect((await app.post('/api/plugins/bgp/sessions/', { name: 'to-isp', local_as: asn.body.id, remote_as: other.body.id, remote_address: '192.0.2.1', status: 'planned' })).status).toBe(201);
});
afterAll(async () => {
  await app?.close();
});

test('plugin models are queried like core models', async () => {
  const res = await app.post('/api/graphql/', {
    query: '{ peer_sessions(status: "planned") { name status local_as { asn description local_sessions { name } } remote_as { asn } } autonomous_systems(asn: [65001]) { asn remote_sessions { name } } }',
  });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    data: {
      peer_sessions: [{ name: 'to-isp', status: 'PLANNED', local_as: { asn: 4200000001, description: 'edge', local_sessions: [{ name: 'to-isp' }] }, remote_as: { asn: 65001 } }],
      autonomous_systems: [{ asn: 65001, remote_sessions: [{ name: 'to-isp' }] }],
    },
  });
  const sdl = await app.get('/api/graphql/schema.graphql');
  expect(sdl.text).toMatch(/type PeerSessionType \{/);
  expect(sdl.text).toMatch(/asn: BigInteger/);
});
