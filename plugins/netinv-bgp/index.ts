/**
 * An example netinv plugin: BGP autonomous systems and peer sessions under /api/plugins/bgp/.
 * Enable it with NETINV_PLUGINS=./dist/plugins/netinv-bgp (compiled with the project).
 */
import { definePlugin } from '../../framework';
import { autonomousSystemActions } from './actions';
import { MIGRATIONS } from './migrations';
import { AutonomousSystem, PeerSession } from './models';
import { AutonomousSystemReport, CreateAutonomousSystem } from './jobs';

export { AutonomousSystem, PeerSession };

export default definePlugin({
  name: 'netinv_bgp',
  verbose_name: 'BGP',
  base_url: 'bgp',
  version: '0.3.0',
  min_version: '0.1.0',
  max_version: '1.99.0',
  author: 'netinv',
  author_email: 'netinv@example.net',
  description: 'BGP autonomous systems and peer sessions',
  default_settings: { allow_private_asn: true },
  required_settings: [],
  models: [AutonomousSystem, PeerSession],
  actions: [autonomousSystemActions],
  migrations: MIGRATIONS,
  jobs: [AutonomousSystemReport, CreateAutonomousSystem],
});
